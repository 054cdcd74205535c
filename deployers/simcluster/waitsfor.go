package simcluster

import (
	"context"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// WaitsFor says what the pods of workload ns/name of kind gvk, on the
// simulated cluster behind target, wait for (see prereqs.go): the first
// object they need that is missing, in the words of Kubernetes' errors
// (`secret "NAME" not found`, or the key or binding it lacks). It is empty
// when nothing is missing, and for an object that is not there or whose
// kind runs no pods. Hints use it to name what a workload that never got
// ready lacks: a simulated cluster keeps no pods to look at.
func (cs *Clusters) WaitsFor(ctx context.Context, target *lsv1alpha1.Target, gvk schema.GroupVersionKind, ns, name string) (string, error) {
	c, err := cs.ClusterFor(ctx, target)
	if err != nil {
		return "", err
	}
	c.set.mu.Lock()
	defer c.set.mu.Unlock()
	o, err := c.scheme.New(gvk)
	if err != nil {
		return "", nil
	}
	obj, ok := o.(client.Object)
	if !ok {
		return "", nil
	}
	if err := c.inner.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, obj); err != nil {
		if apierrors.IsNotFound(err) {
			return "", nil
		}
		return "", fmt.Errorf("simulated cluster %s: get %s %s/%s: %w", c.key, gvk.Kind, ns, name, err)
	}
	spec, makesPods := podSpecOf(obj)
	if spec == nil || !makesPods {
		return "", nil
	}
	m, err := c.findMissing(ctx, ns, spec)
	if err != nil || m == nil {
		return "", err
	}
	return m.notFound(), nil
}
