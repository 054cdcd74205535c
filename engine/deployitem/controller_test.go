package deployitem

import (
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
		wantPhase   lsv1alpha1.DeployItemPhase
		wantRequeue time.Duration
	}{
		{name: "not picked up, before the deadline: wake at the deadline", phase: lsv1alpha1.DeployItemPhases.Succeeded,
			age: time.Minute, wantPhase: lsv1alpha1.DeployItemPhases.Succeeded, wantRequeue: 4 * time.Minute},
		{name: "not picked up, deadline passed: PickupTimeout", phase: lsv1alpha1.DeployItemPhases.Succeeded,
			age: 5 * time.Minute, wantPhase: lsv1alpha1.DeployItemPhases.Failed},
		{name: "a new item not picked up fails too", phase: "",
			age: 6 * time.Minute, wantPhase: lsv1alpha1.DeployItemPhases.Failed},
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
			f.Create(&lsv1alpha1.DeployItem{ObjectMeta: metav1.ObjectMeta{Name: "x"},
				Spec:   lsv1alpha1.DeployItemSpec{Type: "example.com/t"},
				Status: lsv1alpha1.DeployItemStatus{Phase: tt.phase, JobID: job2, JobIDFinished: job1, JobIDGenerationTime: &given}})
			f.Clock.Set(given.Add(tt.age))
			res, err := f.reconcile(New(*f.cfg), "x")
			if err != nil {
				t.Fatal(err)
			}
			di := &lsv1alpha1.DeployItem{}
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
					e.Codes[0] != lsv1alpha1.ErrorTimeout || di.Status.JobIDFinished != job2 {
					t.Errorf("status = %+v", di.Status)
				}
			}
		})
	}
}
