package manifest_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/lscli/lscli/deployers/deployer"
	"github.com/lscli/lscli/deployers/manifest/kubetest"
	"github.com/lscli/lscli/reconcile"
)

func TestConfigurations(t *testing.T) {
	tests := []struct {
		name         string
		config       string
		stored       []string
		wantManaged  string
		wantData     string
		wantTerminal string
	}{
		{name: "v1alpha1 raw manifests, manage and update by default",
			config:      "apiVersion: manifest.deployer.landscaper.gardener.cloud/v1alpha1\nkind: ProviderConfiguration\nmanifests:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: a, namespace: ns}, data: {k: new}}",
			stored:      []string{"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: ns}\ndata: {k: old, other: x}"},
			wantManaged: "manage ConfigMap ns/a", wantData: `map[k:new]`},
		{name: "v1alpha2 merge",
			config:      header + "updateStrategy: merge\nmanifests:\n- manifest: {apiVersion: v1, kind: ConfigMap, metadata: {name: a, namespace: ns}, data: {k: new, more: m}}",
			stored:      []string{"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: ns}\ndata: {k: old, other: x}"},
			wantManaged: "manage ConfigMap ns/a", wantData: `map[k:old more:m other:x]`},
		{name: "v1alpha2 mergeOverwrite",
			config:      header + "updateStrategy: mergeOverwrite\nmanifests:\n- manifest: {apiVersion: v1, kind: ConfigMap, metadata: {name: a, namespace: ns}, data: {k: new}}",
			stored:      []string{"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: ns}\ndata: {k: old, other: x}"},
			wantManaged: "manage ConfigMap ns/a", wantData: `map[k:new other:x]`},
		{name: "not JSON", config: "just a string", wantTerminal: "ParseProviderConfiguration"},
		{name: "unknown kind", config: "apiVersion: manifest.deployer.landscaper.gardener.cloud/v1alpha2\nkind: Nope", wantTerminal: "ParseProviderConfiguration"},
		{name: "manifest missing", config: header + "manifests:\n- policy: manage", wantTerminal: "ValidateProviderConfiguration"},
		{name: "bad deletion group", config: header + "deletionGroups: [{}]", wantTerminal: "ValidateProviderConfiguration"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, tt.stored, tt.config)
			_, err := h.call(false)
			if tt.wantTerminal != "" {
				if te, ok := err.(*reconcile.Error); !ok || te.Operation != "InitManifestOperation" || te.Reason != tt.wantTerminal ||
					te.Codes[0] != lsv1alpha1.ErrorConfigurationProblem {
					t.Fatalf("err = %v, want an InitManifestOperation error %s with ERR_CONFIGURATION_PROBLEM", err, tt.wantTerminal)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			wantManaged(t, h, tt.wantManaged)
			if got := fmtAny(kubetest.Get(t, h.cluster, "v1", "ConfigMap", "ns", "a").Object["data"]); got != tt.wantData {
				t.Errorf("data = %s, want %s", got, tt.wantData)
			}
		})
	}
}

func TestV1alpha1ProviderStatus(t *testing.T) {
	h := newHarness(t, []string{"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: old, namespace: ns}"}, header+"manifests: []")
	h.item.Status.ProviderStatus = &runtime.RawExtension{Raw: []byte(`{"apiVersion":"manifest.deployer.landscaper.gardener.cloud/v1alpha1","kind":"ProviderStatus",` +
		`"managedResources":[{"apiVersion":"v1","kind":"ConfigMap","name":"old","namespace":"ns"}]}`)}
	wantTrace(t, h.job(false, 3), "0s Succeeded")
	if h.exists("v1", "ConfigMap", "ns", "old") {
		t.Errorf("an object recorded by a v1alpha1 status is managed and must be deleted when dropped")
	}
}

func TestApplyErrorKeepsPartialStatus(t *testing.T) {
	h := newHarness(t, nil, header+"manifests:"+configMap("a", "manage")+
		"\n  - manifest: {apiVersion: v1, kind: ConfigMap, metadata: {name: nons}}")
	res, err := h.d.Reconcile(context.Background(), deployer.Request{Item: h.item.DeepCopy(), Now: h.now})
	if err == nil || reconcile.IsUnrecoverable(err) || !strings.Contains(err.Error(), "an empty namespace may not be set") {
		t.Fatalf("err = %v, want a normal error about the missing namespace", err)
	}
	h.item.Status.ProviderStatus = res.ProviderStatus
	wantManaged(t, h, "manage ConfigMap ns/a")
}

func TestTargetClientError(t *testing.T) {
	h := newHarness(t, nil, header+"manifests:"+configMap("a", "manage"))
	target := &lsv1alpha1.Target{}
	target.Name = "missing"
	_, err := h.d.Reconcile(context.Background(), deployer.Request{Item: h.item, Target: target, Now: h.now})
	if err == nil || reconcile.IsUnrecoverable(err) {
		t.Fatalf("err = %v, want a normal error", err)
	}
}

// fmtAny prints v; fmt sorts map keys.
func fmtAny(v any) string { return fmt.Sprint(v) }
