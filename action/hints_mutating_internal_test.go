package action

import (
	"context"
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/lscli/lscli/deployers"
	"github.com/lscli/lscli/deployers/simcluster"
	"github.com/lscli/lscli/fakecluster"
)

// mutatingSims is a SimulatedClusters whose cluster has CloudNativePG's
// mutating webhook for Clusters.
type mutatingSims struct{ unservedSims }

func (s *mutatingSims) MutatingWebhooks(_ context.Context, _ *lsv1alpha1.Target, gvk schema.GroupVersionKind, ns, name string) ([]simcluster.MutatingWebhook, error) {
	if gvk.Group != "postgresql.cnpg.io" || gvk.Kind != "Cluster" || ns != "db" || name != "pg" {
		return nil, nil
	}
	return []simcluster.MutatingWebhook{{Configuration: "cnpg-mutating-webhook-configuration", Name: "mcluster.cnpg.io"}}, nil
}

// TestMutatedFieldHint: a manifest item whose export timed out on a field
// its manifest leaves out, of an object a mutating webhook sees, gets the
// hint that names the webhook (which sets such fields on a real cluster,
// on updates too) in place of the one that says an update cleared the
// field on a real cluster too; without such a webhook that one stays.
func TestMutatedFieldHint(t *testing.T) {
	ctx := context.Background()
	c := fakecluster.New(fakecluster.Options{})
	if err := c.Create(ctx, &lsv1alpha1.Target{ObjectMeta: metav1.ObjectMeta{Namespace: "laas", Name: "cluster"}}); err != nil {
		t.Fatal(err)
	}
	item := func(name string) lsv1alpha1.DeployItem {
		di := failedItem(lsv1alpha1.DeployItemPhases.Failed, `timeout at: "deployer: during export - key: image": context deadline exceeded`)
		di.Spec.Type = deployers.ManifestType
		di.Spec.Target = &lsv1alpha1.ObjectReference{Namespace: "laas", Name: "cluster"}
		di.Spec.Configuration = &runtime.RawExtension{Raw: []byte(`{"apiVersion":"manifest.deployer.landscaper.gardener.cloud/v1alpha2","kind":"ProviderConfiguration",` +
			`"manifests":[{"policy":"manage","manifest":{"apiVersion":"postgresql.cnpg.io/v1","kind":"Cluster","metadata":{"name":"` + name + `","namespace":"db"},"spec":{"instances":3}}}],` +
			`"exports":{"exports":[{"key":"image","jsonPath":".spec.imageName","fromResource":{"apiVersion":"postgresql.cnpg.io/v1","kind":"Cluster","name":"` + name + `","namespace":"db"}}]}}`)}
		return *di
	}
	for _, tc := range []struct {
		name, obj, want, notWant string
	}{
		{"webhook", "pg", `The mutating admission webhook "mcluster.cnpg.io" of MutatingWebhookConfiguration cnpg-mutating-webhook-configuration sees every create and update`, "on a real cluster too"},
		{"no webhook", "other", "cleared the field, on a real cluster too", "webhook"},
	} {
		hints, err := itemHints(ctx, c, &mutatingSims{}, nil, []lsv1alpha1.DeployItem{item(tc.obj)})
		if err != nil {
			t.Fatal(err)
		}
		if len(hints) != 1 || !strings.Contains(hints[0], tc.want) || strings.Contains(hints[0], tc.notWant) {
			t.Errorf("%s: hints = %q, want one containing %q, not %q", tc.name, hints, tc.want, tc.notWant)
		}
		if tc.name == "webhook" && !strings.Contains(hints[0], "set spec.imageName in the manifest") {
			t.Errorf("%s: hint = %q, want it to say to set the field", tc.name, hints[0])
		}
	}
}
