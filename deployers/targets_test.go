package deployers

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/lscli/lscli/reconcile"
)

func TestTargetModesFor(t *testing.T) {
	m := TargetModes{Default: TargetReal, Targets: map[string]TargetMode{"dev/cluster": TargetSimulated, "staging": TargetSimulated}}
	tests := []struct {
		ns, name string
		want     TargetMode
	}{
		{"dev", "cluster", TargetSimulated},
		{"prod", "cluster", TargetReal},
		{"any", "staging", TargetSimulated},
	}
	for _, tt := range tests {
		if got := m.For(target(tt.ns, tt.name, "")); got != tt.want {
			t.Errorf("For(%s/%s) = %s, want %s", tt.ns, tt.name, got, tt.want)
		}
	}
	if got := (TargetModes{}).For(target("a", "b", "")); got != TargetSimulated {
		t.Errorf("zero TargetModes: %s, want simulated", got)
	}
	self := target("prod", "self", "")
	self.Spec.Configuration = lsv1alpha1.NewAnyJSONPointer([]byte(`{"selfConfig":{"serviceAccount":{"name":"sa"}}}`))
	if got := m.For(self); got != TargetSimulated {
		t.Errorf("For(selfConfig Target) = %s, want simulated: lscli simulates Landscaper's own cluster", got)
	}
}

func target(ns, name, kubeconfig string) *lsv1alpha1.Target {
	t := &lsv1alpha1.Target{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	if kubeconfig != "" {
		raw, _ := json.Marshal(map[string]string{"kubeconfig": kubeconfig})
		t.Spec.Configuration = lsv1alpha1.NewAnyJSONPointer(raw)
	}
	return t
}

// clientsFunc adapts a function to deployer.ClusterClients.
type clientsFunc func(*lsv1alpha1.Target) client.Client

func (f clientsFunc) ForTarget(_ context.Context, t *lsv1alpha1.Target) (client.Client, error) {
	return f(t), nil
}

func TestTargetClusters(t *testing.T) {
	simulated := fake.NewClientBuilder().Build()
	realClient := fake.NewClientBuilder().Build()
	ctx := context.Background()
	tc := &TargetClusters{
		Simulated: clientsFunc(func(*lsv1alpha1.Target) client.Client { return simulated }),
		Real:      clientsFunc(func(*lsv1alpha1.Target) client.Client { return realClient }),
		Modes:     TargetModes{Targets: map[string]TargetMode{"prod/a": TargetReal}},
	}
	if c, err := tc.ForTarget(ctx, target("dev", "a", "kc")); err != nil || c != simulated {
		t.Errorf("default Target: %p, %v; want the simulated client", c, err)
	}
	if c, err := tc.ForTarget(ctx, target("prod", "a", "kc")); err != nil || c != realClient {
		t.Errorf("real Target: %p, %v; want the real client", c, err)
	}
	tc.Real = nil
	_, err := tc.ForTarget(ctx, target("prod", "a", "kc"))
	if err == nil || !reconcile.IsTerminal(err) || !strings.Contains(err.Error(), "Target prod/a is set to use its real cluster, but real clusters are not available") {
		t.Errorf("without real clusters: %v", err)
	}
}
