package action

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/gardener/landscaper/apis/deployer/utils/managedresource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lscli/lscli/fakecluster"
)

// ignoredNeedHint says, for a manifest item whose readiness check timed
// out on a workload whose pods wait for an object (simcluster's Wait.Missing)
// that the item's own manifests list with policy ignore, that Landscaper
// never applies such an object: Argo Workflows' install file applied with
// every cluster-scoped object ignored (the platform team's) leaves out the
// PriorityClass its workflow-controller needs. workloadHint names what is
// missing; this hint names the manifest and the policies that apply it.
// It is empty for other items.
func ignoredNeedHint(ctx context.Context, c *fakecluster.Cluster, sims SimulatedClusters, di *lsv1alpha1.DeployItem) (string, error) {
	le := di.Status.LastError
	if sims == nil || le == nil || di.Status.Phase != lsv1alpha1.DeployItemPhases.Failed || di.Spec.Target == nil ||
		di.Spec.Type != "landscaper.gardener.cloud/kubernetes-manifest" {
		return "", nil
	}
	m := readinessObjectTimeout.FindStringSubmatch(le.Message)
	if m == nil {
		return "", nil
	}
	gvk, ok := workloadKinds[m[3]]
	if !ok {
		return "", nil
	}
	ignored := ignoredManifests(di)
	if len(ignored) == 0 {
		return "", nil
	}
	target, err := targetOf(ctx, c, di)
	if target == nil || err != nil {
		return "", err
	}
	w, err := sims.WaitsFor(ctx, target, gvk, m[1], m[2])
	if err != nil || w.Missing == "" {
		return "", err
	}
	for _, o := range ignored {
		if !namesObject(w.Missing, o) {
			continue
		}
		where := o.Name
		if o.Namespace != "" {
			where = o.Namespace + "/" + o.Name
		}
		return fmt.Sprintf("DeployItem %s/%s: the %s %s that the pods of %s %s/%s need is in the item's manifests with "+
			"policy ignore, and Landscaper's manifest deployer never applies an ignored manifest. Unless another item "+
			"or a team creates it, give it policy fallback (created, updated and deleted by this item unless another "+
			"deploy item already manages it) or manage",
			di.Namespace, di.Name, o.Kind, where, m[3], m[1], m[2]), nil
	}
	return "", nil
}

// ignoredManifests are the objects of di's manifests with policy ignore,
// as apiVersion, kind, namespace and name (a manifest without namespace
// has the one of a namespaced object's manifest: none).
func ignoredManifests(di *lsv1alpha1.DeployItem) []metav1.PartialObjectMetadata {
	cfg, ok := manifestConfigOf(di)
	if !ok {
		return nil
	}
	var out []metav1.PartialObjectMetadata
	for _, mf := range cfg.Manifests {
		if mf.Policy != managedresource.IgnorePolicy || mf.Manifest == nil {
			continue
		}
		var o metav1.PartialObjectMetadata
		if json.Unmarshal(mf.Manifest.Raw, &o) == nil && o.Kind != "" && o.Name != "" {
			out = append(out, o)
		}
	}
	return out
}

// namesObject reports whether missing, what a workload's pods wait for in
// the words of Kubernetes' errors, names object o: the Priority admission
// plugin's "no PriorityClass with name NAME was found", or a lookup's
// `KIND "NAME" not found` (serviceaccount, secret, configmap,
// persistentvolumeclaim).
func namesObject(missing string, o metav1.PartialObjectMetadata) bool {
	if o.Kind == "PriorityClass" {
		return missing == "no PriorityClass with name "+o.Name+" was found"
	}
	return strings.HasPrefix(missing, strings.ToLower(o.Kind)+` "`+o.Name+`"`)
}
