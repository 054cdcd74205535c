package manifest_test

import (
	"context"
	"testing"
	"time"

	"github.com/lscli/lscli/deployers/manifest/kubetest"
)

func TestPatchAfterDeploymentWaitsForReadiness(t *testing.T) {
	tests := []struct {
		name      string
		readyAt   time.Duration
		wantTrace string
	}{
		{name: "patched in the apply call", readyAt: -1, wantTrace: "0s Succeeded"},
		{name: "patched in a later call", readyAt: 5 * time.Second, wantTrace: "0s Progressing\n5s Succeeded"},
	}
	cfg := header + `manifests:
- manifest: {apiVersion: v1, kind: ConfigMap, metadata: {name: c, namespace: ns}, data: {state: applied}}
  patchAfterDeployment: {data: {state: patched}}
  annotateBeforeCreate: {created-by: lscli}
- manifest: {apiVersion: v1, kind: Pod, metadata: {name: p, namespace: ns}}`
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stored := []string{}
			if tt.readyAt < 0 {
				stored = append(stored, readyPod)
			}
			h := newHarness(t, stored, cfg)
			var seen []string
			h.before = func(since time.Duration) {
				if c := kubetest.Get(t, h.cluster, "v1", "ConfigMap", "ns", "c"); c != nil {
					seen = append(seen, c.Object["data"].(map[string]any)["state"].(string))
				}
				if tt.readyAt >= 0 && since >= tt.readyAt {
					setPodReady(h)
				}
			}
			wantTrace(t, h.job(false, 5), tt.wantTrace)
			c := kubetest.Get(t, h.cluster, "v1", "ConfigMap", "ns", "c")
			if got := c.Object["data"].(map[string]any)["state"]; got != "patched" {
				t.Errorf("state = %v, want patched", got)
			}
			if got := c.GetAnnotations()["created-by"]; got != "lscli" {
				t.Errorf("annotateBeforeCreate missing: %v", c.GetAnnotations())
			}
			for _, s := range seen {
				if s != "applied" {
					t.Errorf("patched before the objects were ready: saw %v", seen)
				}
			}
		})
	}
}

const readyPod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ns}\nstatus: {conditions: [{type: Ready, status: 'True'}]}"

func setPodReady(h *harness) {
	h.t.Helper()
	u := kubetest.Get(h.t, h.cluster, "v1", "Pod", "ns", "p")
	if u == nil {
		return
	}
	u.Object["status"] = map[string]any{"conditions": []any{map[string]any{"type": "Ready", "status": "True"}}}
	if err := h.cluster.Status().Update(context.Background(), u); err != nil {
		h.t.Fatal(err)
	}
}
