package execution

import (
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// fidelityItem is an item of Landscaper's classification tests
// (pkg/landscaper/execution/classification_test.go): a template name, its
// dependsOn, and the deploy item's job IDs and phase; missing means no item.
func fidelityItem(name string, dependsOn []string, jobID, finished string, phase lsv1alpha1.DeployItemPhase, missing bool) item {
	it := item{name: name, dependsOn: dependsOn}
	if !missing {
		it.di = &lsv1alpha1.DeployItem{ObjectMeta: metav1.ObjectMeta{Name: name},
			Status: lsv1alpha1.DeployItemStatus{JobID: jobID, JobIDFinished: finished, Phase: phase}}
	}
	return it
}

func names(items []item) []string {
	out := []string{}
	for _, it := range items {
		out = append(out, it.name)
	}
	return out
}

func sameNames(t *testing.T, class string, got []item, want ...string) {
	t.Helper()
	g := names(got)
	if len(g) != len(want) {
		t.Errorf("%s = %v, want %v", class, g, want)
		return
	}
	for i := range g {
		if g[i] != want[i] {
			t.Errorf("%s = %v, want %v", class, g, want)
			return
		}
	}
}

// TestLandscaperClassification runs the cases of Landscaper's
// classification tests through classify and classifyForDelete.
func TestLandscaperClassification(t *testing.T) {
	const curr, prev = "02", "01"
	s, f := lsv1alpha1.DeployItemPhases.Succeeded, lsv1alpha1.DeployItemPhases.Failed
	t.Run("a missing DeployItem is failed", func(t *testing.T) {
		cl, err := classify(curr, []item{fidelityItem("a", nil, "", "", "", true)})
		if err != nil {
			t.Fatal(err)
		}
		sameNames(t, "failed", cl.failed, "a")
		sameNames(t, "others", append(append(append(cl.succeeded, cl.running...), cl.runnable...), cl.pending...))
	})
	t.Run("reconcile", func(t *testing.T) {
		cl, err := classify(curr, []item{
			fidelityItem("a", []string{}, curr, curr, s, false),
			fidelityItem("b", []string{"a"}, curr, curr, f, false),
			fidelityItem("c", []string{"a"}, curr, curr, s, false),
			fidelityItem("d", []string{}, prev, prev, s, false),
			fidelityItem("e", []string{"a", "c"}, prev, prev, s, false),
			fidelityItem("f", []string{"a", "d"}, prev, prev, s, false),
			fidelityItem("g", []string{"f"}, prev, prev, f, false),
			fidelityItem("h", []string{}, curr, prev, s, false),
			fidelityItem("i", []string{}, curr, prev, lsv1alpha1.DeployItemPhases.Progressing, false),
		})
		if err != nil {
			t.Fatal(err)
		}
		sameNames(t, "succeeded", cl.succeeded, "a", "c")
		sameNames(t, "failed", cl.failed, "b")
		sameNames(t, "running", cl.running, "h", "i")
		sameNames(t, "runnable", cl.runnable, "d", "e")
		sameNames(t, "pending", cl.pending, "f", "g")
	})
	t.Run("delete", func(t *testing.T) {
		cl := classifyForDelete(curr, []item{
			fidelityItem("a", []string{"c", "f"}, "", "", "", true),
			fidelityItem("b", []string{}, curr, curr, f, false),
			fidelityItem("c", []string{"e"}, "", "", "", true),
			fidelityItem("d", []string{"f"}, prev, prev, s, false),
			fidelityItem("e", []string{}, prev, prev, s, false),
			fidelityItem("f", []string{"g"}, prev, prev, s, false),
			fidelityItem("g", []string{}, prev, prev, f, false),
			fidelityItem("h", []string{}, curr, prev, s, false),
			fidelityItem("i", []string{}, curr, prev, lsv1alpha1.DeployItemPhases.Deleting, false),
			fidelityItem("j", []string{}, curr, curr, s, false),
		})
		sameNames(t, "succeeded", cl.succeeded, "a", "c")
		sameNames(t, "failed", cl.failed, "b")
		sameNames(t, "running", cl.running, "h", "i", "j")
		sameNames(t, "runnable", cl.runnable, "d", "e")
		sameNames(t, "pending", cl.pending, "f", "g")
	})
}

// TestExecutionObservedGeneration: Landscaper's execution controller never
// writes status.observedGeneration (only installations and deploy items
// have one that is maintained), so it stays as it was.
func TestExecutionObservedGeneration(t *testing.T) {
	f := newFixture(t)
	setupExecution(f, execPhases.Succeeded, []diSpec{{name: "a", jobID: job1, finished: job1, phase: lsv1alpha1.DeployItemPhases.Succeeded}}, nil)
	exec := f.Execution("x")
	exec.Spec.DeployItems[0].Labels = map[string]string{"changed": "yes"}
	if err := f.Cluster.Update(f.Ctx, exec); err != nil {
		t.Fatal(err)
	}
	if _, err := f.reconcile(New(*f.cfg), "x"); err != nil {
		t.Fatal(err)
	}
	exec = f.Execution("x")
	if exec.Status.ExecutionPhase != execPhases.Progressing || exec.Generation < 2 {
		t.Fatalf("phase %s, generation %d; want Progressing after a spec change", exec.Status.ExecutionPhase, exec.Generation)
	}
	if exec.Status.ObservedGeneration != 0 {
		t.Errorf("observedGeneration = %d, want 0: Landscaper's execution controller does not set it", exec.Status.ObservedGeneration)
	}
}

// TestExecutionDeletingLooksAtTemplatesOnly: Landscaper's Deleting
// (TriggerDeployItemsForDelete) classifies the items of the templates only,
// with the templates' dependsOn: an orphan left over from a failed orphan
// deletion is deleted in InitDelete but never gets the job, and the
// execution goes once the templates' items are gone.
func TestExecutionDeletingLooksAtTemplatesOnly(t *testing.T) {
	f := newFixture(t)
	setupExecution(f, execPhases.Failed, []diSpec{
		{name: "a", jobID: job1, finished: job1, phase: lsv1alpha1.DeployItemPhases.Succeeded},
		{name: "b", dependsOn: []string{"a"}, jobID: job1, finished: job1, phase: lsv1alpha1.DeployItemPhases.Succeeded},
	}, nil)
	// The annotation of a says it depends on b: Landscaper reads the
	// template's dependsOn (none), not the annotation.
	a := f.deployItem("a")
	a.Annotations[lsv1alpha1.ExecutionDependsOnAnnotation] = "b"
	if err := f.Cluster.Update(f.Ctx, a); err != nil {
		t.Fatal(err)
	}
	exec := f.Execution("x")
	orphan := f.deployItem("a").DeepCopy()
	orphan.ObjectMeta = metav1.ObjectMeta{Name: "x-gone", Namespace: testNS, Finalizers: []string{lsv1alpha1.LandscaperFinalizer},
		OwnerReferences: a.OwnerReferences,
		Labels:          map[string]string{lsv1alpha1.ExecutionManagedByLabel: exec.Name, lsv1alpha1.ExecutionManagedNameLabel: "gone"}}
	orphan.Status = lsv1alpha1.DeployItemStatus{Phase: lsv1alpha1.DeployItemPhases.DeleteFailed, JobID: job1, JobIDFinished: job1}
	f.Create(orphan)
	f.Delete(exec)
	c := New(*f.cfg)
	if _, err := f.reconcile(c, "x"); err != nil {
		t.Fatal(err)
	}
	if p := f.Execution("x").Status.ExecutionPhase; p != execPhases.Deleting {
		t.Fatalf("phase = %s, want Deleting (lastError %v)", p, f.Execution("x").Status.LastError)
	}
	got := &lsv1alpha1.DeployItem{}
	if !f.Get(got, "x-gone") || got.DeletionTimestamp == nil || got.Status.JobID != job1 {
		t.Errorf("orphan: want deleted in InitDelete and not triggered; %v %+v", got.DeletionTimestamp, got.Status)
	}
	if a, b := f.deployItem("a"), f.deployItem("b"); a.Status.JobID == job2 || b.Status.JobID != job2 {
		t.Errorf("want only b triggered (the template of a depends on nothing, a's on b's): a %s b %s", a.Status.JobID, b.Status.JobID)
	}
	for _, n := range []string{"a", "b"} {
		di := f.deployItem(n)
		di.Finalizers = nil
		if err := f.Cluster.Update(f.Ctx, di); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.reconcile(c, "x"); err != nil {
		t.Fatal(err)
	}
	if f.Get(&lsv1alpha1.Execution{}, "x") {
		t.Errorf("execution still there (%+v): the orphan must not hold it", f.Execution("x").Status)
	}
}
