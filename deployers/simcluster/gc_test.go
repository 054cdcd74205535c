package simcluster

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// ownedConfigMap is a ConfigMap in default owned by the ConfigMaps owners.
func ownedConfigMap(t *testing.T, f *fixture, name string, owners ...string) {
	t.Helper()
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name}}
	for _, o := range owners {
		owner := &corev1.ConfigMap{}
		if err := f.c.Get(context.Background(), client.ObjectKey{Namespace: "default", Name: o}, owner); err != nil {
			t.Fatal(err)
		}
		cm.OwnerReferences = append(cm.OwnerReferences, metav1.OwnerReference{APIVersion: "v1", Kind: "ConfigMap", Name: o, UID: owner.UID})
	}
	if err := f.c.Create(context.Background(), cm); err != nil {
		t.Fatal(err)
	}
}

func configMapGone(t *testing.T, f *fixture, name string) bool {
	t.Helper()
	err := f.c.Get(context.Background(), client.ObjectKey{Namespace: "default", Name: name}, &corev1.ConfigMap{})
	if err != nil && !apierrors.IsNotFound(err) {
		t.Fatal(err)
	}
	return apierrors.IsNotFound(err)
}

// TestGarbageCollectionBackground: deleting an owner deletes its dependents
// (and theirs), as kube-controller-manager's garbage collector does by
// default; a dependent with another owner that exists loses only the
// reference to the deleted one.
func TestGarbageCollectionBackground(t *testing.T) {
	f := newFixture(t)
	ownedConfigMap(t, f, "parent")
	ownedConfigMap(t, f, "other")
	ownedConfigMap(t, f, "child", "parent")
	ownedConfigMap(t, f, "grandchild", "child")
	ownedConfigMap(t, f, "shared", "parent", "other")
	if err := f.c.Delete(context.Background(), &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "parent"}}); err != nil {
		t.Fatal(err)
	}
	if !configMapGone(t, f, "child") || !configMapGone(t, f, "grandchild") {
		t.Errorf("dependents of a deleted owner stay")
	}
	shared := &corev1.ConfigMap{}
	if err := f.c.Get(context.Background(), client.ObjectKey{Namespace: "default", Name: "shared"}, shared); err != nil {
		t.Fatalf("dependent with another owner: %v", err)
	}
	if len(shared.OwnerReferences) != 1 || shared.OwnerReferences[0].Name != "other" {
		t.Errorf("owner references of shared = %v, want only other", shared.OwnerReferences)
	}
}

// TestGarbageCollectionOrphan: with propagation Orphan the dependents stay,
// without the reference to the deleted owner.
func TestGarbageCollectionOrphan(t *testing.T) {
	f := newFixture(t)
	ownedConfigMap(t, f, "parent")
	ownedConfigMap(t, f, "child", "parent")
	if err := f.c.Delete(context.Background(), &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "parent"}},
		client.PropagationPolicy(metav1.DeletePropagationOrphan)); err != nil {
		t.Fatal(err)
	}
	child := &corev1.ConfigMap{}
	if err := f.c.Get(context.Background(), client.ObjectKey{Namespace: "default", Name: "child"}, child); err != nil {
		t.Fatalf("orphaned dependent: %v", err)
	}
	if len(child.OwnerReferences) != 0 {
		t.Errorf("owner references of the orphan = %v, want none", child.OwnerReferences)
	}
}

// TestGarbageCollectionBeforeSave: an owner deleted in a command's last
// call takes its dependents before the state is saved.
func TestGarbageCollectionBeforeSave(t *testing.T) {
	f := newFixture(t)
	ownedConfigMap(t, f, "parent")
	ownedConfigMap(t, f, "child", "parent")
	if err := f.c.Delete(context.Background(), &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "parent"}}); err != nil {
		t.Fatal(err)
	}
	g := f.restored()
	g.c = g.client()
	if !configMapGone(t, g, "child") {
		t.Errorf("dependent of an owner deleted before the save is in the saved state")
	}
}

// TestGarbageCollectorIndexesOwners: the collector finds a deleted owner's
// dependents in the tracker's owner index, not by listing every object of
// every kind (a cluster with helm releases holds megabytes of history
// Secrets, and every upgrade deletes objects); the index follows creates,
// updates that change the references, and deletes.
func TestGarbageCollectorIndexesOwners(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	ownedConfigMap(t, f, "parent")
	ownedConfigMap(t, f, "a", "parent")
	ownedConfigMap(t, f, "b", "parent")
	for i := range 20 {
		ownedConfigMap(t, f, fmt.Sprintf("unrelated-%d", i))
	}
	c, err := f.clusters.ClusterFor(ctx, f.target)
	if err != nil {
		t.Fatal(err)
	}
	parent := &corev1.ConfigMap{}
	if err := f.c.Get(ctx, client.ObjectKey{Namespace: "default", Name: "parent"}, parent); err != nil {
		t.Fatal(err)
	}
	names := func() []string {
		var out []string
		for ref := range c.tracker.owners.of(parent.UID) {
			out = append(out, ref.name)
		}
		sort.Strings(out)
		return out
	}
	if got := names(); !slices.Equal(got, []string{"a", "b"}) {
		t.Fatalf("dependents of parent = %v, want [a b]", got)
	}
	b := &corev1.ConfigMap{}
	if err := f.c.Get(ctx, client.ObjectKey{Namespace: "default", Name: "b"}, b); err != nil {
		t.Fatal(err)
	}
	b.OwnerReferences = nil
	if err := f.c.Update(ctx, b); err != nil {
		t.Fatal(err)
	}
	if got := names(); !slices.Equal(got, []string{"a"}) {
		t.Fatalf("dependents of parent after b dropped its reference = %v, want [a]", got)
	}
	if err := f.c.Delete(ctx, parent); err != nil {
		t.Fatal(err)
	}
	if err := f.c.Get(ctx, client.ObjectKey{Namespace: "default", Name: "b"}, &corev1.ConfigMap{}); err != nil {
		t.Fatalf("b, no longer a dependent: %v", err)
	}
	if !configMapGone(t, f, "a") {
		t.Errorf("a dependent of the deleted owner stays")
	}
	if got := names(); len(got) != 0 {
		t.Errorf("dependents of the deleted parent still indexed: %v", got)
	}
	if n := len(c.tracker.owners.owners); n != 0 {
		t.Errorf("%d objects indexed as dependents after every dependent went", n)
	}
}
