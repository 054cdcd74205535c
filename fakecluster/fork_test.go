package fakecluster

import (
	"context"
	"slices"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
)

// TestAdoptedObjectsAreListed: objects taken over from a fork are found by
// every index (label, owner, field) once listed, a replaced object's old
// entries are gone, and the garbage collector sees adopted dependents.
func TestAdoptedObjectsAreListed(t *testing.T) {
	ctx := context.Background()
	c, _ := newTestCluster(t)
	byContext := func(obj Object) []string { return []string{obj.(*lsv1alpha1.Installation).Spec.Context} }
	if err := c.AddIndex(&lsv1alpha1.Installation{}, "context", byContext); err != nil {
		t.Fatal(err)
	}
	parent, kept := inst("ns", "parent"), inst("ns", "kept", withLabels("a", "1"))
	mustCreate(t, c, parent, kept)

	f := c.Fork()
	child := inst("ns", "child", withLabels("app", "web"), withOwners(parent))
	child.Spec.Context = "ctx"
	mustCreate(t, f, child)
	changed := mustGet(t, f, "ns", "kept", &lsv1alpha1.Installation{})
	changed.Labels = map[string]string{"a": "2"}
	if err := f.Update(ctx, changed); err != nil {
		t.Fatal(err)
	}
	var adopt []Object
	for _, name := range []string{"child", "kept"} {
		obj := &lsv1alpha1.Installation{}
		if err := f.GetUnsafe(ctx, types.NamespacedName{Namespace: "ns", Name: name}, obj); err != nil {
			t.Fatal(err)
		}
		adopt = append(adopt, obj)
	}
	if err := c.Adopt(adopt, f.ResourceVersion()); err != nil {
		t.Fatal(err)
	}

	list := func(opts ListOptions) []string {
		t.Helper()
		l := &lsv1alpha1.InstallationList{}
		if err := c.List(ctx, l, opts); err != nil {
			t.Fatal(err)
		}
		return names(l)
	}
	for _, tc := range []struct {
		opts ListOptions
		want []string
	}{
		{ListOptions{LabelSelector: labels.SelectorFromSet(labels.Set{"app": "web"})}, []string{"ns/child"}},
		{ListOptions{LabelSelector: labels.SelectorFromSet(labels.Set{"a": "1"})}, []string{}},
		{ListOptions{LabelSelector: labels.SelectorFromSet(labels.Set{"a": "2"})}, []string{"ns/kept"}},
		{ListOptions{OwnerUID: parent.UID}, []string{"ns/child"}},
		{ListOptions{Namespace: "ns", Field: &FieldMatch{Index: "context", Value: "ctx"}}, []string{"ns/child"}},
	} {
		if got := list(tc.opts); !slices.Equal(got, tc.want) {
			t.Errorf("%+v: %v, want %v", tc.opts, got, tc.want)
		}
	}
	if err := c.Delete(ctx, parent); err != nil {
		t.Fatal(err)
	}
	if exists(t, c, "ns", "child", &lsv1alpha1.Installation{}) {
		t.Error("the adopted child outlived its deleted owner")
	}
}
