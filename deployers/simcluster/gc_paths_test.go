package simcluster

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// The garbage collector learns of every deletion where the store deletes
// the object (the tracker's Delete), whichever path deleted it, as
// kube-controller-manager's garbage collector learns of every deletion from
// its informers. Each test below deletes an owner on a path other than the
// client's Delete and expects its dependent gone at the next step
// (background propagation, Kubernetes' default).

// storedConfigMap returns the stored ConfigMap default/name.
func storedConfigMap(t *testing.T, f *fixture, name string) *corev1.ConfigMap {
	t.Helper()
	cm := &corev1.ConfigMap{}
	if err := f.c.Get(context.Background(), client.ObjectKey{Namespace: "default", Name: name}, cm); err != nil {
		t.Fatal(err)
	}
	return cm
}

// TestGarbageCollectionDeleteAllOf: objects deleted by a DeleteAllOf (a
// deletecollection) take their dependents, as each object deleted alone
// does.
func TestGarbageCollectionDeleteAllOf(t *testing.T) {
	f := newFixture(t)
	f.create(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"parent","namespace":"default","labels":{"app":"x"}}}`)
	ownedConfigMap(t, f, "child", "parent")
	if err := f.c.DeleteAllOf(context.Background(), &corev1.ConfigMap{}, client.InNamespace("default"), client.MatchingLabels{"app": "x"}); err != nil {
		t.Fatal(err)
	}
	if !configMapGone(t, f, "parent") {
		t.Fatal("DeleteAllOf left the owner")
	}
	if !configMapGone(t, f, "child") {
		t.Error("the dependent of an owner deleted by DeleteAllOf stays")
	}
}

// TestGarbageCollectionFinalizerRemoved: an owner that a DeleteAllOf
// marked for deletion (held by a finalizer) goes when an update or a patch
// removes its finalizer, and its dependents with it.
func TestGarbageCollectionFinalizerRemoved(t *testing.T) {
	for _, write := range []string{"update", "merge patch", "apply"} {
		t.Run(write, func(t *testing.T) {
			ctx := context.Background()
			f := newFixture(t)
			f.create(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"parent","namespace":"default","labels":{"app":"x"},"finalizers":["example.com/hold"]}}`)
			ownedConfigMap(t, f, "child", "parent")
			if err := f.c.DeleteAllOf(ctx, &corev1.ConfigMap{}, client.InNamespace("default"), client.MatchingLabels{"app": "x"}); err != nil {
				t.Fatal(err)
			}
			parent := storedConfigMap(t, f, "parent")
			if parent.DeletionTimestamp == nil {
				t.Fatal("the owner is not marked for deletion")
			}
			var err error
			switch write {
			case "update":
				parent.Finalizers = nil
				err = f.c.Update(ctx, parent)
			case "merge patch":
				err = f.c.Patch(ctx, parent, client.RawPatch("application/merge-patch+json", []byte(`{"metadata":{"finalizers":null}}`)))
			case "apply":
				u := &unstructured.Unstructured{}
				u.SetAPIVersion("v1")
				u.SetKind("ConfigMap")
				u.SetNamespace("default")
				u.SetName("parent")
				u.SetFinalizers([]string{})
				err = f.c.Patch(ctx, u, client.Apply, client.FieldOwner("example"), client.ForceOwnership) //nolint:staticcheck // the fake client's apply patch
			}
			if err != nil {
				t.Fatal(err)
			}
			if !configMapGone(t, f, "parent") {
				t.Fatalf("%s did not delete the owner", write)
			}
			if !configMapGone(t, f, "child") {
				t.Errorf("the dependent of an owner whose finalizer %s removed stays", write)
			}
		})
	}
}

