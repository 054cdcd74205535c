package action

import (
	"context"
	"fmt"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/lscli/lscli/fakecluster"
)

// mutatedFieldHint explains an export of a manifest item that timed out on
// a field its manifest does not set (see clearedFieldHint) when a mutating
// admission webhook on the item's simulated target cluster sees updates of
// that object: on a real cluster the webhook's server may set the field,
// on the creation and on every update alike, so the export finds it there
// (CloudNativePG's mcluster.cnpg.io defaults a Cluster's spec.imageName).
// A simulated cluster calls no webhook server: the field is never set. The
// hint names the webhooks and says to set the field in the manifest. It
// is "" for other items, and without simulated clusters.
func mutatedFieldHint(ctx context.Context, c *fakecluster.Cluster, sims SimulatedClusters, di *lsv1alpha1.DeployItem) (string, error) {
	le := di.Status.LastError
	if sims == nil || le == nil || di.Status.Phase != lsv1alpha1.DeployItemPhases.Failed || di.Spec.Target == nil {
		return "", nil
	}
	m := exportTimeout.FindStringSubmatch(le.Message)
	if m == nil {
		return "", nil
	}
	ref, path, _, ok := unsetManifestField(di, m[1])
	if !ok {
		return "", nil
	}
	target, err := targetOf(ctx, c, di)
	if target == nil || err != nil {
		return "", err
	}
	gv, err := schema.ParseGroupVersion(ref.APIVersion)
	if err != nil {
		return "", nil
	}
	hooks, err := sims.MutatingWebhooks(ctx, target, gv.WithKind(ref.Kind), ref.Namespace, ref.Name)
	if err != nil || len(hooks) == 0 {
		return "", err
	}
	names := make([]string, len(hooks))
	for i, h := range hooks {
		names[i] = fmt.Sprintf("%q of MutatingWebhookConfiguration %s", h.Name, h.Configuration)
	}
	return fmt.Sprintf("DeployItem %s/%s: export %q timed out: it reads %s of %s %s/%s, an object the item applies, "+
		"and its manifest does not set that field. The mutating admission webhook %s sees every create and update "+
		"of that object: on a real cluster its server may set the field (defaults an operator writes), on updates too, "+
		"and the export would find it there. A simulated cluster calls no webhook server, so the field stays unset "+
		"and the export waited until the item's timeout. To get the value: set %s in the manifest to what the "+
		"webhook would set",
		di.Namespace, di.Name, m[1], path, ref.Kind, ref.Namespace, ref.Name, strings.Join(names, ", "), strings.TrimPrefix(path, ".")), nil
}
