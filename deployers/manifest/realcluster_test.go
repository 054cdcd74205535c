package manifest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/deployers/manifest"
	"github.com/lscli/lscli/deployers/manifest/kubetest"
	"github.com/lscli/lscli/deployers/realcluster"
	"github.com/lscli/lscli/internal/testcluster"
	"github.com/lscli/lscli/reconcile"
)

func TestMain(m *testing.M) { os.Exit(testcluster.Run(m)) }

// realHarness is a harness on the test cluster's kube-apiserver, reached
// through a kubernetes-cluster Target's kubeconfig as lscli reaches real
// Targets (realcluster.Clusters). It records no deletes.
func realHarness(t *testing.T, config string) (*harness, *testcluster.Cluster) {
	t.Helper()
	tc := testcluster.Get(t)
	target := &lsv1alpha1.Target{Spec: lsv1alpha1.TargetSpec{Type: realcluster.TargetType}}
	target.Name, target.Namespace = "real", "default"
	raw, err := json.Marshal(map[string]string{"kubeconfig": string(tc.Kubeconfig)})
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
	h.setConfig(config)
	return h, tc
}

// realJob is job for a real cluster, which also changes in real time (a CRD
// becomes established, a CRD's cleanup finishes): a normal error is retried
// after a second of virtual time, as the framework retries it, and calls
// that wait for the cluster (phase Init or Deleting, or an error) pause
// briefly in real time. It returns the trace without the retried errors,
// and those errors.
func (h *harness) realJob(del bool, steps int) (trace string, retried []string) {
	h.t.Helper()
	start := h.now
	init := metav1.NewTime(start)
	h.item.Status.Phase = lsv1alpha1.DeployItemPhases.Init
	if del {
		h.item.Status.Phase = lsv1alpha1.DeployItemPhases.InitDelete
	}
	h.item.Status.TransitionTimes = &lsv1alpha1.TransitionTimes{InitTime: &init}
	var lines []string
	for range steps {
		if h.before != nil {
			h.before(h.now.Sub(start))
		}
		res, err := h.call(del)
		since := h.now.Sub(start)
		if err != nil {
			if reconcile.IsUnrecoverable(err) {
				return strings.Join(append(lines, fmt.Sprintf("%s  error: %s", since, describe(err))), "\n"), retried
			}
			retried = append(retried, fmt.Sprintf("%s %s", since, err))
			h.now = h.now.Add(time.Second)
			time.Sleep(50 * time.Millisecond)
			continue
		}
		lines = append(lines, fmt.Sprintf("%s %s", since, res.Phase))
		if res.Phase.IsFinal() {
			break
		}
		if res.Phase == lsv1alpha1.DeployItemPhases.Init || res.Phase == lsv1alpha1.DeployItemPhases.Deleting {
			time.Sleep(50 * time.Millisecond)
		}
		h.now = h.now.Add(res.RequeueAfter)
	}
	return strings.Join(lines, "\n"), retried
}

// crdManifest is a CRD a real apiserver accepts (the fake tests' CRDs have
// no versions).
const crdManifest = `
- manifest:
    apiVersion: apiextensions.k8s.io/v1
    kind: CustomResourceDefinition
    metadata: {name: widgets.real.lscli.io}
    spec:
      group: real.lscli.io
      names: {kind: Widget, listKind: WidgetList, plural: widgets, singular: widget}
      scope: Namespaced
      versions:
      - name: v1
        served: true
        storage: true
        schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}`

// lifecycleConfig deploys into namespace ns, which it creates, and into the
// existing namespace other. version is the data the objects carry.
func lifecycleConfig(ns, other, version string, withB bool) string {
	cm := func(policy, namespace, name string) string {
		return fmt.Sprintf("\n- policy: %s\n  manifest: {apiVersion: v1, kind: ConfigMap, metadata: {name: %s, namespace: %s}, data: {k: '%s'}}",
			policy, name, namespace, version)
	}
	cfg := header + `exports:
  exports:
  - {key: a.value, jsonPath: .data.k, fromResource: {apiVersion: v1, kind: ConfigMap, name: a, namespace: ` + ns + `}}
  - {key: size, jsonPath: .spec.size, fromResource: {apiVersion: real.lscli.io/v1, kind: Widget, name: w, namespace: ` + ns + `}}
manifests:
- manifest: {apiVersion: real.lscli.io/v1, kind: Widget, metadata: {name: w, namespace: ` + ns + `}, spec: {size: ` + version + `}}
- manifest: {apiVersion: v1, kind: Namespace, metadata: {name: ` + ns + `}}` + crdManifest +
		cm("manage", ns, "a") + cm("immutable", ns, "imm") + cm("keep", other, "kept") + cm("ignore", other, "ign")
	if withB {
		cfg += cm("manage", ns, "b")
	}
	return cfg
}

// dataK returns data.k of a ConfigMap, or "<none>" when it does not exist.
func dataK(t *testing.T, h *harness, ns, name string) string {
	t.Helper()
	u := kubetest.Get(t, h.cluster, "v1", "ConfigMap", ns, name)
	if u == nil {
		return "<none>"
	}
	k, _, _ := unstructured.NestedString(u.Object, "data", "k")
	return k
}

