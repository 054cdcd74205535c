package helm

import (
	"context"
	"testing"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/deployers/deployer"
	"github.com/lscli/lscli/deployers/manifest/kubetest"
)

// TestReleaseLifecycle installs the test chart as a helm release, waits for
// its Deployment, upgrades it twice and uninstalls it.
func TestReleaseLifecycle(t *testing.T) {
	ctx := context.Background()
	c := newTestCluster()
	d := New(Options{Clusters: fixedCluster(c)})

	// install: objects and release record, then Progressing until the Deployment is ready
	item := deployItem(t, config(t, nil), lsv1alpha1.DeployItemPhases.Init, epoch)
	res := reconcileOnce(t, d, item, epoch)
	wantPhase(t, res, lsv1alpha1.DeployItemPhases.Progressing)
	if got := configMap(t, c, "default", "demo-demo").Data["greeting"]; got != "HELLO" {
		t.Errorf("greeting = %q, want HELLO (sprig upper)", got)
	}
	for _, o := range []struct{ apiVersion, kind, ns, name string }{
		{"apiextensions.k8s.io/v1", "CustomResourceDefinition", "", "widgets.demo.lscli.io"},
		{"demo.lscli.io/v1", "Widget", "default", "demo-demo"},
		{"v1", "Pod", "default", "demo-demo-post-install"},
	} {
		if kubetest.Get(t, c, o.apiVersion, o.kind, o.ns, o.name) == nil {
			t.Errorf("%s %s/%s was not created", o.kind, o.ns, o.name)
		}
	}
	wantHistory(t, c, "deployed")

	// readiness: the next poll after the Deployment became ready succeeds
	markDeploymentReady(t, c, "default", "demo-demo")
	item.Status.ProviderStatus = res.ProviderStatus
	res = reconcileIn(t, d, item, lsv1alpha1.DeployItemPhases.Progressing, epoch.Add(5*time.Second))
	wantPhase(t, res, lsv1alpha1.DeployItemPhases.Succeeded)

	// upgrade: a new revision; values change the objects
	item = deployItem(t, config(t, map[string]any{"values": map[string]any{"greeting": "bye", "extra": "x"}}),
		lsv1alpha1.DeployItemPhases.Init, epoch.Add(time.Minute))
	wantPhase(t, reconcileOnce(t, d, item, epoch.Add(time.Minute)), lsv1alpha1.DeployItemPhases.Succeeded)
	wantHistory(t, c, "superseded", "deployed")
	if cm := configMap(t, c, "default", "demo-demo"); cm.Data["greeting"] != "BYE" || cm.Data["extra"] != "x" ||
		cm.Data["previousGreeting"] != "HELLO" {
		t.Errorf("after upgrade data = %v, want greeting BYE, extra x and previousGreeting HELLO (lookup)", cm.Data)
	}

	// a field the chart no longer renders goes away (values are given: helm
	// upgrade reuses the last values when it gets none, and so does Landscaper)
	item = deployItem(t, config(t, map[string]any{"values": map[string]any{"greeting": "hello",
		"widget": map[string]any{"enabled": false}}}), lsv1alpha1.DeployItemPhases.Init, epoch.Add(2*time.Minute))
	wantPhase(t, reconcileOnce(t, d, item, epoch.Add(2*time.Minute)), lsv1alpha1.DeployItemPhases.Succeeded)
	wantHistory(t, c, "superseded", "superseded", "deployed")
	if cm := configMap(t, c, "default", "demo-demo"); cm.Data["extra"] != "" || cm.Data["greeting"] != "HELLO" {
		t.Errorf("after second upgrade data = %v, want greeting HELLO and no extra", cm.Data)
	}
	if kubetest.Get(t, c, "demo.lscli.io/v1", "Widget", "default", "demo-demo") != nil {
		t.Error("the Widget the chart no longer renders is still there")
	}

	// uninstall: release and templates gone, the CRD of crds/ stays (the
	// item deployed: an item without a provider status uninstalls nothing)
	item.Status.ProviderStatus = res.ProviderStatus
	res, err := d.Delete(ctx, request(item, epoch.Add(3*time.Minute)))
	if err != nil || (res.Phase != "" && res.Phase != lsv1alpha1.DeployItemPhases.Succeeded) {
		t.Fatalf("delete = %+v, %v; want done", res, err)
	}
	wantHistory(t, c)
	if kubetest.Get(t, c, "v1", "ConfigMap", "default", "demo-demo") != nil {
		t.Error("uninstall left the ConfigMap")
	}
	if kubetest.Get(t, c, "apiextensions.k8s.io/v1", "CustomResourceDefinition", "", "widgets.demo.lscli.io") == nil {
		t.Error("uninstall deleted the CRD of crds/; helm keeps it")
	}
	// deleting again finds no release and is done
	if _, err := d.Delete(ctx, request(item, epoch.Add(4*time.Minute))); err != nil {
		t.Errorf("second delete: %v", err)
	}
}

