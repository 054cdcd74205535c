package manifest_test

import (
	"strings"
	"testing"
	"time"

	"github.com/lscli/lscli/deployers/manifest/kubetest"
)

const deleteManifests = `manifests:
- manifest: {apiVersion: apiextensions.k8s.io/v1, kind: CustomResourceDefinition, metadata: {name: widgets.example.com}, spec: {group: example.com, names: {kind: Widget}, scope: Namespaced}}
- manifest: {apiVersion: v1, kind: Namespace, metadata: {name: ns}}
- manifest: {apiVersion: v1, kind: ConfigMap, metadata: {name: a, namespace: ns}}
- policy: keep
  manifest: {apiVersion: v1, kind: ConfigMap, metadata: {name: k, namespace: ns}}
- policy: fallback
  manifest: {apiVersion: v1, kind: ConfigMap, metadata: {name: f, namespace: ns}}
`

// state lists which of the test objects exist.
func (h *harness) state() string {
	out := ""
	for _, o := range []struct{ apiVersion, kind, ns, name, short string }{
		{"apiextensions.k8s.io/v1", "CustomResourceDefinition", "", "widgets.example.com", "crd"},
		{"v1", "Namespace", "", "ns", "ns"},
		{"v1", "ConfigMap", "ns", "a", "a"},
		{"v1", "ConfigMap", "ns", "k", "k"},
		{"v1", "ConfigMap", "ns", "f", "f"},
	} {
		if h.exists(o.apiVersion, o.kind, o.ns, o.name) {
			out += o.short + " "
		}
	}
	return out
}

func TestDeleteGroups(t *testing.T) {
	tests := []struct {
		name        string
		groups      string
		wantDeletes string
		wantLeft    string
	}{
		{name: "default groups", wantDeletes: "a f ns widgets.example.com", wantLeft: "k "},
		{name: "crds first, then the rest", groups: `deletionGroups:
- predefinedResourceGroup: {type: crds}
- customResourceGroup: {resources: [{apiVersion: v1, kind: ConfigMap}]}
- predefinedResourceGroup: {type: cluster-scoped-resources}
`, wantDeletes: "widgets.example.com a f ns", wantLeft: "k "},
		{name: "unmatched objects stay", groups: "deletionGroups:\n- predefinedResourceGroup: {type: crds}\n",
			wantDeletes: "widgets.example.com", wantLeft: "ns a k f "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, nil, header+tt.groups+deleteManifests)
			wantTrace(t, h.job(false, 3), "0s Succeeded")
			wantTrace(t, h.job(true, 10), "0s Succeeded")
			if got := strings.Join(h.deleted(), " "); got != tt.wantDeletes {
				t.Errorf("deleted in order %q, want %q", got, tt.wantDeletes)
			}
			if got := h.state(); got != tt.wantLeft {
				t.Errorf("left %q, want %q", got, tt.wantLeft)
			}
		})
	}
}

func TestDeleteFallbackTakenOver(t *testing.T) {
	h := newHarness(t, nil, header+deleteManifests)
	wantTrace(t, h.job(false, 3), "0s Succeeded")
	f := kubetest.Get(t, h.cluster, "v1", "ConfigMap", "ns", "f")
	f.SetLabels(map[string]string{"manifest.deployer.landscaper.gardener.cloud/deployitem": "someone-else"})
	if err := h.cluster.Update(t.Context(), f); err != nil {
		t.Fatal(err)
	}
	h.job(true, 10)
	if got := h.state(); got != "k f " {
		t.Errorf("left = %q, want the keep object and the fallback object someone else took over", got)
	}
}

func TestDeleteHooksAndFinalizers(t *testing.T) {
	cfg := header + `manifests:
- manifest: {apiVersion: v1, kind: ConfigMap, metadata: {name: a, namespace: ns, finalizers: [example.com/hold]}, data: {state: live}}
  annotateBeforeDelete: {bye: now}
  patchBeforeDelete: {data: {state: leaving}}
`
	tests := []struct {
		name      string
		force     bool
		wantTrace string
	}{
		{name: "finalizer blocks until timeout", wantTrace: "0s Deleting\n1s Deleting\n2s Deleting\n3s  error: failed deleting managed resources: timeout during processing deletiongroup: " +
			"Op: StandardTimeoutChecker.TimeoutExceeded - Reason: ProgressingTimeout - Message: timeout at: \"deployer: delete resources\" [[ERR_TIMEOUT]]"},
		{name: "forceDelete clears finalizers", force: true, wantTrace: "0s Succeeded"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			groups := ""
			if tt.force {
				groups = "deletionGroups:\n- predefinedResourceGroup: {type: namespaced-resources, forceDelete: true}\n"
			}
			h := newHarness(t, nil, cfg+groups)
			wantTrace(t, h.job(false, 3), "0s Succeeded")
			h.item.Spec.Timeout = mustDuration(t, "3s")
			var annotated, patched bool
			h.before = func(since time.Duration) {
				if u := kubetest.Get(t, h.cluster, "v1", "ConfigMap", "ns", "a"); u != nil && since > 0 {
					annotated = u.GetAnnotations()["bye"] == "now"
					patched = u.Object["data"].(map[string]any)["state"] == "leaving"
				}
			}
			wantTrace(t, h.job(true, 10), tt.wantTrace)
			if !tt.force && (!annotated || !patched) {
				t.Errorf("before-delete hooks not applied: annotated %v, patched %v", annotated, patched)
			}
		})
	}
}

func TestDeleteWithoutManagedResources(t *testing.T) {
	h := newHarness(t, nil, header+"manifests: []")
	wantTrace(t, h.job(true, 3), "0s Succeeded")
}

func TestDeleteAllResources(t *testing.T) {
	stored := []string{"apiVersion: v1\nkind: Namespace\nmetadata: {name: ns}", "apiVersion: v1\nkind: Namespace\nmetadata: {name: other}",
		"apiVersion: v1\nkind: Secret\nmetadata: {name: foreign, namespace: other}"}
	h := newHarness(t, stored, header+`deletionGroups:
- customResourceGroup: {deleteAllResources: true, resources: [{apiVersion: v1, kind: Secret}]}
- predefinedResourceGroup: {type: namespaced-resources}
manifests:
- manifest: {apiVersion: v1, kind: Secret, metadata: {name: mine, namespace: ns}}
- manifest: {apiVersion: v1, kind: ConfigMap, metadata: {name: a, namespace: ns}}
`)
	wantTrace(t, h.job(false, 3), "0s Succeeded")
	wantTrace(t, h.job(true, 10), "0s Succeeded")
	for _, name := range []string{"mine", "foreign"} {
		ns := map[string]string{"mine": "ns", "foreign": "other"}[name]
		if h.exists("v1", "Secret", ns, name) {
			t.Errorf("Secret %s/%s not deleted", ns, name)
		}
	}
}
