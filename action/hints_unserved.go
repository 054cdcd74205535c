package action

import (
	"context"
	"fmt"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/lscli/lscli/deployers/simcluster"
	"github.com/lscli/lscli/fakecluster"
)

// unservedVersionHint is the hint for a deploy item that failed because
// its target cluster does not serve a group version (and kind) it applies
// (see unservedKindHint), when the simulated cluster behind its Target has
// a CustomResourceDefinition of that group (and kind) whose version has
// served: false: the CRD is installed, and the hint for a missing one
// would mislead. kube-apiserver's discovery leaves an unserved version
// out, so the error is the one of a kind no CRD defines, on a real cluster
// too (TestRealClusterUnservedVersion), and stays as it is. It is "" for
// other items, and without simulated clusters.
func unservedVersionHint(ctx context.Context, c *fakecluster.Cluster, sims SimulatedClusters, di *lsv1alpha1.DeployItem) (string, error) {
	if sims == nil || di.Spec.Target == nil {
		return "", nil
	}
	gv, kind, ok := unservedGroupVersion(di)
	if !ok {
		return "", nil
	}
	target, err := targetOf(ctx, c, di)
	if target == nil || err != nil {
		return "", err
	}
	crds, err := sims.UnservedVersions(ctx, target, gv, kind)
	if err != nil || len(crds) == 0 {
		return "", err
	}
	return unservedVersionText(di, gv, kind, crds), nil
}

// unservedGroupVersion returns the group version, and the kind when the
// error names it, that di failed on because its cluster does not serve
// them (the errors unservedKindHint matches).
func unservedGroupVersion(di *lsv1alpha1.DeployItem) (gv schema.GroupVersion, kind string, ok bool) {
	var what string
	if m := failedItemMatch(di, unservedKind); m != nil {
		what = m[1] + m[2]
	} else if m := failedItemMatch(di, unservedReleaseKind); m != nil {
		what, kind = m[2], m[1]
	} else {
		return gv, "", false
	}
	if v, k, found := strings.Cut(what, ", Kind="); found {
		what, kind = v, k
	}
	gv, err := schema.ParseGroupVersion(what)
	return gv, kind, err == nil && gv.Group != ""
}

// unservedVersionText is unservedVersionHint's text for crds, the CRDs
// that define gv (of kind, when known) with served: false.
func unservedVersionText(di *lsv1alpha1.DeployItem, gv schema.GroupVersion, kind string, crds []simcluster.UnservedVersion) string {
	what := gv.String()
	if kind != "" {
		what = gv.WithKind(kind).String()
	}
	var defs []string
	for _, crd := range crds {
		serves := "serves no version"
		if len(crd.Served) > 0 {
			serves = "serves " + strings.Join(crd.Served, ", ")
		}
		defs = append(defs, fmt.Sprintf("CustomResourceDefinition %s (kind %s, %s)", crd.CRD, crd.Kind, serves))
	}
	use := fmt.Sprintf("apply the object in a version its CRD serves (apiVersion %s/<version>)", gv.Group)
	if len(crds) == 1 && len(crds[0].Served) > 0 {
		use = fmt.Sprintf("apply the %s as %s/%s (a version it serves)", crds[0].Kind, gv.Group, crds[0].Served[0])
	}
	return fmt.Sprintf("DeployItem %s/%s: its target cluster (%s) does not serve %s although the CRD is installed: %s "+
		"defines version %s with served: false, and the API server's discovery leaves such a version out, as on a "+
		"real cluster, so clients find no kind there. Either %s, or set served: true for %s in the "+
		"CustomResourceDefinition", di.Namespace, di.Name, itemTarget(di), what, strings.Join(defs, " and "),
		gv.Version, use, gv.Version)
}
