package simcluster

import (
	"context"
	"fmt"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// HeldObject is an object of a simulated cluster that is marked for
// deletion and that finalizers hold which no simulated controller removes
// (see HeldByFinalizers).
type HeldObject struct {
	// Kind, Namespace and Name name the object (Namespace is empty for a
	// cluster-scoped one).
	Kind, Namespace, Name string
	// Finalizers are its finalizers that only a controller that does not
	// run on a simulated cluster removes, in the object's order.
	Finalizers []string
}

// HeldByFinalizers returns, of the objects refs on the simulated cluster
// behind target, those marked for deletion that finalizers of controllers
// a simulated cluster does not run hold, in the order of refs: an
// operator's finalizer on its custom resource (Rook's
// cephcluster.ceph.rook.io on a CephCluster). Such an object stays until
// that finalizer goes, and on a simulated cluster nothing removes it, so
// a deletion that waits for the object times out on every retry.
// Finalizers of Kubernetes' own controllers (kubernetes,
// kubernetes.io/..., foregroundDeletion, orphan) are left out: the
// simulated cluster runs what removes them, or removes them as the
// garbage collector does. Objects that are gone, or of a kind the cluster
// does not serve, are left out.
func (cs *Clusters) HeldByFinalizers(ctx context.Context, target *lsv1alpha1.Target, refs []corev1.ObjectReference) ([]HeldObject, error) {
	c, err := cs.ClusterFor(ctx, target)
	if err != nil {
		return nil, err
	}
	c.set.mu.Lock()
	defer c.set.mu.Unlock()
	var out []HeldObject
	for _, ref := range refs {
		gvk := schema.FromAPIVersionAndKind(ref.APIVersion, ref.Kind)
		ns := ref.Namespace
		if !c.namespaced(gvk) {
			ns = ""
		}
		obj := &unstructured.Unstructured{}
		obj.SetGroupVersionKind(gvk)
		if err := c.inner.Get(ctx, client.ObjectKey{Namespace: ns, Name: ref.Name}, obj); err != nil {
			if apierrors.IsNotFound(err) || meta.IsNoMatchError(err) {
				continue
			}
			return nil, fmt.Errorf("simulated cluster %s: get %s %s: %w", c.key, ref.Kind, client.ObjectKey{Namespace: ns, Name: ref.Name}, err)
		}
		if obj.GetDeletionTimestamp() == nil {
			continue
		}
		var foreign []string
		for _, f := range obj.GetFinalizers() {
			if !kubernetesFinalizer(f) {
				foreign = append(foreign, f)
			}
		}
		if len(foreign) > 0 {
			out = append(out, HeldObject{Kind: ref.Kind, Namespace: ns, Name: ref.Name, Finalizers: foreign})
		}
	}
	return out, nil
}

// kubernetesFinalizer reports whether f is a finalizer of Kubernetes' own
// controllers or of the garbage collector's deletion propagation.
func kubernetesFinalizer(f string) bool {
	switch f {
	case string(corev1.FinalizerKubernetes), "foregroundDeletion", "orphan":
		return true
	}
	return strings.HasPrefix(f, "kubernetes.io/") || strings.HasPrefix(f, "kubernetes/")
}
