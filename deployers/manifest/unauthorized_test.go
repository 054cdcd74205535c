package manifest_test

import (
	"context"
	"encoding/json"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lscli/lscli/deployers/manifest"
	"github.com/lscli/lscli/deployers/realcluster"
	"github.com/lscli/lscli/internal/testcluster"
)

// TestRealClusterUnauthorized: a Target whose credentials the cluster
// refuses (an expired or revoked token) fails the item at once with
// ERR_UNAUTHORIZED, as Landscaper's manifest deployer does since #1259
// (ApiResourceHandler.GetApiResourceForType: the discovery answers 401),
// instead of retrying until the item's timeout.
func TestRealClusterUnauthorized(t *testing.T) {
	tc := testcluster.Get(t)
	kubeconfig := tc.KubeconfigWithToken(t, "revoked")
	target := &lsv1alpha1.Target{Spec: lsv1alpha1.TargetSpec{Type: realcluster.TargetType}}
	target.Name, target.Namespace = "real", "default"
	raw, err := json.Marshal(map[string]string{"kubeconfig": string(kubeconfig)})
	if err != nil {
		t.Fatal(err)
	}
	target.Spec.Configuration = &lsv1alpha1.AnyJSON{RawMessage: raw}
	c, err := realcluster.New(realcluster.Options{}).ForTarget(context.Background(), target)
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, now: epoch, cluster: c,
		item: &lsv1alpha1.DeployItem{ObjectMeta: metav1.ObjectMeta{Name: "di", Namespace: "default"}}}
	h.d = manifest.New(manifest.Options{Clusters: clusters{"": c}})
	h.setConfig(header + `manifests:
- manifest: {apiVersion: v1, kind: ConfigMap, metadata: {name: a, namespace: default}, data: {k: v}}`)
	trace, retried := h.realJob(false, 3)
	wantTrace(t, trace, "0s  error: unable to get api resources for v1: Unauthorized [GetApiResource GetApiResourceList [ERR_UNAUTHORIZED]]")
	if len(retried) > 0 {
		t.Errorf("retried:\n%v", retried)
	}
}
