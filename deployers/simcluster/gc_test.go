package simcluster

import (
	"context"
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
