package installation

import (
	"fmt"
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/landscaper/dataflow"
)

var phases = lsv1alpha1.InstallationPhases

// TestInstallationTransitions drives the installation controller one
// reconcile at a time from a prepared state and checks where "x" ends up.
func TestInstallationTransitions(t *testing.T) {
	runInstallationCases(t, false, []installationCase{
		{
			name: "reconcile annotation on a finished root starts a job and runs it to Succeeded",
			setup: func(f *fixture) {
				f.Create(inst("x", status(phases.Succeeded, job1, job1),
					withAnnotation(lsv1alpha1.OperationAnnotation, "reconcile")))
			},
			wantPhase: phases.Succeeded,
			check: func(t *testing.T, f *fixture, x *lsv1alpha1.Installation) {
				if x.Status.JobID == job1 || x.Status.JobIDFinished != x.Status.JobID {
					t.Errorf("want a new finished job, got jobID %s finished %s", x.Status.JobID, x.Status.JobIDFinished)
				}
				if _, ok := x.Annotations[lsv1alpha1.OperationAnnotation]; ok {
					t.Error("reconcile annotation not removed")
				}
			},
		},
		{
			name: "reconcile annotation on a running root waits for the job",
			setup: func(f *fixture) {
				f.Create(inst("x", status(phases.Progressing, job2, job1),
					withAnnotation(lsv1alpha1.OperationAnnotation, "reconcile")))
				f.Create(childExecution(f, "x", job2, job1, lsv1alpha1.ExecutionPhases.Progressing))
			},
			wantPhase: phases.Progressing,
			check: func(t *testing.T, f *fixture, x *lsv1alpha1.Installation) {
				if x.Status.JobID != job2 || x.Annotations[lsv1alpha1.OperationAnnotation] != "reconcile" {
					t.Errorf("want job %s kept and the annotation kept, got %s %v", job2, x.Status.JobID, x.Annotations)
				}
			},
		},
		{
			name: "reconcile annotation on a subinstallation is removed without effect",
			setup: func(f *fixture) {
				parent := inst("parent", status(phases.Succeeded, job1, job1))
				f.Create(parent)
				f.Create(inst("x", status(phases.Succeeded, job1, job1), withOwner(parent),
					withAnnotation(lsv1alpha1.OperationAnnotation, "reconcile")))
			},
			wantPhase: phases.Succeeded,
			check: func(t *testing.T, f *fixture, x *lsv1alpha1.Installation) {
				if x.Status.JobID != job1 || len(x.Annotations) != 0 {
					t.Errorf("want no new job and no annotation, got %s %v", x.Status.JobID, x.Annotations)
				}
			},
		},
		{
			name: "a subinstallation waits in Init for an unfinished predecessor",
			setup: func(f *fixture) {
				parent := inst("parent", status(phases.Progressing, job2, job1))
				f.Create(parent)
				f.Create(inst("pred", status(phases.Progressing, job2, job1), withOwner(parent), withExport("d")))
				f.Create(inst("x", status(phases.Succeeded, job2, job1), withOwner(parent), withImport("d")))
			},
			wantPhase: phases.Init,
			wantErr: `Op: init - Reason: AllPredecessorsFinished - Message: Op: NotCompletedDependents - Reason: NotCompletedDependents - ` +
				`Message: depending on installation "test/pred" which not finished current job "` + job2 + `"`,
		},
		{
			name: "a failed predecessor fails the subinstallation",
			setup: func(f *fixture) {
				parent := inst("parent", status(phases.Progressing, job2, job1))
				f.Create(parent)
				f.Create(inst("pred", status(phases.Failed, job2, job2), withOwner(parent), withExport("d")))
				f.Create(inst("x", status(phases.Succeeded, job2, job1), withOwner(parent), withImport("d")))
			},
			wantPhase: phases.Failed,
			check:     lastErrorIs("init", "AllPredecessorsSucceeded", `Op: NotCompletedDependents - Reason: NotCompletedDependents - Message: depending on installation "test/pred" which is not succeeded`, lsv1alpha1.ErrorForInfoOnly),
		},
		{
			name: "a root predecessor with a pending reconcile annotation is not finished",
			setup: func(f *fixture) {
				f.Create(inst("pred", status(phases.Succeeded, job1, job1), withExport("d"),
					withAnnotation(lsv1alpha1.OperationAnnotation, "reconcile")))
				f.Create(inst("x", status(phases.Succeeded, job2, job1), withImport("d")))
			},
			wantPhase: phases.Init,
			wantErr:   `depending on installation "test/pred" which has reconcile annotation`,
		},
		{
			name: "Progressing waits for an unfinished execution",
			setup: func(f *fixture) {
				x := inst("x", status(phases.Progressing, job2, job1))
				f.Create(x)
				f.Create(childExecution(f, "x", job2, job1, lsv1alpha1.ExecutionPhases.Progressing))
			},
			wantPhase: phases.Progressing,
			check: func(t *testing.T, _ *fixture, x *lsv1alpha1.Installation) {
				e := x.Status.LastError
				if e == nil || e.Operation != "handlePhaseProgressing" || e.Reason != "JobIDFinished" ||
					e.Message != "execution test / x is not finished yet" || len(e.Codes) != 3 {
					t.Errorf("lastError = %+v, want the informational not finished yet", e)
				}
			},
		},
		{
			name: "Progressing fails when the execution failed",
			setup: func(f *fixture) {
				f.Create(inst("x", status(phases.Progressing, job2, job1)))
				f.Create(childExecution(f, "x", job2, job2, lsv1alpha1.ExecutionPhases.Failed))
			},
			wantPhase: phases.Failed,
			check:     lastErrorIs("buildErrorIfFailedChild", "children failed", "Execution is failed"),
		},
		{
			name: "Completing fails when the spec changed during the job",
			setup: func(f *fixture) {
				x := inst("x", status(phases.Completing, job2, job1))
				x.Status.ObservedGeneration = 0
				x.Status.ImportsHash = importsHash(f, x)
				f.Create(x)
			},
			wantPhase: phases.Failed,
			check:     lastErrorIs("handlePhaseCompleting", "CheckObservedGeneration", "installation spec has been changed", lsv1alpha1.ErrorForInfoOnly),
		},
		{
			name: "Completing records the successors to trigger",
			setup: func(f *fixture) {
				x := inst("x", status(phases.Completing, job2, job1), withExport("d"))
				x.Status.ObservedGeneration = 1
				x.Status.ImportsHash = importsHash(f, x)
				f.Create(x)
				f.Create(inst("succ", status(phases.Succeeded, job1, job1), withImport("d")))
			},
			wantPhase: phases.Succeeded,
			check: func(t *testing.T, f *fixture, x *lsv1alpha1.Installation) {
				if len(x.Status.DependentsToTrigger) != 1 || x.Status.DependentsToTrigger[0].Name != "succ" {
					t.Errorf("dependentsToTrigger = %v, want [succ]", x.Status.DependentsToTrigger)
				}
			},
		},
		{
			name: "Completing fails when the imports changed during the job",
			setup: func(f *fixture) {
				x := inst("x", status(phases.Completing, job2, job1))
				x.Status.ObservedGeneration = 1
				x.Status.ImportsHash = "an-older-hash"
				f.Create(x)
			},
			wantPhase: phases.Failed,
			check:     lastErrorIs("handlePhaseCompleting", "CheckImportsHash", "imports have changed"),
		},
		{
			name: "dependents are triggered at the next reconcile: a root gets the reconcile annotation",
			setup: func(f *fixture) {
				x := inst("x", status(phases.Succeeded, job1, job1))
				x.Status.DependentsToTrigger = []lsv1alpha1.DependentToTrigger{{Name: "succ"}}
				f.Create(x)
				f.Create(inst("succ", status(phases.Succeeded, job1, job1)))
			},
			wantPhase: phases.Succeeded,
			check: func(t *testing.T, f *fixture, x *lsv1alpha1.Installation) {
				if len(x.Status.DependentsToTrigger) != 0 {
					t.Error("dependentsToTrigger not cleared")
				}
				if f.Installation("succ").Annotations[lsv1alpha1.OperationAnnotation] != "reconcile" {
					t.Error("successor root did not get the reconcile annotation")
				}
			},
		},
		{
			name: "interrupt is forwarded to the execution and removed",
			setup: func(f *fixture) {
				f.Create(inst("x", status(phases.Progressing, job2, job1),
					withAnnotation(lsv1alpha1.OperationAnnotation, "interrupt")))
				f.Create(childExecution(f, "x", job2, job1, lsv1alpha1.ExecutionPhases.Progressing))
			},
			wantPhase: phases.Progressing,
			check: func(t *testing.T, f *fixture, x *lsv1alpha1.Installation) {
				if len(x.Annotations) != 0 {
					t.Errorf("annotation not removed: %v", x.Annotations)
				}
				if f.Execution("x").Annotations[lsv1alpha1.OperationAnnotation] != "interrupt" {
					t.Error("execution did not get the interrupt annotation")
				}
			},
		},
	})
}

