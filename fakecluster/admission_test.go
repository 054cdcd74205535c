package fakecluster

import (
	"context"
	"errors"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
)

// TestUpdateCheckRefuses: a refused update returns the check's error and
// changes nothing (no resourceVersion, no event); an allowed one is written;
// a fork keeps the checks.
func TestUpdateCheckRefuses(t *testing.T) {
	c, _ := newTestCluster(t)
	refusal := errors.New("refused")
	c.AddUpdateCheck(lsv1alpha1.SchemeGroupVersion.WithKind("Installation").GroupKind(), func(stored, updated Object) error {
		if updated.(*lsv1alpha1.Installation).Spec.Context == "forbidden" {
			return refusal
		}
		return nil
	})
	mustCreate(t, c, inst("ns", "i"))
	for _, cl := range []*Cluster{c.Fork(), c} {
		rv := cl.ResourceVersion()
		obj := mustGet(t, cl, "ns", "i", &lsv1alpha1.Installation{})
		obj.Spec.Context = "forbidden"
		if err := cl.Update(context.Background(), obj); !errors.Is(err, refusal) {
			t.Fatalf("update = %v, want the check's refusal", err)
		}
		if cl.ResourceVersion() != rv {
			t.Fatal("a refused update was written")
		}
		obj = mustGet(t, cl, "ns", "i", &lsv1alpha1.Installation{})
		obj.Spec.Context = "allowed"
		if err := cl.Update(context.Background(), obj); err != nil || cl.ResourceVersion() == rv {
			t.Fatalf("allowed update: %v, resourceVersion %d → %d", err, rv, cl.ResourceVersion())
		}
	}
}
