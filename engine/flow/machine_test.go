package flow_test

import (
	"context"
	"errors"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/engine/flow"
	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/reconcile"
)

var phases = lsv1alpha1.ExecutionPhases

// TestMachine drives an execution through the shared phase machine with
// scripted phase handlers.
func TestMachine(t *testing.T) {
	tests := []struct {
		name      string
		deleting  bool
		start     lsv1alpha1.ExecutionPhase
		steps     map[lsv1alpha1.ExecutionPhase]lsv1alpha1.ExecutionPhase
		errAt     lsv1alpha1.ExecutionPhase
		err       error
		wantPhase lsv1alpha1.ExecutionPhase
		wantErr   bool
		finished  bool
	}{
		{name: "a new job falls through to a final phase", start: "",
			steps:     map[lsv1alpha1.ExecutionPhase]lsv1alpha1.ExecutionPhase{phases.Init: phases.Progressing, phases.Progressing: phases.Succeeded},
			wantPhase: phases.Succeeded, finished: true},
		{name: "a handler that waits keeps its phase", start: phases.Succeeded,
			steps:     map[lsv1alpha1.ExecutionPhase]lsv1alpha1.ExecutionPhase{phases.Init: phases.Progressing, phases.Progressing: ""},
			wantPhase: phases.Progressing},
		{name: "a normal error keeps the phase and is returned", start: "",
			steps: map[lsv1alpha1.ExecutionPhase]lsv1alpha1.ExecutionPhase{phases.Init: phases.Progressing},
			errAt: phases.Progressing, err: errors.New("not yet"), wantPhase: phases.Progressing, wantErr: true},
		{name: "a terminal error ends in Failed", start: "",
			steps: map[lsv1alpha1.ExecutionPhase]lsv1alpha1.ExecutionPhase{phases.Init: phases.Progressing},
			errAt: phases.Progressing, err: reconcile.TerminalError(errors.New("broken")), wantPhase: phases.Failed, finished: true},
		{name: "deleting starts in InitDelete, a terminal error ends in DeleteFailed", deleting: true, start: phases.Succeeded,
			errAt: phases.InitDelete, err: reconcile.TerminalError(errors.New("stuck")), wantPhase: phases.DeleteFailed, finished: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			clock := reconcile.NewVirtualClock(reconcile.DefaultStartTime)
			c := fakecluster.New(fakecluster.Options{Now: clock.Now})
			exec := &lsv1alpha1.Execution{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "x", Finalizers: []string{"f"}},
				Status: lsv1alpha1.ExecutionStatus{ExecutionPhase: tt.start, JobID: "job2", JobIDFinished: "job1"}}
			if err := c.Create(ctx, exec); err != nil {
				t.Fatal(err)
			}
			if tt.deleting {
				if err := c.Delete(ctx, exec); err != nil {
					t.Fatal(err)
				}
				if err := c.Get(ctx, types.NamespacedName{Namespace: "ns", Name: "x"}, exec); err != nil {
					t.Fatal(err)
				}
			}
			m := &flow.Machine[*lsv1alpha1.Execution, lsv1alpha1.ExecutionPhase]{
				Client: c, Clock: clock, Status: flow.ExecutionStatus,
				Init: phases.Init, InitDelete: phases.InitDelete, Failed: phases.Failed, DeleteFailed: phases.DeleteFailed,
				Run: func(_ context.Context, e *lsv1alpha1.Execution) (lsv1alpha1.ExecutionPhase, error) {
					if e.Status.ExecutionPhase == tt.errAt {
						return "", tt.err
					}
					return tt.steps[e.Status.ExecutionPhase], nil
				},
			}
			err := m.Handle(ctx, exec)
			if (err != nil) != tt.wantErr {
				t.Errorf("Handle = %v, want error: %v", err, tt.wantErr)
			}
			got := &lsv1alpha1.Execution{}
			if err := c.Get(ctx, types.NamespacedName{Namespace: "ns", Name: "x"}, got); err != nil {
				t.Fatal(err)
			}
			st := got.Status
			if st.ExecutionPhase != tt.wantPhase || (st.JobIDFinished == st.JobID) != tt.finished {
				t.Errorf("phase %s, finished %v; want %s, finished %v", st.ExecutionPhase, st.JobIDFinished == st.JobID, tt.wantPhase, tt.finished)
			}
			if tt.err != nil && (st.LastError == nil || st.LastError.Message != tt.err.Error()) {
				t.Errorf("lastError = %+v, want %q", st.LastError, tt.err)
			}
		})
	}
}

// TestMachineOutcomes: a wait with ERR_NO_RETRY writes its lastError and is
// not retried; OnFinish runs in the write that finishes a job, also a Failed
// one, and not for an object being deleted.
func TestMachineOutcomes(t *testing.T) {
	ctx := context.Background()
	clock := reconcile.NewVirtualClock(reconcile.DefaultStartTime)
	c := fakecluster.New(fakecluster.Options{Now: clock.Now})
	exec := &lsv1alpha1.Execution{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "x", Finalizers: []string{"f"}},
		Status: lsv1alpha1.ExecutionStatus{JobID: "job2", JobIDFinished: "job1"}}
	if err := c.Create(ctx, exec); err != nil {
		t.Fatal(err)
	}
	var result error
	finished := 0
	m := &flow.Machine[*lsv1alpha1.Execution, lsv1alpha1.ExecutionPhase]{
		Client: c, Clock: clock, Status: flow.ExecutionStatus,
		Init: phases.Init, InitDelete: phases.InitDelete, Failed: phases.Failed, DeleteFailed: phases.DeleteFailed,
		OnFinish: func(context.Context, *lsv1alpha1.Execution) error { finished++; return nil },
		Run:      func(context.Context, *lsv1alpha1.Execution) (lsv1alpha1.ExecutionPhase, error) { return "", result },
	}
	result = reconcile.NewError("op", "reason", "some running items", lsv1alpha1.ErrorNoRetry)
	if err := m.Handle(ctx, exec); err != nil {
		t.Errorf("a no-retry wait returned %v, want nil (no retry)", err)
	}
	if e := exec.Status.LastError; e == nil || e.Message != "some running items" || exec.Status.ExecutionPhase != phases.Init {
		t.Errorf("status = %+v, want Init with the informational lastError", exec.Status)
	}
	result = reconcile.Fatal(reconcile.NewError("op", "reason", "broken"))
	if err := m.Handle(ctx, exec); err != nil {
		t.Fatal(err)
	}
	if exec.Status.ExecutionPhase != phases.Failed || finished != 1 {
		t.Errorf("phase %s, OnFinish ran %d times; want Failed and once", exec.Status.ExecutionPhase, finished)
	}
}