// TestRealClusterManifestLifecycle applies a Namespace, a CRD with a custom
// resource of it and ConfigMaps of each policy to a real kube-apiserver,
// updates them, drops one, reads exports and deletes the item.
func TestRealClusterManifestLifecycle(t *testing.T) {
	const ns = "manifest-real"
	began := time.Now()
	h, tc := realHarness(t, "")
	other := tc.Namespace(t)
	ctx := context.Background()
	t.Logf("cluster ready after %v", time.Since(began))

	// apply: the custom resource comes first in the manifests and its CRD is
	// created in the same call
	h.setConfig(lifecycleConfig(ns, other, "1", true))
	began = time.Now()
	trace, retried := h.realJob(false, 10)
	t.Logf("apply took %v", time.Since(began))
	// The deployer does not wait for CRDs: when the apiserver has not yet
	// served the new kind, the custom resource's apply fails with a normal
	// error and the framework's retry applies it. Whether that happens
	// depends on timing (the kubeconfig client's rate limit mostly hides it).
	wantTrace(t, trace, fmt.Sprintf("%ds Succeeded", len(retried)))
	for _, e := range retried {
		if !strings.Contains(e, `no matches for kind "Widget" in version "real.lscli.io/v1"`) {
			t.Errorf("apply failed with an error other than the CRD race: %s", e)
		}
	}
	if len(retried) > 0 {
		t.Logf("apply retried %d time(s):\n%s", len(retried), strings.Join(retried, "\n"))
	}
	wantManaged(t, h, strings.Join([]string{
		"manage CustomResourceDefinition /widgets.real.lscli.io",
		"manage Namespace /" + ns,
		"manage ConfigMap " + ns + "/a",
		"manage ConfigMap " + ns + "/b",
		"immutable ConfigMap " + ns + "/imm",
		"keep ConfigMap " + other + "/kept",
		"manage Widget " + ns + "/w",
	}, "\n"))
	if got, want := string(h.exports), `{"a":{"value":"1"},"size":1}`; got != want {
		t.Errorf("exports = %s, want %s", got, want)
	}
	if kubetest.Get(t, h.cluster, "real.lscli.io/v1", "Widget", ns, "w") == nil {
		t.Error("the Widget was not created")
	}
	if got := dataK(t, h, other, "ign"); got != "<none>" {
		t.Errorf("ignore: ConfigMap ign was created (data.k %s)", got)
	}
	if a := kubetest.Get(t, h.cluster, "v1", "ConfigMap", ns, "a"); a == nil {
		t.Fatal("ConfigMap a was not created")
	} else if got := a.GetLabels()["manifest.deployer.landscaper.gardener.cloud/deployitem"]; got != "di" {
		t.Errorf("deploy item label = %q, want di", got)
	}

	// someone else's object that the ignore manifest names
	ign := kubetest.Object("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ign, namespace: " + other + "}\ndata: {k: theirs}")
	if err := h.cluster.Create(ctx, ign); err != nil {
		t.Fatal(err)
	}

	// update: new data everywhere, b dropped
	h.now = h.now.Add(time.Minute)
	h.setConfig(lifecycleConfig(ns, other, "2", false))
	began = time.Now()
	trace, retried = h.realJob(false, 10)
	t.Logf("update took %v", time.Since(began))
	wantTrace(t, trace, "0s Succeeded")
	if len(retried) > 0 {
		t.Errorf("update retried:\n%s", strings.Join(retried, "\n"))
	}
	for _, c := range []struct{ ns, name, want string }{
		{ns, "a", "2"},           // manage: updated
		{ns, "b", "<none>"},      // dropped from the config: deleted
		{ns, "imm", "1"},         // immutable: never updated
		{other, "kept", "2"},     // keep: updated
		{other, "ign", "theirs"}, // ignore: left alone
	} {
		if got := dataK(t, h, c.ns, c.name); got != c.want {
			t.Errorf("ConfigMap %s/%s data.k = %s, want %s", c.ns, c.name, got, c.want)
		}
	}
	if got, want := string(h.exports), `{"a":{"value":"2"},"size":2}`; got != want {
		t.Errorf("exports = %s, want %s", got, want)
	}

	// delete: without a namespace controller the Namespace stays Terminating
	// until its finalizer goes; the test plays the controller, with the
	// namespace empty by then
	h.now = h.now.Add(time.Minute)
	h.before = func(time.Duration) {
		n := &corev1.Namespace{}
		if err := h.cluster.Get(ctx, client.ObjectKey{Name: ns}, n); err != nil || n.DeletionTimestamp == nil || len(n.Spec.Finalizers) == 0 {
			return
		}
		n.Spec.Finalizers = nil
		if err := h.cluster.SubResource("finalize").Update(ctx, n); err != nil {
			t.Fatalf("finalize namespace: %v", err)
		}
	}
	began = time.Now()
	trace, retried = h.realJob(true, 200)
	t.Logf("delete took %v", time.Since(began))
	if !strings.HasSuffix(trace, " Succeeded") {
		t.Errorf("delete trace:\n%s\nwant it to end in Succeeded", trace)
	}
	if len(retried) > 0 {
		t.Errorf("delete retried:\n%s", strings.Join(retried, "\n"))
	}
	t.Logf("delete trace: %s", strings.ReplaceAll(trace, "\n", ", "))
	for _, o := range []struct{ apiVersion, kind, ns, name string }{
		{"apiextensions.k8s.io/v1", "CustomResourceDefinition", "", "widgets.real.lscli.io"},
		{"v1", "Namespace", "", ns},
		{"v1", "ConfigMap", ns, "a"},
		{"v1", "ConfigMap", ns, "imm"},
	} {
		if kubetest.Get(t, h.cluster, o.apiVersion, o.kind, o.ns, o.name) != nil {
			t.Errorf("delete left %s %s/%s", o.kind, o.ns, o.name)
		}
	}
	if got := dataK(t, h, other, "kept"); got != "2" {
		t.Errorf("keep: ConfigMap kept after delete: data.k = %s, want 2", got)
	}
	if got := dataK(t, h, other, "ign"); got != "theirs" {
		t.Errorf("ignore: ConfigMap ign after delete: data.k = %s, want theirs", got)
	}
}

