package helm

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	helmv1alpha1 "github.com/gardener/landscaper/apis/deployer/helm/v1alpha1"
	"github.com/gardener/landscaper/apis/deployer/utils/managedresource"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/deployers/manifest/kubetest"
	"github.com/lscli/lscli/reconcile"
)

// TestManifestMode deploys the test chart with helmDeployment: false:
// rendered, applied object by object, no release.
func TestManifestMode(t *testing.T) {
	ctx := context.Background()
	c := newTestCluster()
	d := New(Options{Clusters: fixedCluster(c)})
	cfg := func(values map[string]any) map[string]any {
		return config(t, map[string]any{"helmDeployment": false, "namespace": "apps", "createNamespace": true, "values": values})
	}

	// install: CRD, templates and hook as plain objects, the Namespace kept
	item := deployItem(t, cfg(nil), lsv1alpha1.DeployItemPhases.Init, epoch)
	res := reconcileOnce(t, d, item, epoch)
	wantPhase(t, res, lsv1alpha1.DeployItemPhases.Progressing)
	managed := decodeManaged(t, res.ProviderStatus.Raw)
	want := []string{"CustomResourceDefinition widgets.demo.lscli.io manage", "Namespace apps keep",
		"ConfigMap apps/demo-demo manage", "Deployment apps/demo-demo manage",
		"Pod apps/demo-demo-post-install manage", "Widget apps/demo-demo manage"}
	wantManaged(t, managed, want...)
	cm := configMap(t, c, "apps", "demo-demo")
	if cm.Labels[helmv1alpha1.ManagedDeployItemLabel] != item.Name || cm.Data["kubeVersion"] != DefaultKubeVersion {
		t.Errorf("ConfigMap labels %v data %v, want the helm deploy item label and the kube version", cm.Labels, cm.Data)
	}
	if len(releaseSecretsIn(t, c, "apps")) != 0 {
		t.Error("manifest mode stored a helm release")
	}

	// readiness: every managed object must exist, the Deployment and the
	// hook Pod (a plain object here) be ready
	markDeploymentReady(t, c, "apps", "demo-demo")
	markPodReady(t, c, "apps", "demo-demo-post-install")
	item.Status.ProviderStatus = res.ProviderStatus
	wantPhase(t, reconcileIn(t, d, item, lsv1alpha1.DeployItemPhases.Progressing, epoch.Add(5*time.Second)),
		lsv1alpha1.DeployItemPhases.Succeeded)

	// update: an object the chart no longer renders is deleted
	next := deployItem(t, cfg(map[string]any{"widget": map[string]any{"enabled": false}}), lsv1alpha1.DeployItemPhases.Init, epoch.Add(time.Minute))
	next.Status.ProviderStatus = res.ProviderStatus
	res = reconcileOnce(t, d, next, epoch.Add(time.Minute))
	wantPhase(t, res, lsv1alpha1.DeployItemPhases.Succeeded)
	wantManaged(t, decodeManaged(t, res.ProviderStatus.Raw), want[:5]...)
	if kubetest.Get(t, c, "demo.lscli.io/v1", "Widget", "apps", "demo-demo") != nil {
		t.Error("the Widget the chart no longer renders is still there")
	}

	// delete: every managed object, the kept Namespace too, as in Landscaper
	next.Status.ProviderStatus = res.ProviderStatus
	if res, err := d.Delete(ctx, request(next, epoch.Add(2*time.Minute))); err != nil || res.Phase != "" {
		t.Fatalf("delete = %+v, %v; want done", res, err)
	}
	for _, o := range [][3]string{{"v1", "ConfigMap", "demo-demo"}, {"apps/v1", "Deployment", "demo-demo"}, {"v1", "Namespace", ""}} {
		ns, name := "apps", o[2]
		if o[1] == "Namespace" {
			ns, name = "", "apps"
		}
		if kubetest.Get(t, c, o[0], o[1], ns, name) != nil {
			t.Errorf("%s %s was not deleted", o[1], name)
		}
	}
}

// decodeManaged decodes the managed resources of a provider status.
func decodeManaged(t *testing.T, raw []byte) managedresource.ManagedResourceStatusList {
	t.Helper()
	status := &helmv1alpha1.ProviderStatus{}
	if err := json.Unmarshal(raw, status); err != nil {
		t.Fatal(err)
	}
	return status.ManagedResources
}