// TestGarbageCollectionCRDDeleted: deleting a CRD deletes its custom
// resources, and the garbage collector their dependents.
func TestGarbageCollectionCRDDeleted(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	f.create(unservedCRDManifest, `{"apiVersion":"unserved.example.com/v1","kind":"Doohickey","metadata":{"name":"d","namespace":"default"}}`)
	d := f.get("unserved.example.com/v1", "Doohickey", "default", "d")
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "child",
		OwnerReferences: []metav1.OwnerReference{{APIVersion: "unserved.example.com/v1", Kind: "Doohickey", Name: "d", UID: d.GetUID()}}}}
	if err := f.c.Create(ctx, cm); err != nil {
		t.Fatal(err)
	}
	crd := &unstructured.Unstructured{}
	crd.SetAPIVersion("apiextensions.k8s.io/v1")
	crd.SetKind("CustomResourceDefinition")
	crd.SetName("doohickeys.unserved.example.com")
	if err := f.c.Delete(ctx, crd); err != nil {
		t.Fatal(err)
	}
	if !configMapGone(t, f, "child") {
		t.Error("the dependent of a custom resource whose CRD was deleted stays")
	}
}

// TestGarbageCollectionTokenSecret: the token controller deletes the token
// Secrets of a deleted ServiceAccount, and the garbage collector their
// dependents.
func TestGarbageCollectionTokenSecret(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	f.create(`{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"app","namespace":"default"}}`,
		`{"apiVersion":"v1","kind":"Secret","type":"kubernetes.io/service-account-token","metadata":{"name":"tok","namespace":"default","annotations":{"kubernetes.io/service-account.name":"app"}}}`)
	tok := &corev1.Secret{}
	if err := f.c.Get(ctx, client.ObjectKey{Namespace: "default", Name: "tok"}, tok); err != nil {
		t.Fatal(err)
	}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "child",
		OwnerReferences: []metav1.OwnerReference{{APIVersion: "v1", Kind: "Secret", Name: "tok", UID: tok.UID}}}}
	if err := f.c.Create(ctx, cm); err != nil {
		t.Fatal(err)
	}
	if err := f.c.Delete(ctx, &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "app"}}); err != nil {
		t.Fatal(err)
	}
	if err := f.c.Get(ctx, client.ObjectKey{Namespace: "default", Name: "tok"}, &corev1.Secret{}); err == nil {
		t.Fatal("the token Secret stays")
	}
	if !configMapGone(t, f, "child") {
		t.Error("the dependent of a token Secret the token controller deleted stays")
	}
}

// TestGarbageCollectionOrphanHeldOwner: an owner deleted with propagation
// Orphan while a finalizer holds it orphans its dependents, and they stay
// when the finalizer goes and the owner with it.
func TestGarbageCollectionOrphanHeldOwner(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	f.create(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"parent","namespace":"default","finalizers":["example.com/hold"]}}`)
	ownedConfigMap(t, f, "child", "parent")
	if err := f.c.Delete(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "parent"}},
		client.PropagationPolicy(metav1.DeletePropagationOrphan)); err != nil {
		t.Fatal(err)
	}
	parent := storedConfigMap(t, f, "parent")
	parent.Finalizers = nil
	if err := f.c.Update(ctx, parent); err != nil {
		t.Fatal(err)
	}
	if !configMapGone(t, f, "parent") {
		t.Fatal("the owner stays without its finalizer")
	}
	if configMapGone(t, f, "child") {
		t.Error("the orphaned dependent was deleted")
	}
	if child := storedConfigMap(t, f, "child"); len(child.OwnerReferences) != 0 {
		t.Errorf("owner references of the orphan = %v, want none", child.OwnerReferences)
	}
}

// TestGarbageCollectionDeleteAllOfOrphan: a DeleteAllOf with propagation
// Orphan leaves the dependents of the objects it deleted, without the
// references to them.
func TestGarbageCollectionDeleteAllOfOrphan(t *testing.T) {
	f := newFixture(t)
	f.create(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"parent","namespace":"default","labels":{"app":"x"}}}`)
	ownedConfigMap(t, f, "child", "parent")
	if err := f.c.DeleteAllOf(context.Background(), &corev1.ConfigMap{}, client.InNamespace("default"), client.MatchingLabels{"app": "x"},
		client.PropagationPolicy(metav1.DeletePropagationOrphan)); err != nil {
		t.Fatal(err)
	}
	if !configMapGone(t, f, "parent") || configMapGone(t, f, "child") {
		t.Fatal("want the owner gone and its dependent kept")
	}
	if child := storedConfigMap(t, f, "child"); len(child.OwnerReferences) != 0 {
		t.Errorf("owner references of the orphan = %v, want none", child.OwnerReferences)
	}
}
