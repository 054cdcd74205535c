package installation

import (
	"fmt"
	"testing"

	"github.com/lscli/lscli/fakecluster"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
)

// TestInstallationDeletion drives the deletion flow of "x", which is deleted
// (deletionTimestamp set) after setup.
func TestInstallationDeletion(t *testing.T) {
	runInstallationCases(t, true, []installationCase{
		{
			name:      "the first deletion of a root starts a job; without children it is gone at once",
			setup:     func(f *fixture) { f.Create(inst("x", status(phases.Succeeded, job1, job1))) },
			wantPhase: "",
		},
		{
			name: "InitDelete waits while a successor exists",
			setup: func(f *fixture) {
				f.Create(inst("x", status(phases.Succeeded, job1, job1), withExport("d")))
				f.Create(inst("succ", status(phases.Succeeded, job1, job1), withImport("d")))
			},
			wantPhase: phases.InitDelete,
			wantErr:   "Op: CheckSuccessorSibling - Reason: SiblingImport - Message: a sibling still imports some of the exports",
		},
		{
			name: "a root whose successor root failed its own deletion waits in InitDelete",
			setup: func(f *fixture) {
				f.Create(inst("x", status(phases.Succeeded, job1, job1), withExport("d")))
				f.Create(inst("succ", status(phases.DeleteFailed, job2, job2), withImport("d")))
			},
			wantPhase: phases.InitDelete,
			wantErr:   "a sibling still imports some of the exports",
		},
		{
			name: "a subinstallation whose successor failed its deletion in the same job fails",
			setup: func(f *fixture) {
				parent := inst("parent", status(phases.Deleting, job2, job1))
				f.Create(parent)
				f.Create(inst("x", status(phases.Succeeded, job2, job1), withOwner(parent), withExport("d")))
				f.Create(inst("succ", status(phases.DeleteFailed, job2, job2), withOwner(parent), withImport("d")))
			},
			wantPhase: phases.DeleteFailed,
			check:     lastErrorIs("CheckSuccessorSibling", "SiblingDeleteError", "deletion of a sibling failed", lsv1alpha1.ErrorForInfoOnly),
		},
		{
			name: "only the first successor (by name) counts",
			setup: func(f *fixture) {
				parent := inst("parent", status(phases.Deleting, job2, job1))
				f.Create(parent)
				f.Create(inst("x", status(phases.Succeeded, job2, job1), withOwner(parent), withExport("d")))
				f.Create(inst("a-succ", status(phases.Succeeded, job1, job1), withOwner(parent), withImport("d")))
				f.Create(inst("b-succ", status(phases.DeleteFailed, job2, job2), withOwner(parent), withImport("d")))
			},
			wantPhase: phases.InitDelete,
			wantErr:   "a sibling still imports some of the exports",
		},
		{
			name: "delete-ignore-successors skips the successor check",
			setup: func(f *fixture) {
				f.Create(inst("x", status(phases.Succeeded, job1, job1), withExport("d"),
					withAnnotation(lsv1alpha1.DeleteIgnoreSuccessors, "true")))
				f.Create(inst("succ", status(phases.Succeeded, job1, job1), withImport("d")))
			},
			wantPhase: "",
		},
		{
			name: "children are deleted, get the job and delete-without-uninstall; x waits in Deleting",
			setup: func(f *fixture) {
				f.Create(inst("x", status(phases.Succeeded, job1, job1),
					withAnnotation(lsv1alpha1.DeleteWithoutUninstallAnnotation, "true")))
				f.Create(childExecution(f, "x", job1, job1, lsv1alpha1.ExecutionPhases.Succeeded))
			},
			wantPhase: phases.Deleting,
			wantErr:   "Op: handleReconcilePhase - Reason: PendingSubobjects - Message: deletion of some sub objects pending",
			check: func(t *testing.T, f *fixture, x *lsv1alpha1.Installation) {
				exec := f.Execution("x")
				if exec.DeletionTimestamp == nil || exec.Status.JobID != x.Status.JobID {
					t.Errorf("execution not deleted and triggered: %v %s", exec.DeletionTimestamp, exec.Status.JobID)
				}
				if exec.Annotations[lsv1alpha1.DeleteWithoutUninstallAnnotation] != "true" {
					t.Error("delete-without-uninstall not passed on")
				}
			},
		},
		{
			name: "Deleting ends in DeleteFailed when every remaining child failed",
			setup: func(f *fixture) {
				f.Create(inst("x", status(phases.Deleting, job2, job1)))
				exec := childExecution(f, "x", job2, job2, lsv1alpha1.ExecutionPhases.DeleteFailed)
				f.Create(exec)
				f.Delete(exec)
			},
			wantPhase: phases.DeleteFailed,
		},
		{
			name: "a reconcile annotation retries a failed deletion with a new job",
			setup: func(f *fixture) {
				f.Create(inst("x", status(phases.DeleteFailed, job1, job1),
					withAnnotation(lsv1alpha1.OperationAnnotation, "reconcile")))
			},
			wantPhase: "",
		},
	})
}

// TestDeletionTouchesExecutionFirst: Landscaper's handleDeletionPhaseInit and
// handleDeletionPhaseTriggerDeleting (reconcile_delete.go) handle the
// execution before the subinstallations; ObjectsCreated passes the job to
// the subinstallations first.
func TestDeletionTouchesExecutionFirst(t *testing.T) {
	f := newFixture(t)
	f.Create(inst("x", status(phases.Succeeded, job1, job1),
		withAnnotation(lsv1alpha1.DeleteWithoutUninstallAnnotation, "true")))
	f.Create(inst("sub", status(phases.Succeeded, job1, job1), withOwner(f.Installation("x"))))
	f.Create(childExecution(f, "x", job1, job1, lsv1alpha1.ExecutionPhases.Succeeded))
	f.Delete(f.Installation("x"))
	var seen []string
	f.Cluster.Watch(func(e fakecluster.Event) {
		if e.Kind != "Installation" || e.New.GetName() != "x" {
			seen = append(seen, e.Kind)
		}
	})
	if _, err := f.reconcile(New(*f.cfg), "x"); err == nil {
		t.Fatal("want the Deleting wait")
	}
	// Annotated, deleted, given the job: the execution first each time.
	want := "[Execution Execution Installation Installation Execution Installation]"
	if got := fmt.Sprint(seen); got != want {
		t.Errorf("writes to the children = %s, want %s", got, want)
	}
}