// wantManaged fails t unless list has exactly the objects want, each written
// as "Kind namespace/name policy" (no namespace/ for cluster-scoped ones).
func wantManaged(t *testing.T, list managedresource.ManagedResourceStatusList, want ...string) {
	t.Helper()
	got := map[string]bool{}
	for _, mr := range list {
		name := mr.Resource.Name
		if mr.Resource.Namespace != "" {
			name = mr.Resource.Namespace + "/" + name
		}
		got[mr.Resource.Kind+" "+name+" "+string(mr.Policy)] = true
	}
	for _, w := range want {
		if !got[w] {
			t.Errorf("managed resources %v lack %q", got, w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("managed resources %v, want exactly %v", got, want)
	}
}

// releaseSecretsIn lists the helm release records in namespace ns.
func releaseSecretsIn(t *testing.T, c client.Client, ns string) []corev1.Secret {
	t.Helper()
	list := &corev1.SecretList{}
	if err := c.List(context.Background(), list, client.InNamespace(ns), client.MatchingLabels{"owner": "helm"}); err != nil {
		t.Fatal(err)
	}
	return list.Items
}

// markPodReady fills in the status a kubelet would.
func markPodReady(t *testing.T, c client.Client, ns, name string) {
	t.Helper()
	ctx := context.Background()
	pod := &corev1.Pod{}
	if err := c.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, pod); err != nil {
		t.Fatalf("get Pod %s/%s: %v", ns, name, err)
	}
	pod.Status.Phase = corev1.PodRunning
	pod.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}
	if err := c.Status().Update(ctx, pod); err != nil {
		t.Fatalf("update status of Pod %s/%s: %v", ns, name, err)
	}
}

// TestManifestModeOrphansTimeout: with helmDeployment: false, an object the
// chart no longer renders that a finalizer holds fails the item at the
// progressing timeout with the error of Landscaper's applier, which waits
// for it inside the call of the apply (ApplyObjects /
// cleanupOrphanedResourcesInGroups, "deployer: delete resources").
func TestManifestModeOrphansTimeout(t *testing.T) {
	ctx := context.Background()
	c := newTestCluster()
	d := New(Options{Clusters: fixedCluster(c)})
	cfg := func(values map[string]any) map[string]any {
		return config(t, map[string]any{"helmDeployment": false, "namespace": "apps", "createNamespace": true, "values": values})
	}
	item := deployItem(t, cfg(nil), lsv1alpha1.DeployItemPhases.Init, epoch)
	res := reconcileOnce(t, d, item, epoch)
	wantPhase(t, res, lsv1alpha1.DeployItemPhases.Progressing)
	w := kubetest.Get(t, c, "demo.lscli.io/v1", "Widget", "apps", "demo-demo")
	w.SetFinalizers([]string{"example.com/hold"})
	if err := c.Update(ctx, w); err != nil {
		t.Fatal(err)
	}

	start := epoch.Add(time.Minute)
	next := deployItem(t, cfg(map[string]any{"widget": map[string]any{"enabled": false}}), lsv1alpha1.DeployItemPhases.Init, start)
	next.Spec.Timeout = &lsv1alpha1.Duration{Duration: 2 * time.Second}
	next.Status.ProviderStatus = res.ProviderStatus
	wantPhase(t, reconcileOnce(t, d, next, start), lsv1alpha1.DeployItemPhases.Init)
	wantPhase(t, reconcileOnce(t, d, next, start.Add(time.Second)), lsv1alpha1.DeployItemPhases.Init)
	_, err := d.Reconcile(ctx, request(next, start.Add(2*time.Second)))
	var e *reconcile.Error
	want := `unable to cleanup orphaned resources: timeout during processing deletiongroup: Op: StandardTimeoutChecker.TimeoutExceeded - Reason: ProgressingTimeout - Message: timeout at: "deployer: delete resources"`
	if !errors.As(err, &e) || e.Operation != "ApplyObjects" || e.Reason != "cleanupOrphanedResourcesInGroups" || e.Message != want ||
		!reflect.DeepEqual(reconcile.CollectCodes(err), []lsv1alpha1.ErrorCode{lsv1alpha1.ErrorTimeout}) {
		t.Fatalf("err = %v (codes %v), want ApplyObjects / cleanupOrphanedResourcesInGroups / %s, ERR_TIMEOUT", err, reconcile.CollectCodes(err), want)
	}
}

