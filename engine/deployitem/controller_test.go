package deployitem

import (
	"reflect"
	"testing"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestPickupTimeout checks the landscaper side of the deployer contract.
func TestPickupTimeout(t *testing.T) {
	tests := []struct {
		name        string
		pickup      time.Duration
		phase       lsv1alpha1.DeployItemPhase
		age         time.Duration // how long ago the job was given
		target      string        // spec.target.name; "there" exists
		wantPhase   lsv1alpha1.DeployItemPhase
		wantRequeue time.Duration
		wantMessage string
	}{
		{name: "not picked up, before the deadline: look again 5s after it", phase: lsv1alpha1.DeployItemPhases.Succeeded,
			age: time.Minute, wantPhase: lsv1alpha1.DeployItemPhases.Succeeded, wantRequeue: 4*time.Minute + 5*time.Second},
		{name: "not picked up, deadline passed: PickupTimeout", phase: lsv1alpha1.DeployItemPhases.Succeeded,
			age: 5 * time.Minute, wantPhase: lsv1alpha1.DeployItemPhases.Failed,
			wantMessage: "no deployer has reconciled this deployitem within 300 seconds"},
		{name: "a missing Target is named", phase: lsv1alpha1.DeployItemPhases.Succeeded, target: "nope",
			age: 5*time.Minute + 5*time.Second, wantPhase: lsv1alpha1.DeployItemPhases.Failed,
			wantMessage: "no deployer has reconciled this deployitem within 300 seconds, probably because the referenced Target does not exist"},
		{name: "an existing Target is not named", phase: lsv1alpha1.DeployItemPhases.Succeeded, target: "there",
			age: 5*time.Minute + 5*time.Second, wantPhase: lsv1alpha1.DeployItemPhases.Failed,
			wantMessage: "no deployer has reconciled this deployitem within 300 seconds"},
		{name: "whole seconds", pickup: 90*time.Second + 500*time.Millisecond, phase: lsv1alpha1.DeployItemPhases.Succeeded,
			age: 2 * time.Minute, wantPhase: lsv1alpha1.DeployItemPhases.Failed,
			wantMessage: "no deployer has reconciled this deployitem within 90 seconds"},
		{name: "a new item not picked up fails too", phase: "",
			age: 6 * time.Minute, wantPhase: lsv1alpha1.DeployItemPhases.Failed,
			wantMessage: "no deployer has reconciled this deployitem within 300 seconds"},
		{name: "picked up (phase of the new job): nothing to do", phase: lsv1alpha1.DeployItemPhases.Progressing,
			age: time.Hour, wantPhase: lsv1alpha1.DeployItemPhases.Progressing},
		{name: "timeout none: nothing to do", pickup: -1, phase: lsv1alpha1.DeployItemPhases.Succeeded,
			age: time.Hour, wantPhase: lsv1alpha1.DeployItemPhases.Succeeded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			if tt.pickup != 0 {
				f.cfg.PickupTimeout = tt.pickup
			}
			given := metav1.NewTime(f.Clock.Now())
			f.Create(&lsv1alpha1.Target{ObjectMeta: metav1.ObjectMeta{Name: "there"}})
			di := &lsv1alpha1.DeployItem{ObjectMeta: metav1.ObjectMeta{Name: "x"},
				Spec:   lsv1alpha1.DeployItemSpec{Type: "example.com/t"},
				Status: lsv1alpha1.DeployItemStatus{Phase: tt.phase, JobID: job2, JobIDFinished: job1, JobIDGenerationTime: &given}}
			if tt.target != "" {
				di.Spec.Target = &lsv1alpha1.ObjectReference{Name: tt.target}
			}
			f.Create(di)
			f.Clock.Set(given.Add(tt.age))
			res, err := f.reconcile(New(*f.cfg), "x")
			if err != nil {
				t.Fatal(err)
			}
			di = &lsv1alpha1.DeployItem{}
			f.Get(di, "x")
			if di.Status.Phase != tt.wantPhase {
				t.Errorf("phase = %s, want %s", di.Status.Phase, tt.wantPhase)
			}
			if res.RequeueAfter != tt.wantRequeue || (tt.wantRequeue > 0 && !res.Deadline) {
				t.Errorf("result = %+v, want a deadline after %s", res, tt.wantRequeue)
			}
			if tt.wantPhase == lsv1alpha1.DeployItemPhases.Failed {
				e := di.Status.LastError
				if e == nil || e.Reason != "PickupTimeout" || e.Operation != "WaitingForPickup" || len(e.Codes) != 1 ||
					e.Codes[0] != lsv1alpha1.ErrorTimeout || di.Status.JobIDFinished != job2 || e.Message != tt.wantMessage {
					t.Errorf("status = %+v, want message %q", di.Status, tt.wantMessage)
				}
				if di.Status.ObservedGeneration != di.Generation || !reflect.DeepEqual(di.Status.FirstError, e) || len(di.Status.LastErrors) != 1 ||
					di.Status.TransitionTimes == nil || di.Status.TransitionTimes.FinishedTime == nil {
					t.Errorf("observedGeneration, firstError, lastErrors and finishedTime must be set: %+v", di.Status)
				}
			}
		})
	}
}