// TestMaxHistory keeps MaxHistory revisions of a release.
func TestMaxHistory(t *testing.T) {
	c := newTestCluster()
	d := New(Options{Clusters: fixedCluster(c)})
	cfg := config(t, map[string]any{"readinessChecks": map[string]any{"disableDefault": true}})
	for i := 0; i < MaxHistory+2; i++ {
		now := epoch.Add(time.Duration(i) * time.Minute)
		wantPhase(t, reconcileOnce(t, d, deployItem(t, cfg, lsv1alpha1.DeployItemPhases.Init, now), now),
			lsv1alpha1.DeployItemPhases.Succeeded)
	}
	rels, err := newReleaser(context.Background(), c, false, "demo", "default", nil, epoch).history()
	if err != nil {
		t.Fatal(err)
	}
	if len(rels) != MaxHistory || rels[len(rels)-1].Version != MaxHistory+2 {
		t.Errorf("kept %d revisions up to %d, want %d up to %d", len(rels), rels[len(rels)-1].Version, MaxHistory, MaxHistory+2)
	}
}

// reconcile calls d.Reconcile for item at now and fails t on an error.
func reconcileOnce(t *testing.T, d *Deployer, item *lsv1alpha1.DeployItem, now time.Time) deployer.Result {
	t.Helper()
	res, err := d.Reconcile(context.Background(), request(item, now))
	if err != nil {
		t.Fatalf("reconcile at %s: %v", now.Format(time.TimeOnly), err)
	}
	return res
}

// reconcileIn is reconcile with item in phase.
func reconcileIn(t *testing.T, d *Deployer, item *lsv1alpha1.DeployItem, phase lsv1alpha1.DeployItemPhase, now time.Time) deployer.Result {
	t.Helper()
	item = item.DeepCopy()
	item.Status.Phase = phase
	return reconcileOnce(t, d, item, now)
}

// wantPhase fails t unless res has phase.
func wantPhase(t *testing.T, res deployer.Result, phase lsv1alpha1.DeployItemPhase) {
	t.Helper()
	if res.Phase != phase {
		t.Fatalf("phase = %q, want %q", res.Phase, phase)
	}
}

// wantHistory fails t unless the release demo in namespace default has
// revisions with these statuses, oldest first.
func wantHistory(t *testing.T, c client.Client, statuses ...string) {
	t.Helper()
	wantReleaseHistory(t, c, "default", statuses...)
}

// configMap reads a ConfigMap from c.
func configMap(t *testing.T, c client.Client, ns, name string) *corev1.ConfigMap {
	t.Helper()
	cm := &corev1.ConfigMap{}
	if err := c.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: name}, cm); err != nil {
		t.Fatalf("get ConfigMap %s/%s: %v", ns, name, err)
	}
	return cm
}

// markDeploymentReady fills in the status a Deployment controller would.
func markDeploymentReady(t *testing.T, c client.Client, ns, name string) {
	t.Helper()
	ctx := context.Background()
	dep := &appsv1.Deployment{}
	if err := c.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, dep); err != nil {
		t.Fatalf("get Deployment %s/%s: %v", ns, name, err)
	}
	n := *dep.Spec.Replicas
	dep.Status = appsv1.DeploymentStatus{ObservedGeneration: dep.Generation, Replicas: n, UpdatedReplicas: n,
		AvailableReplicas: n, ReadyReplicas: n}
	if err := c.Status().Update(ctx, dep); err != nil {
		t.Fatalf("update status of Deployment %s/%s: %v", ns, name, err)
	}
}
