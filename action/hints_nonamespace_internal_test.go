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
	"github.com/lscli/lscli/fakecluster"
)

// scopeSims is a SimulatedClusters on which ClusterRoles are
// cluster-scoped, Widgets not served and every other kind namespaced.
type scopeSims struct{ unservedSims }

func (*scopeSims) Namespaced(_ context.Context, _ *lsv1alpha1.Target, gvk schema.GroupVersionKind) (bool, bool, error) {
	switch gvk.Kind {
	case "ClusterRole":
		return false, true, nil
	case "Widget":
		return false, false, nil
	}
	return true, true, nil
}

// TestNoNamespaceHint: a manifest item refused because an object of it has
// no namespace is told which namespaced objects lack one, not the
// cluster-scoped ones, the ones with a namespace or those of kinds the
// cluster does not serve; other refusals get no hint.
func TestNoNamespaceHint(t *testing.T) {
	ctx := context.Background()
	c := fakecluster.New(fakecluster.Options{})
	if err := c.Create(ctx, &lsv1alpha1.Target{ObjectMeta: metav1.ObjectMeta{Namespace: "laas", Name: "cluster"}}); err != nil {
		t.Fatal(err)
	}
	item := func(msg string) *lsv1alpha1.DeployItem {
		di := failedItem(lsv1alpha1.DeployItemPhases.Failed, `timeout at: "manifest deployer: start reconcile"`)
		di.Status.FirstError = &lsv1alpha1.Error{Message: msg}
		di.Spec.Type = deployers.ManifestType
		di.Spec.Target = &lsv1alpha1.ObjectReference{Namespace: "laas", Name: "cluster"}
		di.Spec.Configuration = &runtime.RawExtension{Raw: []byte(`{"manifests":[
			{"policy":"manage","manifest":{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"op"}}},
			{"policy":"manage","manifest":{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRole","metadata":{"name":"op"}}},
			{"policy":"manage","manifest":{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"op"}}},
			{"policy":"manage","manifest":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cfg","namespace":"kafka"}}},
			{"policy":"manage","manifest":{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"}}}]}`)}
		return di
	}
	got, err := noNamespaceHint(ctx, c, &scopeSims{}, item("unable to get object: "+emptyNamespace))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"DeployItem laas/shoot: its manifests have namespaced objects without metadata.namespace: ServiceAccount op, Deployment op. ",
		"does not default the namespace", "Set metadata.namespace on each"} {
		if !strings.Contains(got, w) {
			t.Errorf("hint = %q, want it to contain %q", got, w)
		}
	}
	if got, _ := noNamespaceHint(ctx, c, &scopeSims{}, item(`namespaces "kafka" not found`)); got != "" {
		t.Errorf("another error: hint = %q, want none", got)
	}
	if got, _ := noNamespaceHint(ctx, c, &unservedSims{}, item("unable to get object: "+emptyNamespace)); got != "" {
		t.Errorf("no scope source: hint = %q, want none", got)
	}
}