// deploymentManifest is a Deployment the apiserver accepts; without
// controllers it never gets a status.
func deploymentManifest(ns string) string {
	return `
- manifest:
    apiVersion: apps/v1
    kind: Deployment
    metadata: {name: app, namespace: ` + ns + `}
    spec:
      replicas: 1
      selector: {matchLabels: {app: app}}
      template:
        metadata: {labels: {app: app}}
        spec: {containers: [{name: app, image: example.com/app}]}`
}

// TestRealClusterManifestReadiness checks the default readiness of a
// Deployment (which times out, or passes once the test writes the status a
// controller would) and a custom check on a ConfigMap field.
func TestRealClusterManifestReadiness(t *testing.T) {
	t.Run("deployment times out", func(t *testing.T) {
		h, tc := realHarness(t, "")
		ns := tc.Namespace(t)
		h.setConfig(header + "manifests:" + deploymentManifest(ns))
		h.item.Spec.Timeout = mustDuration(t, "12s")
		trace, retried := h.realJob(false, 10)
		wantTrace(t, trace, "0s Progressing\n5s Progressing\n10s Progressing\n12s  error: timeout at: \"deployer: during readiness check - resource "+
			ns+"/app of type Deployment\" [WaitForObjectsReady ProgressingTimeout [ERR_TIMEOUT ERR_FOR_INFO_ONLY]]")
		if len(retried) > 0 {
			t.Errorf("retried:\n%s", strings.Join(retried, "\n"))
		}
	})

	t.Run("deployment becomes ready", func(t *testing.T) {
		h, tc := realHarness(t, "")
		ns := tc.Namespace(t)
		h.setConfig(header + "manifests:" + deploymentManifest(ns))
		h.before = func(since time.Duration) {
			if since < 7*time.Second {
				return
			}
			u := kubetest.Get(t, h.cluster, "apps/v1", "Deployment", ns, "app")
			_ = unstructured.SetNestedMap(u.Object, map[string]any{"observedGeneration": u.GetGeneration(),
				"replicas": int64(1), "readyReplicas": int64(1), "updatedReplicas": int64(1), "availableReplicas": int64(1)}, "status")
			if err := h.cluster.Status().Update(context.Background(), u); err != nil {
				t.Fatal(err)
			}
		}
		trace, retried := h.realJob(false, 10)
		wantTrace(t, trace, "0s Progressing\n5s Progressing\n10s Succeeded")
		if len(retried) > 0 {
			t.Errorf("retried:\n%s", strings.Join(retried, "\n"))
		}
	})

	t.Run("custom check on a ConfigMap field", func(t *testing.T) {
		h, tc := realHarness(t, "")
		ns := tc.Namespace(t)
		h.setConfig(header + `readinessChecks:
  disableDefault: true
  custom:
  - name: phase
    resourceSelector: [{apiVersion: v1, kind: ConfigMap, name: state, namespace: ` + ns + `}]
    requirements: [{jsonPath: .data.phase, operator: "==", values: [{value: done}]}]
manifests:` + deploymentManifest(ns) + `
- manifest: {apiVersion: v1, kind: ConfigMap, metadata: {name: state, namespace: ` + ns + `}, data: {phase: starting}}`)
		h.before = func(since time.Duration) {
			if since < 7*time.Second {
				return
			}
			u := kubetest.Get(t, h.cluster, "v1", "ConfigMap", ns, "state")
			u.Object["data"] = map[string]any{"phase": "done"}
			if err := h.cluster.Update(context.Background(), u); err != nil {
				t.Fatal(err)
			}
		}
		// the Deployment never becomes ready, but the default check is off
		trace, retried := h.realJob(false, 10)
		wantTrace(t, trace, "0s Progressing\n5s Progressing\n10s Succeeded")
		if len(retried) > 0 {
			t.Errorf("retried:\n%s", strings.Join(retried, "\n"))
		}
	})
}
