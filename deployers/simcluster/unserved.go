package simcluster

import (
	"context"
	"fmt"
	"sort"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// UnservedVersion is a CustomResourceDefinition that has a version with
// served: false (see UnservedVersions).
type UnservedVersion struct {
	// CRD is the CustomResourceDefinition's name, Kind its kind.
	CRD, Kind string
	// Served are the versions it serves, in the order of spec.versions.
	Served []string
}

// UnservedVersions returns the CustomResourceDefinitions of the simulated
// cluster behind target whose group is gv's and that define gv's version
// with served: false, of kind kind (any kind when kind is ""), sorted by
// name. kube-apiserver's discovery leaves such a version out, as it leaves
// out one no CRD defines, so clients fail on it alike ("no matches for
// kind", "the server could not find the requested resource"); hints use
// this to tell the two apart.
func (cs *Clusters) UnservedVersions(ctx context.Context, target *lsv1alpha1.Target, gv schema.GroupVersion, kind string) ([]UnservedVersion, error) {
	c, err := cs.ClusterFor(ctx, target)
	if err != nil {
		return nil, err
	}
	c.set.mu.Lock()
	defer c.set.mu.Unlock()
	list := &apiextensionsv1.CustomResourceDefinitionList{}
	if err := c.inner.List(ctx, list); err != nil {
		return nil, fmt.Errorf("simulated cluster %s: list CRDs: %w", c.key, err)
	}
	var out []UnservedVersion
	for _, crd := range list.Items {
		if crd.Spec.Group != gv.Group || kind != "" && crd.Spec.Names.Kind != kind {
			continue
		}
		unserved, served := false, []string{}
		for _, v := range crd.Spec.Versions {
			switch {
			case v.Served:
				served = append(served, v.Name)
			case v.Name == gv.Version:
				unserved = true
			}
		}
		if unserved {
			out = append(out, UnservedVersion{CRD: crd.Name, Kind: crd.Spec.Names.Kind, Served: served})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].CRD < out[j].CRD })
	return out, nil
}
