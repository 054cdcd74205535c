package manifest_test

import (
	"context"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/lscli/lscli/deployers/manifest/kubetest"
)

const header = "apiVersion: manifest.deployer.landscaper.gardener.cloud/v1alpha2\nkind: ProviderConfiguration\n"

const deployment = `
  - manifest:
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: app, namespace: ns}
      spec: {replicas: 1}`

func configMap(name, policy string) string {
	return "\n  - policy: " + policy + "\n    manifest: {apiVersion: v1, kind: ConfigMap, metadata: {name: " + name + ", namespace: ns}, data: {k: v}}"
}

// becomeReady makes Deployment ns/app ready, as a controller would.
func becomeReady(h *harness) {
	h.t.Helper()
	u := kubetest.Get(h.t, h.cluster, "apps/v1", "Deployment", "ns", "app")
	_ = unstructured.SetNestedMap(u.Object, map[string]any{"replicas": int64(1), "updatedReplicas": int64(1), "availableReplicas": int64(1)}, "status")
	if err := h.cluster.Status().Update(context.Background(), u); err != nil {
		h.t.Fatal(err)
	}
}

func TestReconcileReadiness(t *testing.T) {
	tests := []struct {
		name      string
		timeout   string
		readyAt   time.Duration
		steps     int
		wantTrace string
	}{
		{name: "ready once created", readyAt: 0, steps: 5, wantTrace: "0s Progressing\n5s Succeeded"},
		{name: "polled until ready", readyAt: 12 * time.Second, steps: 10,
			wantTrace: "0s Progressing\n5s Progressing\n10s Progressing\n15s Succeeded"},
		{name: "times out", timeout: "12s", readyAt: time.Hour, steps: 10,
			wantTrace: "0s Progressing\n5s Progressing\n10s Progressing\n12s  error: timeout at: \"deployer: during readiness check - resource ns/app of type Deployment\" [WaitForObjectsReady ProgressingTimeout [ERR_TIMEOUT ERR_FOR_INFO_ONLY]]"},
		{name: "none never times out", timeout: "none", readyAt: time.Hour, steps: 3,
			wantTrace: "0s Progressing\n5s Progressing\n10s Progressing"},
		{name: "default timeout is ten minutes", readyAt: time.Hour, steps: 200, wantTrace: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, nil, header+"manifests:"+deployment)
			if tt.timeout != "" {
				d := mustDuration(t, tt.timeout)
				h.item.Spec.Timeout = d
			}
			h.before = func(since time.Duration) {
				if since >= tt.readyAt && h.exists("apps/v1", "Deployment", "ns", "app") {
					becomeReady(h)
				}
			}
			got := h.job(false, tt.steps)
			if tt.wantTrace == "" {
				wantLast(t, got, "10m0s  error: timeout at: \"deployer: during readiness check - resource ns/app of type Deployment\" [WaitForObjectsReady ProgressingTimeout [ERR_TIMEOUT ERR_FOR_INFO_ONLY]]")
				return
			}
			wantTrace(t, got, tt.wantTrace)
		})
	}
}

func TestReconcileCustomReadiness(t *testing.T) {
	cfg := header + `readinessChecks:
  disableDefault: true
  custom:
  - name: phase
    resourceSelector: [{apiVersion: v1, kind: ConfigMap, name: state, namespace: ns}]
    requirements: [{jsonPath: .data.phase, operator: "==", values: [{value: done}]}]
manifests:` + deployment + configMap("state", "manage")
	h := newHarness(t, nil, cfg)
	h.before = func(since time.Duration) {
		if since < 7*time.Second {
			return
		}
		u := kubetest.Get(t, h.cluster, "v1", "ConfigMap", "ns", "state")
		u.Object["data"] = map[string]any{"phase": "done"}
		if err := h.cluster.Update(context.Background(), u); err != nil {
			t.Fatal(err)
		}
	}
	// The Deployment never becomes ready, but the default check is off.
	wantTrace(t, h.job(false, 10), "0s Progressing\n5s Progressing\n10s Succeeded")
}

func TestReconcileExports(t *testing.T) {
	cfg := header + `exports:
  exports:
  - {key: cfg.value, jsonPath: .data.k, fromResource: {apiVersion: v1, kind: ConfigMap, name: a, namespace: ns}}
  - {key: late, jsonPath: .data.x, fromResource: {apiVersion: v1, kind: ConfigMap, name: late, namespace: ns}}
manifests:` + configMap("a", "manage")
	h := newHarness(t, nil, cfg)
	h.item.Spec.Timeout = mustDuration(t, "30s")
	h.before = func(since time.Duration) {
		if since == 5*time.Second {
			if err := h.cluster.Create(context.Background(), kubetest.Object("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: late, namespace: ns}\ndata: {x: '42'}")); err != nil {
				t.Fatal(err)
			}
		}
	}
	wantTrace(t, h.job(false, 10), "0s Progressing\n5s Succeeded")
	if got, want := string(h.exports), `{"cfg":{"value":"v"},"late":"42"}`; got != want {
		t.Errorf("exports = %s, want %s", got, want)
	}

	h2 := newHarness(t, nil, cfg)
	h2.item.Spec.Timeout = mustDuration(t, "8s")
	wantTrace(t, h2.job(false, 10), "0s Progressing\n5s Progressing\n8s  error: Op: Export - Reason: ProgressingTimeout - Message: timeout at: \"deployer: during export - key: late\": context deadline exceeded [ReconcileManifests ReadExportValues [ERR_TIMEOUT]]")
}

func TestReconcileSecondaryTargetExport(t *testing.T) {
	cfg := header + `exports:
  exports:
  - {key: url, jsonPath: .data.url, targetName: other, fromResource: {apiVersion: v1, kind: ConfigMap, name: remote, namespace: ns}}
manifests:` + configMap("a", "manage")
	h := newHarness(t, nil, cfg)
	other := kubetest.NewClient(kubetest.Objects("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: remote, namespace: ns}\ndata: {url: 'http://x'}"))
	h.d = newDeployer(h.cluster, other)
	wantTrace(t, h.job(false, 3), "0s Succeeded")
	if got, want := string(h.exports), `{"url":"http://x"}`; got != want {
		t.Errorf("exports = %s, want %s", got, want)
	}
}

func wantLast(t *testing.T, trace, want string) {
	t.Helper()
	lines := splitLines(trace)
	if got := lines[len(lines)-1]; got != want {
		t.Errorf("last line = %q, want %q", got, want)
	}
}
