package simcluster

import (
	"context"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Namespaced reports whether the simulated cluster behind target serves
// gvk, a built-in kind or one of its CRDs, and whether that kind is
// namespaced, as its discovery would say.
func (cs *Clusters) Namespaced(ctx context.Context, target *lsv1alpha1.Target, gvk schema.GroupVersionKind) (namespaced, served bool, err error) {
	c, err := cs.ClusterFor(ctx, target)
	if err != nil {
		return false, false, err
	}
	c.set.mu.Lock()
	defer c.set.mu.Unlock()
	if !c.serves(gvk) {
		return false, false, nil
	}
	return c.namespaced(gvk), true, nil
}
