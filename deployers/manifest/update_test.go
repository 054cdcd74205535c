package manifest_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lscli/lscli/deployers/manifest/kubetest"
)

func TestRemovalOfDroppedObjects(t *testing.T) {
	h := newHarness(t, nil, header+"manifests:"+configMap("a", "manage")+configMap("b", "manage")+configMap("k", "keep")+configMap("ign", "manage"))
	wantTrace(t, h.job(false, 3), "0s Succeeded")
	wantManaged(t, h, "manage ConfigMap ns/a\nmanage ConfigMap ns/b\nmanage ConfigMap ns/ign\nkeep ConfigMap ns/k")

	// b and k are dropped, ign changes to ignore: Landscaper deletes it
	// because its old entry says manage.
	h.setConfig(header + "manifests:" + configMap("a", "manage") + configMap("ign", "ignore"))
	wantTrace(t, h.job(false, 5), "0s Succeeded")
	wantManaged(t, h, "manage ConfigMap ns/a")
	for name, want := range map[string]bool{"a": true, "b": false, "k": true, "ign": false} {
		if got := h.exists("v1", "ConfigMap", "ns", name); got != want {
			t.Errorf("ConfigMap %s exists = %v, want %v", name, got, want)
		}
	}
}

func TestFallbackNotTakenOver(t *testing.T) {
	stored := []string{"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: theirs, namespace: ns, labels: {manifest.deployer.landscaper.gardener.cloud/deployitem: other}}\ndata: {k: theirs}"}
	h := newHarness(t, stored, header+"manifests:"+configMap("theirs", "fallback")+configMap("mine", "fallback"))
	wantTrace(t, h.job(false, 3), "0s Succeeded")
	wantManaged(t, h, "fallback ConfigMap ns/mine")
	if got := kubetest.Get(t, h.cluster, "v1", "ConfigMap", "ns", "theirs").Object["data"].(map[string]any)["k"]; got != "theirs" {
		t.Errorf("foreign object was changed: data.k = %v", got)
	}
	h.setConfig(header + "manifests: []")
	wantTrace(t, h.job(false, 3), "0s Succeeded")
	if !h.exists("v1", "ConfigMap", "ns", "theirs") || h.exists("v1", "ConfigMap", "ns", "mine") {
		t.Errorf("want the foreign object kept and ours deleted")
	}
}

func TestOrphansWaitForFinalizers(t *testing.T) {
	h := newHarness(t, nil, header+"manifests:"+configMap("a", "manage")+configMap("held", "manage"))
	wantTrace(t, h.job(false, 3), "0s Succeeded")
	held := kubetest.Get(t, h.cluster, "v1", "ConfigMap", "ns", "held")
	held.SetFinalizers([]string{"example.com/hold"})
	if err := h.cluster.Update(context.Background(), held); err != nil {
		t.Fatal(err)
	}
	h.before = func(since time.Duration) {
		if since == 3*time.Second {
			u := kubetest.Get(t, h.cluster, "v1", "ConfigMap", "ns", "held")
			u.SetFinalizers(nil)
			if err := h.cluster.Update(context.Background(), u); err != nil {
				t.Fatal(err)
			}
		}
	}
	h.setConfig(header + "manifests:" + configMap("a", "manage"))
	wantTrace(t, h.job(false, 10), "0s Init\n1s Init\n2s Init\n3s Succeeded")
	wantManaged(t, h, "manage ConfigMap ns/a")
}

func TestDeletionGroupsDuringUpdate(t *testing.T) {
	h := newHarness(t, nil, header+"manifests:"+configMap("a", "manage")+configMap("b", "manage"))
	wantTrace(t, h.job(false, 3), "0s Succeeded")
	h.setConfig(header + `deletionGroupsDuringUpdate:
- predefinedResourceGroup: {type: empty}
manifests: []`)
	wantTrace(t, h.job(false, 3), "0s Succeeded")
	if !h.exists("v1", "ConfigMap", "ns", "a") || !h.exists("v1", "ConfigMap", "ns", "b") {
		t.Errorf("objects matched by no deletion group must stay")
	}
	wantManaged(t, h, "")
}