// installationCase prepares a state, runs one reconcile of installation "x"
// and says where x must end up.
type installationCase struct {
	name  string
	setup func(f *fixture)
	// wantPhase is x's phase after one reconcile; "" means x is gone.
	wantPhase lsv1alpha1.InstallationPhase
	wantErr   string
	check     func(t *testing.T, f *fixture, x *lsv1alpha1.Installation)
}

// runInstallationCases runs each case; with deleteX, x is deleted (marked
// with a deletionTimestamp) after setup.
func runInstallationCases(t *testing.T, deleteX bool, tests []installationCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			tt.setup(f)
			if deleteX {
				f.Delete(f.Installation("x"))
			}
			_, err := f.reconcile(New(*f.cfg), "x")
			checkErr(t, err, tt.wantErr)
			x := &lsv1alpha1.Installation{}
			if !f.Get(x, "x") {
				if tt.wantPhase != "" {
					t.Fatalf("x is gone, want phase %s", tt.wantPhase)
				}
				return
			}
			if x.Status.InstallationPhase != tt.wantPhase {
				t.Errorf("phase = %s, want %s (lastError %v)", x.Status.InstallationPhase, tt.wantPhase, x.Status.LastError)
			}
			if tt.check != nil {
				tt.check(t, f, x)
			}
		})
	}
}

