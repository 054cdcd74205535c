package action

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/lscli/lscli/deployers"
	"github.com/lscli/lscli/fakecluster"
)

// emptyNamespace is client-go's refusal of a request for a namespaced
// object with a name and no namespace, which Landscaper's manifest applier
// returns when it reads such an object before writing it ("unable to get
// object: ..."): the message names no object.
const emptyNamespace = "an empty namespace may not be set when a resource name is provided"

// emptyNamespaceRe matches emptyNamespace.
var emptyNamespaceRe = regexp.MustCompile(regexp.QuoteMeta(emptyNamespace))

// namespacedSource says whether a kind is namespaced on a simulated
// cluster (*simcluster.Clusters: Namespaced).
type namespacedSource interface {
	Namespaced(ctx context.Context, target *lsv1alpha1.Target, gvk schema.GroupVersionKind) (namespaced, served bool, err error)
}

// noNamespaceHint says, for a manifest item that failed because a
// namespaced object of its manifests has no metadata.namespace, which
// objects those are and that Landscaper's manifest deployer defaults no
// namespace, unlike kubectl (-n, the context's namespace) and helm (the
// release's): install files meant for `kubectl apply -n NS` leave it
// out (Strimzi's cluster operator files do). It is empty for other items,
// and when the objects cannot be told (the target cluster is not
// simulated).
func noNamespaceHint(ctx context.Context, c *fakecluster.Cluster, sims SimulatedClusters, di *lsv1alpha1.DeployItem) (string, error) {
	if di.Spec.Type != deployers.ManifestType || di.Spec.Configuration == nil || di.Spec.Target == nil ||
		failedItemMatch(di, emptyNamespaceRe) == nil {
		return "", nil
	}
	src, ok := sims.(namespacedSource)
	if !ok {
		return "", nil
	}
	cfg, ok := manifestConfigOf(di)
	if !ok {
		return "", nil
	}
	target, err := targetOf(ctx, c, di)
	if target == nil || err != nil {
		return "", err
	}
	var objs []string
	for _, m := range cfg.Manifests {
		if m.Manifest == nil {
			continue
		}
		u := &unstructured.Unstructured{}
		if json.Unmarshal(m.Manifest.Raw, &u.Object) != nil || u.GetNamespace() != "" || u.GetName() == "" {
			continue
		}
		namespaced, served, err := src.Namespaced(ctx, target, u.GroupVersionKind())
		if err != nil {
			return "", err
		}
		if namespaced && served {
			objs = append(objs, u.GetKind()+" "+u.GetName())
		}
	}
	if len(objs) == 0 {
		return "", nil
	}
	return fmt.Sprintf("DeployItem %s/%s: its manifests have namespaced objects without metadata.namespace: %s. "+
		"Landscaper's manifest deployer does not default the namespace, unlike kubectl (-n, or the context's namespace) "+
		"and helm (the release's), and its read of such an object fails (%q, naming no object), on a real Landscaper too. "+
		"Set metadata.namespace on each; install files meant for `kubectl apply -n NAMESPACE` leave it out, and may "+
		"name the namespace elsewhere too (a RoleBinding's ServiceAccount subjects)",
		di.Namespace, di.Name, strings.Join(objs, ", "), emptyNamespace), nil
}