func TestProviderStatusGolden(t *testing.T) {
	cfg := header + `manifests:
- manifest: {apiVersion: apiextensions.k8s.io/v1, kind: CustomResourceDefinition, metadata: {name: widgets.example.com}, spec: {group: example.com, names: {kind: Widget}, scope: Namespaced}}
- manifest: {apiVersion: example.com/v1, kind: Widget, metadata: {name: w, namespace: ns}}
- manifest: {apiVersion: v1, kind: Namespace, metadata: {name: ns}}
- policy: keep
  manifest: {apiVersion: v1, kind: ConfigMap, metadata: {name: c, namespace: ns}}
  annotateBeforeDelete: {bye: "true"}
  patchBeforeDelete: {data: {state: leaving}}`
	h := newHarness(t, nil, cfg)
	wantTrace(t, h.job(false, 3), "0s Succeeded")
	golden(t, "providerstatus.golden.json", h.item.Status.ProviderStatus.Raw)
}

func wantManaged(t *testing.T, h *harness, want string) {
	t.Helper()
	if got := h.managed(); got != want {
		t.Errorf("managed resources:\n%s\nwant:\n%s", got, want)
	}
}

// golden compares got with testdata/name; LSCLI_UPDATE=1 rewrites the file.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if os.Getenv("LSCLI_UPDATE") == "1" {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, append(got, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with LSCLI_UPDATE=1 to create it)", err)
	}
	if string(want) != string(got)+"\n" {
		t.Errorf("%s differs:\ngot:  %s\nwant: %s", path, got, want)
	}
}

func TestFallbackQuirkDeletesTakenOverObject(t *testing.T) {
	h := newHarness(t, nil, header+"manifests:"+configMap("x", "manage"))
	wantTrace(t, h.job(false, 3), "0s Succeeded")
	x := kubetest.Get(t, h.cluster, "v1", "ConfigMap", "ns", "x")
	x.SetLabels(map[string]string{"manifest.deployer.landscaper.gardener.cloud/deployitem": "other"})
	if err := h.cluster.Update(context.Background(), x); err != nil {
		t.Fatal(err)
	}
	// Now fallback: the object is someone else's, so it is skipped and not
	// recorded; its old entry says manage, so the orphan cleanup deletes it.
	h.setConfig(header + "manifests:" + configMap("x", "fallback"))
	wantTrace(t, h.job(false, 3), "0s Succeeded")
	wantManaged(t, h, "")
	if h.exists("v1", "ConfigMap", "ns", "x") {
		t.Errorf("Landscaper deletes the taken-over object; it still exists")
	}
}

// TestOrphansTimeout: an orphan whose finalizer stays fails the item at the
// progressing timeout as Landscaper's applier does: its deletion group's
// wait ends with the "deployer: delete resources" checkpoint, which
// cleanupOrphanedResourcesInGroups wraps (ApplyObjects).
func TestOrphansTimeout(t *testing.T) {
	h := newHarness(t, nil, header+"manifests:"+configMap("a", "manage")+configMap("held", "manage"))
	wantTrace(t, h.job(false, 3), "0s Succeeded")
	held := kubetest.Get(t, h.cluster, "v1", "ConfigMap", "ns", "held")
	held.SetFinalizers([]string{"example.com/hold"})
	if err := h.cluster.Update(context.Background(), held); err != nil {
		t.Fatal(err)
	}
	h.setConfig(header + "manifests:" + configMap("a", "manage"))
	h.item.Spec.Timeout = mustDuration(t, "3s")
	wantTrace(t, h.job(false, 10), "0s Init\n1s Init\n2s Init\n3s  error: unable to cleanup orphaned resources: timeout during processing deletiongroup: "+
		"Op: StandardTimeoutChecker.TimeoutExceeded - Reason: ProgressingTimeout - Message: timeout at: \"deployer: delete resources\" [ApplyObjects cleanupOrphanedResourcesInGroups [ERR_TIMEOUT]]")
}