func checkErr(t *testing.T, err error, want string) {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Fatalf("unexpected error: %v", err)
	case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
		t.Fatalf("error = %v, want one containing %q", err, want)
	}
}

// lastErrorIs checks x's lastError exactly and that the job finished.
func lastErrorIs(op, reason, msg string, codes ...lsv1alpha1.ErrorCode) func(*testing.T, *fixture, *lsv1alpha1.Installation) {
	return func(t *testing.T, _ *fixture, x *lsv1alpha1.Installation) {
		e := x.Status.LastError
		if e == nil || e.Operation != op || e.Reason != reason || e.Message != msg || fmt.Sprint(e.Codes) != fmt.Sprint(codes) {
			t.Errorf("lastError = %+v, want {%s %s %q %v}", e, op, reason, msg, codes)
		}
		if x.Status.JobIDFinished != x.Status.JobID {
			t.Error("a failed flow must finish the job")
		}
	}
}

func lastErrorContains(want string) func(*testing.T, *fixture, *lsv1alpha1.Installation) {
	return func(t *testing.T, _ *fixture, x *lsv1alpha1.Installation) {
		if x.Status.LastError == nil || !strings.Contains(x.Status.LastError.Message, want) {
			t.Errorf("lastError = %v, want it to contain %q", x.Status.LastError, want)
		}
		if x.Status.JobIDFinished != x.Status.JobID {
			t.Error("a failed flow must finish the job")
		}
	}
}

// childExecution returns the execution of installation name (which must
// exist) and records it in the installation's status.executionRef, as Init
// does when it creates one.
func childExecution(f *fixture, name, jobID, finished string, phase lsv1alpha1.ExecutionPhase) *lsv1alpha1.Execution {
	owner := f.Installation(name)
	owner.Status.ExecutionReference = &lsv1alpha1.ObjectReference{Name: owner.Name, Namespace: owner.Namespace}
	if err := f.Cluster.UpdateStatus(f.Ctx, owner); err != nil {
		f.T.Fatal(err)
	}
	exec := newExecution(owner, nil)
	exec.Finalizers = []string{lsv1alpha1.LandscaperFinalizer}
	exec.Status = lsv1alpha1.ExecutionStatus{ExecutionPhase: phase, JobID: jobID, JobIDFinished: finished}
	return exec
}

// importsHash is the hash of x's imports as Init would record it.
func importsHash(f *fixture, x *lsv1alpha1.Installation) string {
	f.T.Helper()
	bp, tree, err := dataflow.InstallationBlueprint(f.Ctx, f.Cluster, x, dataflow.Sources{Blueprints: f.cfg.Blueprints, Components: f.cfg.Components})
	if err != nil {
		f.T.Fatal(err)
	}
	imps, err := dataflow.ResolveImports(f.Ctx, f.Cluster, x, bp, tree)
	if err != nil {
		f.T.Fatal(err)
	}
	return imps.Hash
}
