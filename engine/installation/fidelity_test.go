package installation

import (
	"testing"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/engine/internal/enginetest"
	"github.com/lscli/lscli/reconcile"
)

// TestLandscaperFidelity covers the transitions where lscli follows
// Landscaper's installation controller to the letter (issue 8).
func TestLandscaperFidelity(t *testing.T) {
	runInstallationCases(t, false, []installationCase{
		{
			name: "a root that finishes Failed records its dependents",
			setup: func(f *fixture) {
				f.Create(inst("x", status(phases.Progressing, job2, job1), withExport("d")))
				f.Create(childExecution(f, "x", job2, job2, lsv1alpha1.ExecutionPhases.Failed))
				f.Create(inst("succ", status(phases.Succeeded, job1, job1), withImport("d")))
			},
			wantPhase: phases.Failed,
			check:     dependents("succ"),
		},
		{
			name: "hasNoSiblingExports: no dependents",
			setup: func(f *fixture) {
				x := inst("x", status(phases.Completing, job2, job1), withExport("d"), withOptimization(false, true))
				x.Status.ObservedGeneration = 1
				x.Status.ImportsHash = importsHash(f, x)
				f.Create(x)
				f.Create(inst("succ", status(phases.Succeeded, job1, job1), withImport("d")))
			},
			wantPhase: phases.Succeeded,
			check:     dependents(),
		},
		{
			name: "a dependent root is touched and annotated even when it is annotated already; a subinstallation is touched",
			setup: func(f *fixture) {
				x := inst("x", status(phases.Succeeded, job1, job1))
				x.Status.DependentsToTrigger = []lsv1alpha1.DependentToTrigger{{Name: "succ"}}
				f.Create(x)
				f.Create(inst("succ", status(phases.Init, job2, job1), withAnnotation(lsv1alpha1.OperationAnnotation, "reconcile")))
			},
			wantPhase: phases.Succeeded,
			check: func(t *testing.T, f *fixture, _ *lsv1alpha1.Installation) {
				a := f.Installation("succ").Annotations
				if a[lsv1alpha1.OperationAnnotation] != "reconcile" || a[lsv1alpha1.TouchAnnotation] != "true" {
					t.Errorf("dependent annotations = %v, want reconcile and touch", a)
				}
			},
		},
		{
			name: "a missing import fails the job",
			setup: func(f *fixture) {
				f.Create(inst("x", status(phases.Succeeded, job1, job1), withImport("missing"),
					withAnnotation(lsv1alpha1.OperationAnnotation, "reconcile")))
			},
			wantPhase: phases.Failed,
			check: lastErrorIs("init", "ImportsSatisfied",
				`unable to fetch data object missing (/missing): dataobjects.landscaper.gardener.cloud "missing" not found`),
		},
		{
			name: "Completing fails on a root predecessor that started a new job",
			setup: func(f *fixture) {
				f.Create(inst("pred", status(phases.Progressing, job2, job1), withExport("d")))
				x := inst("x", status(phases.Completing, job2, job1), withImport("d"))
				x.Status.ObservedGeneration = 1
				f.Create(x)
			},
			wantPhase: phases.Failed,
			check: lastErrorIs("init", "AllPredecessorsFinished", `Op: NotCompletedDependents - Reason: NotCompletedDependents - `+
				`Message: depending on installation "test/pred" which not finished current job "`+job2+`"`, lsv1alpha1.ErrorForInfoOnly),
		},
		{
			name: "a blueprint without deploy items leaves the execution as it is; it runs its old items again",
			setup: func(f *fixture) {
				f.Create(inst("x", status(phases.Succeeded, job1, job1), withAnnotation(lsv1alpha1.OperationAnnotation, "reconcile")))
				exec := childExecution(f, "x", job1, job1, lsv1alpha1.ExecutionPhases.Succeeded)
				exec.Spec.DeployItems = lsv1alpha1.DeployItemTemplateList{{Name: "old", Type: "landscaper.gardener.cloud/mock"}}
				f.Create(exec)
			},
			wantPhase: phases.Progressing,
			check: func(t *testing.T, f *fixture, x *lsv1alpha1.Installation) {
				exec := f.Execution("x")
				if len(exec.Spec.DeployItems) != 1 || exec.Status.JobID != x.Status.JobID {
					t.Errorf("execution: %d templates, job %s; want the old template and x's job %s", len(exec.Spec.DeployItems), exec.Status.JobID, x.Status.JobID)
				}
				if tt := x.Status.TransitionTimes; tt == nil || tt.WaitTime == nil {
					t.Error("waitTime not set on the way to Progressing")
				}
			},
		},
		{
			name: "interrupt: own annotation first, then the execution with interrupt and touch",
			setup: func(f *fixture) {
				f.Create(inst("x", status(phases.Progressing, job2, job1), withAnnotation(lsv1alpha1.OperationAnnotation, "interrupt")))
				f.Create(childExecution(f, "x", job2, job1, lsv1alpha1.ExecutionPhases.Progressing))
			},
			wantPhase: phases.Progressing,
			check: func(t *testing.T, f *fixture, _ *lsv1alpha1.Installation) {
				a := f.Execution("x").Annotations
				if a[lsv1alpha1.OperationAnnotation] != "interrupt" || a[lsv1alpha1.TouchAnnotation] != "true" {
					t.Errorf("execution annotations = %v", a)
				}
			},
		},
		{
			name: "a failed root with failedReconcile is annotated for a retry at once",
			setup: func(f *fixture) {
				x := inst("x", status(phases.Failed, job1, job1), withFailedReconcile(2, time.Minute))
				x.Status.ObservedGeneration = 1
				f.Create(x)
			},
			wantPhase: phases.Failed,
			check: func(t *testing.T, f *fixture, x *lsv1alpha1.Installation) {
				if x.Annotations[lsv1alpha1.OperationAnnotation] != "reconcile" || x.Annotations[lsv1alpha1.ReconcileReasonAnnotation] != "retry" {
					t.Errorf("annotations = %v, want reconcile with reason retry", x.Annotations)
				}
				if st := x.Status.AutomaticReconcileStatus; st == nil || st.NumberOfReconciles != 1 || !st.OnFailed || st.Generation != 1 {
					t.Errorf("automaticReconcileStatus = %+v", st)
				}
			},
		},
		{
			name: "a user's reconcile annotation resets the automatic reconcile status",
			setup: func(f *fixture) {
				x := inst("x", status(phases.Failed, job1, job1), withFailedReconcile(2, time.Minute),
					withAnnotation(lsv1alpha1.OperationAnnotation, "reconcile"))
				x.Status.AutomaticReconcileStatus = &lsv1alpha1.AutomaticReconcileStatus{Generation: 1, NumberOfReconciles: 2, OnFailed: true}
				f.Create(x)
			},
			wantPhase: phases.Succeeded,
			check: func(t *testing.T, _ *fixture, x *lsv1alpha1.Installation) {
				if x.Status.AutomaticReconcileStatus != nil {
					t.Errorf("automaticReconcileStatus = %+v, want reset", x.Status.AutomaticReconcileStatus)
				}
			},
		},
		{
			name: "reconcile-if-changed: a changed root starts a job by itself",
			setup: func(f *fixture) {
				f.Create(inst("x", status(phases.Succeeded, job1, job1), withAnnotation(lsv1alpha1.ReconcileIfChangedAnnotation, "true")))
			},
			wantPhase: phases.Succeeded,
			check: func(t *testing.T, _ *fixture, x *lsv1alpha1.Installation) {
				if x.Status.JobID == job1 || x.Status.ObservedGeneration != x.Generation {
					t.Errorf("want a new job for the changed spec, got %s", x.Status.JobID)
				}
			},
		},
		{
			name: "cache-helm-charts goes down to the execution",
			setup: func(f *fixture) {
				x := inst("x", status(phases.Succeeded, job1, job1), withAnnotation(lsv1alpha1.OperationAnnotation, "reconcile"),
					withAnnotation(lsv1alpha1.CacheHelmChartsAnnotation, "true"))
				x.Spec.Blueprint = enginetest.InlineBlueprint("- {name: a, type: landscaper.gardener.cloud/mock, config: {}}")
				f.Create(x)
			},
			wantPhase: phases.Progressing,
			check: func(t *testing.T, f *fixture, _ *lsv1alpha1.Installation) {
				if f.Execution("x").Annotations[lsv1alpha1.CacheHelmChartsAnnotation] != "true" {
					t.Error("execution without cache-helm-charts")
				}
			},
		},
		{
			name: "the execution carries operation reconcile, written back when it is gone",
			setup: func(f *fixture) {
				x := inst("x", status(phases.Succeeded, job1, job1), withAnnotation(lsv1alpha1.OperationAnnotation, "reconcile"))
				x.Spec.Blueprint = enginetest.InlineBlueprint("- {name: a, type: landscaper.gardener.cloud/mock, config: {}}")
				f.Create(x)
				// the execution of an earlier job, whose annotation an interrupt removed
				exec := newExecution(f.Installation("x"), nil)
				delete(exec.Annotations, lsv1alpha1.OperationAnnotation)
				f.Create(exec)
			},
			wantPhase: phases.Progressing,
			check: func(t *testing.T, f *fixture, _ *lsv1alpha1.Installation) {
				if got := f.Execution("x").Annotations[lsv1alpha1.OperationAnnotation]; got != "reconcile" {
					t.Errorf("execution operation annotation = %q, want reconcile", got)
				}
			},
		},
	})
}