// TestManifestModeOrphansWait: while an object the chart no longer renders
// is held by a finalizer the item stays Init with the previous inventory,
// so that the next call still knows it; once it is gone the item goes on
// with the new inventory.
func TestManifestModeOrphansWait(t *testing.T) {
	ctx := context.Background()
	c := newTestCluster()
	d := New(Options{Clusters: fixedCluster(c)})
	cfg := func(values map[string]any) map[string]any {
		return config(t, map[string]any{"helmDeployment": false, "namespace": "apps", "createNamespace": true, "values": values})
	}
	res := reconcileOnce(t, d, deployItem(t, cfg(nil), lsv1alpha1.DeployItemPhases.Init, epoch), epoch)
	w := kubetest.Get(t, c, "demo.lscli.io/v1", "Widget", "apps", "demo-demo")
	w.SetFinalizers([]string{"example.com/hold"})
	if err := c.Update(ctx, w); err != nil {
		t.Fatal(err)
	}
	start := epoch.Add(time.Minute)
	next := deployItem(t, cfg(map[string]any{"widget": map[string]any{"enabled": false}}), lsv1alpha1.DeployItemPhases.Init, start)
	next.Status.ProviderStatus = res.ProviderStatus
	waiting := reconcileOnce(t, d, next, start)
	wantPhase(t, waiting, lsv1alpha1.DeployItemPhases.Init)
	if waiting.ProviderStatus != nil {
		t.Fatalf("provider status while orphans are deleted = %s, want the previous one kept", waiting.ProviderStatus.Raw)
	}
	w = kubetest.Get(t, c, "demo.lscli.io/v1", "Widget", "apps", "demo-demo")
	w.SetFinalizers(nil)
	if err := c.Update(ctx, w); err != nil {
		t.Fatal(err)
	}
	done := reconcileOnce(t, d, next, start.Add(time.Second))
	if done.Phase == lsv1alpha1.DeployItemPhases.Init || done.ProviderStatus == nil {
		t.Fatalf("after the orphan went: phase %q, provider status %v; want the apply done with the new inventory", done.Phase, done.ProviderStatus)
	}
	for _, mr := range decodeManaged(t, done.ProviderStatus.Raw) {
		if mr.Resource.Kind == "Widget" {
			t.Errorf("the new inventory still has the Widget")
		}
	}
}

// TestManifestModeDeleteResumedUnservedType: while a deletion polls
// (phase Deleting), a deleteAllResources group whose kind is no longer
// served (a later group of the same deletion deleted its CRD) has nothing
// left, as Landscaper never lists a finished group again; the first call of
// a deletion still fails on it, as Landscaper's listing does.
func TestManifestModeDeleteResumedUnservedType(t *testing.T) {
	ctx := context.Background()
	c := newTestCluster()
	d := New(Options{Clusters: fixedCluster(c)})
	groups := []any{
		map[string]any{"customResourceGroup": map[string]any{"deleteAllResources": true,
			"resources": []any{map[string]any{"apiVersion": "kafka.example/v1", "kind": "Topic"}}}},
		map[string]any{"predefinedResourceGroup": map[string]any{"type": "namespaced-resources"}},
		map[string]any{"predefinedResourceGroup": map[string]any{"type": "cluster-scoped-resources"}},
		map[string]any{"predefinedResourceGroup": map[string]any{"type": "crds"}},
	}
	cfg := config(t, map[string]any{"helmDeployment": false, "namespace": "apps", "createNamespace": true, "deletionGroups": groups})
	res := reconcileOnce(t, d, deployItem(t, cfg, lsv1alpha1.DeployItemPhases.Init, epoch), epoch)

	first := deployItem(t, cfg, lsv1alpha1.DeployItemPhases.InitDelete, epoch.Add(time.Minute))
	first.Status.ProviderStatus = res.ProviderStatus
	if _, err := d.Delete(ctx, request(first, epoch.Add(time.Minute))); err == nil {
		t.Fatal("the first call of the deletion listed an unserved kind without error, want Landscaper's listing error")
	}
	polling := deployItem(t, cfg, lsv1alpha1.DeployItemPhases.Deleting, epoch.Add(time.Minute))
	polling.Status.ProviderStatus = res.ProviderStatus
	if res, err := d.Delete(ctx, request(polling, epoch.Add(2*time.Minute))); err != nil || res.Phase != "" {
		t.Fatalf("delete while polling = %+v, %v; want done", res, err)
	}
	if kubetest.Get(t, c, "v1", "ConfigMap", "apps", "demo-demo") != nil {
		t.Error("ConfigMap apps/demo-demo was not deleted")
	}
}
