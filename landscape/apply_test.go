package landscape

import (
	"context"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/fakecluster"
)

// TestApplyPutsBackOperation checks that Apply, as kubectl apply's three-way
// merge, sets the file's operation annotation again once a controller has
// removed it, and says so in Operated; a file without one leaves the live
// annotations as they are.
func TestApplyPutsBackOperation(t *testing.T) {
	ctx := context.Background()
	c := fakecluster.New(fakecluster.Options{})
	key := types.NamespacedName{Namespace: "default", Name: "demo"}
	file := func(annotations map[string]string) []fakecluster.Object {
		return []fakecluster.Object{&lsv1alpha1.Installation{ObjectMeta: metav1.ObjectMeta{
			Namespace: key.Namespace, Name: key.Name, Annotations: annotations}}}
	}
	withOp := map[string]string{lsv1alpha1.OperationAnnotation: string(lsv1alpha1.ReconcileOperation), "team": "a"}

	res, err := Apply(ctx, c, file(withOp))
	if err != nil || len(res.Created) != 1 || len(res.Operated) != 0 {
		t.Fatalf("create: %+v, %v", res, err)
	}
	res, err = Apply(ctx, c, file(withOp))
	if err != nil || len(res.Unchanged) != 1 || len(res.Operated) != 0 {
		t.Fatalf("annotation still there: want unchanged, got %+v, %v", res, err)
	}

	// The controller starts the job and removes the annotation.
	live := &lsv1alpha1.Installation{}
	if err := c.Get(ctx, key, live); err != nil {
		t.Fatal(err)
	}
	delete(live.Annotations, lsv1alpha1.OperationAnnotation)
	live.Annotations["added-live"] = "x"
	if err := c.Update(ctx, live); err != nil {
		t.Fatal(err)
	}

	res, err = Apply(ctx, c, file(withOp))
	want := ObjectRef{Kind: "Installation", Namespace: "default", Name: "demo"}
	if err != nil || len(res.Updated) != 1 || len(res.Operated) != 1 || res.Operated[0] != want || len(res.ChangedRoots) != 0 {
		t.Fatalf("re-apply: want updated and operated, no spec change, got %+v, %v", res, err)
	}
	if err := c.Get(ctx, key, live); err != nil {
		t.Fatal(err)
	}
	if got := live.Annotations[lsv1alpha1.OperationAnnotation]; got != string(lsv1alpha1.ReconcileOperation) {
		t.Errorf("operation annotation = %q, want reconcile", got)
	}
	if live.Annotations["added-live"] != "x" {
		t.Errorf("an annotation the file does not have was dropped: %v", live.Annotations)
	}

	// Removed again, then a file without it: nothing to apply.
	delete(live.Annotations, lsv1alpha1.OperationAnnotation)
	if err := c.Update(ctx, live); err != nil {
		t.Fatal(err)
	}
	res, err = Apply(ctx, c, file(map[string]string{"team": "a"}))
	if err != nil || len(res.Unchanged) != 1 || len(res.Operated) != 0 {
		t.Fatalf("file without the annotation: want unchanged, got %+v, %v", res, err)
	}
}
