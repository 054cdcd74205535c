package simcluster

import (
	"context"
	"testing"

	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// TestGarbageCollectionClusterScopedDependentOfNamespacedOwner: a
// cluster-scoped object whose owner reference names a namespaced kind has an
// owner reference Kubernetes cannot resolve (an owner of a namespaced kind
// is looked up in the dependent's namespace, and a cluster-scoped object has
// none), so kube-controller-manager's garbage collector never collects it
// ("Owners and Dependents": it is not able to be garbage collected). The
// namespaced owner's deletion leaves it; a namespaced dependent of the same
// owner goes.
func TestGarbageCollectionClusterScopedDependentOfNamespacedOwner(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	ownedConfigMap(t, f, "parent")
	ownedConfigMap(t, f, "child", "parent")
	parent := storedConfigMap(t, f, "parent")
	role := &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: "owned-by-a-configmap",
		OwnerReferences: []metav1.OwnerReference{{APIVersion: "v1", Kind: "ConfigMap", Name: "parent", UID: parent.UID}}}}
	if err := f.c.Create(ctx, role); err != nil {
		t.Fatal(err)
	}
	if err := f.c.Delete(ctx, parent); err != nil {
		t.Fatal(err)
	}
	if !configMapGone(t, f, "child") {
		t.Error("the namespaced dependent of the deleted owner stays")
	}
	got := &rbacv1.ClusterRole{}
	if err := f.c.Get(ctx, client.ObjectKey{Name: role.Name}, got); err != nil {
		t.Fatalf("the cluster-scoped dependent of a namespaced owner was collected: %v", err)
	}
	if len(got.OwnerReferences) != 1 || got.OwnerReferences[0].UID != parent.UID {
		t.Errorf("owner references = %v, want the unresolvable one kept", got.OwnerReferences)
	}
}