// TestAutomaticReconcileTimers: a reconcile that is not due yet is a
// scheduled timer; at its time the root is annotated.
func TestAutomaticReconcileTimers(t *testing.T) {
	f := newFixture(t)
	x := inst("x", status(phases.Succeeded, job1, job1))
	x.Spec.AutomaticReconcile = &lsv1alpha1.AutomaticReconcile{SucceededReconcile: &lsv1alpha1.SucceededReconcile{
		Interval: &lsv1alpha1.Duration{Duration: time.Hour}}}
	x.Status.ObservedGeneration = 1
	f.Create(x)
	c := New(*f.cfg)
	if res, err := f.reconcile(c, "x"); err != nil || res != (reconcile.Result{}) {
		t.Fatalf("first pass: %+v %v, want the status written and no timer", res, err)
	}
	if st := f.Installation("x").Status.AutomaticReconcileStatus; st == nil || st.NumberOfReconciles != 0 || st.OnFailed {
		t.Fatalf("status = %+v", st)
	}
	f.Clock.Set(f.Clock.Now().Add(20 * time.Minute))
	res, err := f.reconcile(c, "x")
	if err != nil || res.RequeueAfter != 40*time.Minute || !res.Scheduled {
		t.Fatalf("before the time: %+v %v, want a scheduled timer in 40m", res, err)
	}
	f.Clock.Set(f.Clock.Now().Add(40 * time.Minute))
	if _, err := f.reconcile(c, "x"); err != nil {
		t.Fatal(err)
	}
	got := f.Installation("x")
	if got.Annotations[lsv1alpha1.ReconcileReasonAnnotation] != "retry" || got.Status.AutomaticReconcileStatus.NumberOfReconciles != 1 {
		t.Errorf("at the time: annotations %v, status %+v", got.Annotations, got.Status.AutomaticReconcileStatus)
	}
}

