package helm

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/deployers/realcluster"
	"github.com/lscli/lscli/internal/testcluster"
	"github.com/lscli/lscli/reconcile"
)

// TestRealClusterUnauthorizedManifests: with helmDeployment: false, a
// Target whose credentials the cluster refuses fails the item at once with
// the applier's ERR_UNAUTHORIZED, as in Landscaper, whose template step does
// not ask the cluster anything unless the chart uses lookup: then the
// template step fails (RenderHelmValues, ERR_CONFIGURATION_PROBLEM).
func TestRealClusterUnauthorizedManifests(t *testing.T) {
	tc := testcluster.Get(t)
	kubeconfig := tc.KubeconfigWithToken(t, "revoked")
	tg := &lsv1alpha1.Target{Spec: lsv1alpha1.TargetSpec{Type: realcluster.TargetType}}
	tg.Name, tg.Namespace = "real", "example"
	tg.Spec.Configuration = &lsv1alpha1.AnyJSON{RawMessage: []byte(`{"kubeconfig": ` + jsonString(string(kubeconfig)) + `}`)}

	d := New(Options{Clusters: realcluster.New(realcluster.Options{})})
	item := deployItem(t, config(t, map[string]any{"helmDeployment": false, "namespace": "apps"}), lsv1alpha1.DeployItemPhases.Init, epoch)
	req := request(item, epoch)
	req.Target = tg
	_, err := d.Reconcile(context.Background(), req)
	var e *reconcile.Error
	if !errors.As(err, &e) || e.Operation != "Reconcile" || e.Reason != "Template" ||
		!strings.Contains(e.Message, "Op: TemplateChart - Reason: RenderHelmValues - Message: template: ") ||
		!strings.Contains(e.Message, "error calling lookup: unable to get apiresource from unstructured: /v1, Kind=ConfigMap: Unauthorized") ||
		!reflect.DeepEqual(reconcile.CollectCodes(err), []lsv1alpha1.ErrorCode{lsv1alpha1.ErrorConfigurationProblem}) {
		t.Fatalf("with lookup: err = %v (codes %v), want Reconcile / Template (TemplateChart / RenderHelmValues), ERR_CONFIGURATION_PROBLEM", err, reconcile.CollectCodes(err))
	}

	item = deployItem(t, config(t, map[string]any{"helmDeployment": false, "namespace": "apps",
		"values": map[string]any{"lookup": false}}), lsv1alpha1.DeployItemPhases.Init, epoch)
	req = request(item, epoch)
	req.Target = tg
	_, err = d.Reconcile(context.Background(), req)
	if !errors.As(err, &e) || e.Operation != "GetApiResource" || e.Reason != "GetApiResourceList" ||
		!reflect.DeepEqual(reconcile.CollectCodes(err), []lsv1alpha1.ErrorCode{lsv1alpha1.ErrorUnauthorized}) {
		t.Fatalf("err = %v (codes %v), want GetApiResource / GetApiResourceList, ERR_UNAUTHORIZED", err, reconcile.CollectCodes(err))
	}
}
