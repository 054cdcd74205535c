package fakecluster

import (
	"context"
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestFieldIndex(t *testing.T) {
	ctx := context.Background()
	c := New(Options{})
	mk := func(name, ctxName string) *lsv1alpha1.Installation {
		return &lsv1alpha1.Installation{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns"},
			Spec: lsv1alpha1.InstallationSpec{Context: ctxName}}
	}
	before := mk("before", "a")
	if err := c.Create(ctx, before); err != nil {
		t.Fatal(err)
	}
	byContext := func(o Object) []string { return []string{o.(*lsv1alpha1.Installation).Spec.Context} }
	if err := c.AddIndex(&lsv1alpha1.Installation{}, "context", byContext); err != nil {
		t.Fatal(err)
	}
	if err := c.AddIndex(&lsv1alpha1.Installation{}, "context", byContext); err == nil {
		t.Error("registering an index twice must fail")
	}
	for _, o := range []*lsv1alpha1.Installation{mk("x", "a"), mk("y", "b")} {
		if err := c.Create(ctx, o); err != nil {
			t.Fatal(err)
		}
	}
	names := func(value string) []string {
		list := &lsv1alpha1.InstallationList{}
		if err := c.List(ctx, list, ListOptions{Field: &FieldMatch{Index: "context", Value: value}}); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, i := range list.Items {
			out = append(out, i.Name)
		}
		return out
	}
	if got := names("a"); len(got) != 2 || got[0] != "before" || got[1] != "x" {
		t.Errorf("index a = %v, want [before x] (objects stored before AddIndex are indexed too)", got)
	}
	y := &lsv1alpha1.Installation{}
	_ = c.Get(ctx, Key(mk("y", "")), y)
	y.Spec.Context = "a"
	if err := c.Update(ctx, y); err != nil {
		t.Fatal(err)
	}
	if got := names("b"); len(got) != 0 {
		t.Errorf("index b = %v after the update, want none", got)
	}
	if got := names("a"); len(got) != 3 {
		t.Errorf("index a = %v after the update, want 3", got)
	}
	err := c.List(ctx, &lsv1alpha1.InstallationList{}, ListOptions{Field: &FieldMatch{Index: "nope", Value: "a"}})
	if err == nil {
		t.Error("a list by an unregistered index must fail")
	}
}

// TestSharedValues follows the count of shared values of a grouped index
// through creates, updates, deletes, a fork, and a restore with the index
// registered afterwards.
func TestSharedValues(t *testing.T) {
	ctx := context.Background()
	byLabel := func(o Object) []string { return []string{o.GetNamespace() + "/" + o.GetLabels()["export"]} }
	group := func(v string) string { ns, _, _ := strings.Cut(v, "/"); return ns }
	shared := func(t *testing.T, c *Cluster, g string) int {
		t.Helper()
		n, err := c.SharedValues(&lsv1alpha1.Installation{}, "export", g)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	c, _ := newTestCluster(t)
	if err := c.AddGroupedIndex(&lsv1alpha1.Installation{}, "export", byLabel, group); err != nil {
		t.Fatal(err)
	}
	mustCreate(t, c, inst("a", "one", withLabels("export", "x")), inst("a", "two", withLabels("export", "y")),
		inst("b", "three", withLabels("export", "x")))
	if n := shared(t, c, "a"); n != 0 {
		t.Fatalf("distinct values: %d shared, want 0", n)
	}
	mustCreate(t, c, inst("a", "four", withLabels("export", "x")), inst("a", "five", withLabels("export", "x")))
	if n := shared(t, c, "a"); n != 1 {
		t.Fatalf("x held three times: %d shared, want 1", n)
	}
	if n := shared(t, c, "b"); n != 0 {
		t.Fatalf("group b: %d shared, want 0", n)
	}
	two := mustGet(t, c, "a", "two", &lsv1alpha1.Installation{})
	two.Labels["export"] = "x"
	if err := c.Update(ctx, two); err != nil {
		t.Fatal(err)
	}
	fork := c.Fork()
	for _, name := range []string{"one", "four", "five"} {
		if err := c.Delete(ctx, inst("a", name)); err != nil {
			t.Fatal(err)
		}
	}
	if n := shared(t, c, "a"); n != 0 {
		t.Fatalf("x held once after the deletes: %d shared, want 0", n)
	}
	if n := shared(t, fork, "a"); n != 1 {
		t.Fatalf("fork: %d shared, want 1 (x four times)", n)
	}
	restored, _ := newTestCluster(t)
	if err := restored.Restore(fork.Objects()); err != nil {
		t.Fatal(err)
	}
	if err := restored.AddGroupedIndex(&lsv1alpha1.Installation{}, "export", byLabel, group); err != nil {
		t.Fatal(err)
	}
	if n := shared(t, restored, "a"); n != 1 {
		t.Fatalf("restored: %d shared, want 1", n)
	}
}