func dependents(names ...string) func(*testing.T, *fixture, *lsv1alpha1.Installation) {
	return func(t *testing.T, _ *fixture, x *lsv1alpha1.Installation) {
		var got []string
		for _, d := range x.Status.DependentsToTrigger {
			got = append(got, d.Name)
		}
		if len(got) != len(names) || (len(names) > 0 && got[0] != names[0]) {
			t.Errorf("dependentsToTrigger = %v, want %v", got, names)
		}
	}
}

func withOptimization(noImports, noExports bool) func(*lsv1alpha1.Installation) {
	return func(i *lsv1alpha1.Installation) {
		i.Spec.Optimization = &lsv1alpha1.Optimization{HasNoSiblingImports: noImports, HasNoSiblingExports: noExports}
	}
}

func withFailedReconcile(n int, interval time.Duration) func(*lsv1alpha1.Installation) {
	return func(i *lsv1alpha1.Installation) {
		i.Spec.AutomaticReconcile = &lsv1alpha1.AutomaticReconcile{FailedReconcile: &lsv1alpha1.FailedReconcile{
			NumberOfReconciles: &n, Interval: &lsv1alpha1.Duration{Duration: interval}}}
	}
}

// TestAutomaticReconcileAtJobStart: the pass that starts a job looks at the
// automatic reconcile with the phase of the last job, as Landscaper's pass
// ends there (retry_helper.go recomputeRetry after reconcileInstallation):
// a user's reconcile of a Failed root with failedReconcile, whose count it
// resets, annotates the root for a retry at once, while the new job runs.
func TestAutomaticReconcileAtJobStart(t *testing.T) {
	f := newFixture(t)
	x := inst("x", status(phases.Failed, job1, job1), withFailedReconcile(3, time.Hour),
		withAnnotation(lsv1alpha1.OperationAnnotation, "reconcile"))
	x.Spec.Blueprint = enginetest.InlineBlueprint("- {name: a, type: landscaper.gardener.cloud/mock, config: {}}")
	x.Status.ObservedGeneration = 1
	x.Status.AutomaticReconcileStatus = &lsv1alpha1.AutomaticReconcileStatus{Generation: 1, NumberOfReconciles: 3, OnFailed: true}
	f.Create(x)
	if _, err := f.reconcile(New(*f.cfg), "x"); err != nil {
		t.Fatal(err)
	}
	got := f.Installation("x")
	if got.Status.JobID == job1 || got.Status.JobID == got.Status.JobIDFinished {
		t.Fatalf("no running job: %s", got.Status.JobID)
	}
	if got.Annotations[lsv1alpha1.OperationAnnotation] != "reconcile" || got.Annotations[lsv1alpha1.ReconcileReasonAnnotation] != "retry" {
		t.Errorf("annotations = %v, want reconcile with reason retry", got.Annotations)
	}
	st := got.Status.AutomaticReconcileStatus
	if st == nil || st.NumberOfReconciles != 1 || !st.OnFailed || !st.LastReconcileTime.Time.Equal(f.Clock.Now()) {
		t.Errorf("automaticReconcileStatus = %+v, want 1 retry now (annotations %v, phase %s)", st, got.Annotations, got.Status.InstallationPhase)
	}
}
