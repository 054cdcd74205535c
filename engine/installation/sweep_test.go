package installation

import (
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
)

// TestControllerSweep covers cases of Landscaper's installation controller
// (pkg/landscaper/controllers/installations) found in a case-by-case
// comparison with its source.
func TestControllerSweep(t *testing.T) {
	runInstallationCases(t, false, []installationCase{
		{
			// reconcileInstallation: TriggerDependents does not end the
			// reconcile; the new job starts in the same pass.
			name: "a root with dependents to trigger and a reconcile annotation triggers them and starts its job in one pass",
			setup: func(f *fixture) {
				f.Create(inst("x", status(phases.Succeeded, job1, job1),
					withAnnotation(lsv1alpha1.OperationAnnotation, "reconcile"), func(i *lsv1alpha1.Installation) {
						i.Status.DependentsToTrigger = []lsv1alpha1.DependentToTrigger{{Name: "succ"}}
					}))
				f.Create(inst("succ", status(phases.Succeeded, job1, job1)))
			},
			wantPhase: phases.Succeeded,
			check: func(t *testing.T, f *fixture, x *lsv1alpha1.Installation) {
				if x.Status.JobID == job1 || len(x.Status.DependentsToTrigger) != 0 {
					t.Errorf("jobID %s, dependents %v: want a new job and none left", x.Status.JobID, x.Status.DependentsToTrigger)
				}
				if f.Installation("succ").Annotations[lsv1alpha1.OperationAnnotation] != "reconcile" {
					t.Error("dependent not triggered")
				}
			},
		},
		{
			name: "a root with dependents to trigger and an interrupt annotation triggers them and passes the interrupt on in one pass",
			setup: func(f *fixture) {
				f.Create(inst("x", status(phases.Progressing, job2, job1),
					withAnnotation(lsv1alpha1.OperationAnnotation, "interrupt"), func(i *lsv1alpha1.Installation) {
						i.Status.DependentsToTrigger = []lsv1alpha1.DependentToTrigger{{Name: "succ"}}
					}))
				f.Create(childExecution(f, "x", job2, job1, lsv1alpha1.ExecutionPhases.Progressing))
				f.Create(inst("succ", status(phases.Succeeded, job1, job1)))
			},
			wantPhase: phases.Progressing,
			check: func(t *testing.T, f *fixture, x *lsv1alpha1.Installation) {
				if f.Execution("x").Annotations[lsv1alpha1.OperationAnnotation] != "interrupt" {
					t.Error("interrupt not passed on to the execution")
				}
				if len(x.Status.DependentsToTrigger) != 0 {
					t.Error("dependents not cleared")
				}
			},
		},
		{
			// handlePhaseProgressing lists every subinstallation, also one
			// being deleted.
			name: "Progressing waits for a subinstallation being deleted that has not finished",
			setup: func(f *fixture) {
				x := inst("x", status(phases.Progressing, job2, job1))
				f.Create(x)
				sub := inst("sub", status(phases.Progressing, job2, job1), withOwner(f.Installation("x")))
				f.Create(sub)
				f.Delete(sub)
			},
			wantPhase: phases.Progressing,
			check: func(t *testing.T, _ *fixture, x *lsv1alpha1.Installation) {
				if e := x.Status.LastError; e == nil || e.Message != "installation test / sub is not finished yet" {
					t.Errorf("lastError = %+v, want the wait for sub", e)
				}
			},
		},
		{
			name: "Progressing fails for a failed subinstallation being deleted",
			setup: func(f *fixture) {
				x := inst("x", status(phases.Progressing, job2, job1))
				f.Create(x)
				sub := inst("sub", status(phases.Failed, job2, job2), withOwner(f.Installation("x")))
				f.Create(sub)
				f.Delete(sub)
			},
			wantPhase: phases.Failed,
			check:     lastErrorIs("buildErrorIfFailedChild", "children failed", "Failed sub-installation(s): sub"),
		},
		{
			// handlePhaseObjectsCreated: the subinstallations get the job,
			// then the Execution of status.executionRef is read; a missing
			// one is an error that keeps the phase.
			name: "ObjectsCreated passes the job to the subinstallations, then fails to read a missing referenced execution",
			setup: func(f *fixture) {
				x := inst("x", status(phases.ObjectsCreated, job2, job1))
				x.Status.ExecutionReference = &lsv1alpha1.ObjectReference{Name: "x", Namespace: testNS}
				f.Create(x)
				f.Create(inst("sub", status(phases.Succeeded, job1, job1), withOwner(f.Installation("x"))))
			},
			wantPhase: phases.ObjectsCreated,
			wantErr:   "Op: handlePhaseObjectsCreated - Reason: GetExecution - Message: executions.landscaper.gardener.cloud \"x\" not found",
			check: func(t *testing.T, f *fixture, x *lsv1alpha1.Installation) {
				if got := f.Installation("sub").Status.JobID; got != job2 {
					t.Errorf("sub's job = %s, want %s", got, job2)
				}
			},
		},
		{
			name: "Progressing without status.executionRef does not look for an execution",
			setup: func(f *fixture) {
				f.Create(inst("x", status(phases.Progressing, job2, job1)))
				exec := newExecution(f.Installation("x"), nil)
				exec.Status = lsv1alpha1.ExecutionStatus{ExecutionPhase: lsv1alpha1.ExecutionPhases.Failed, JobID: job1, JobIDFinished: job1}
				f.Create(exec)
				x := f.Installation("x")
				x.Status.ImportsHash = importsHash(f, x)
				x.Status.ObservedGeneration = x.Generation
				if err := f.Cluster.UpdateStatus(f.Ctx, x); err != nil {
					t.Fatal(err)
				}
			},
			wantPhase: phases.Succeeded,
		},
	})
}
