package helm

import (
	"context"
	"strings"
	"testing"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/deployers/realcluster"
	"github.com/lscli/lscli/internal/testcluster"
)

// TestForceUpgrade runs upgrades with helmDeploymentConfig.upgrade.force on
// lscli's simulated cluster; TestRealClusterForceUpgrade runs the same on a
// real kube-apiserver, with the same expectations (see forceUpgrade).
func TestForceUpgrade(t *testing.T) {
	now := epoch
	sim := newSimulated(t, &now, nil)
	c, err := sim.clusters.ForTarget(context.Background(), sim.target)
	if err != nil {
		t.Fatal(err)
	}
	forceUpgrade(t, sim.d, c, sim.target, "apps", &now)
	forceAdopt(t, sim.d, c, sim.target, "adopt", &now)
}

// TestRealClusterForceUpgrade is TestForceUpgrade on a real kube-apiserver.
func TestRealClusterForceUpgrade(t *testing.T) {
	tc := testcluster.Get(t)
	now := epoch
	d := New(Options{Clusters: realcluster.New(realcluster.Options{})})
	forceUpgrade(t, d, tc.Client, realTarget(tc), tc.Namespace(t), &now)
	forceAdopt(t, d, tc.Client, realTarget(tc), tc.Namespace(t), &now)
}

// forceUpgrade installs the chart testdata/force (a ConfigMap, a Service
// and a Deployment named demo) in namespace ns of the Target's cluster c,
// lets another field manager change the objects, and upgrades: without
// force helm patches, and what the other manager set stays; with force
// helm replaces each object (a PUT of the chart's object), so what the
// other manager set is gone (the ConfigMap's extra key and label, the
// Service's annotation; the Deployment's replicas go back to the
// default), while the API server keeps what it allocated (the Service's
// cluster IP: kube-apiserver fills what a Service update leaves out). A
// replace that changes an immutable field (the Deployment's selector)
// fails as a patch does, with helm's "failed to replace object:", and
// leaves a failed revision.
func forceUpgrade(t *testing.T, d *Deployer, c client.Client, target *lsv1alpha1.Target, ns string, now *time.Time) {
	ctx := context.Background()
	run := func(force bool, values map[string]any) error {
		t.Helper()
		*now = now.Add(time.Minute)
		changes := map[string]any{"namespace": ns, "createNamespace": true, "chart": map[string]any{"ref": "./testdata/force"},
			"values": values}
		if force {
			changes["helmDeploymentConfig"] = map[string]any{"upgrade": map[string]any{"force": true}}
		}
		req := request(deployItem(t, config(t, changes), lsv1alpha1.DeployItemPhases.Init, *now), *now)
		req.Target = target
		_, err := d.Reconcile(ctx, req)
		return err
	}
	if err := run(false, map[string]any{"greeting": "hello"}); err != nil {
		t.Fatalf("install: %v", err)
	}
	key := client.ObjectKey{Namespace: ns, Name: "demo"}
	svc := &corev1.Service{}
	if err := c.Get(ctx, key, svc); err != nil {
		t.Fatal(err)
	}
	clusterIP := svc.Spec.ClusterIP
	if clusterIP == "" {
		t.Fatal("the Service got no cluster IP")
	}

	// another manager's changes
	other := client.FieldOwner("kubectl-edit")
	edit := func(obj client.Object, patch string) {
		t.Helper()
		obj.SetNamespace(ns)
		obj.SetName("demo")
		if err := c.Patch(ctx, obj, client.RawPatch(types.MergePatchType, []byte(patch)), other); err != nil {
			t.Fatalf("edit %T: %v", obj, err)
		}
	}
	edit(&corev1.ConfigMap{}, `{"metadata":{"labels":{"team":"other"}},"data":{"extra":"x"}}`)
	edit(&corev1.Service{}, `{"metadata":{"annotations":{"other":"x"}}}`)
	edit(&appsv1.Deployment{}, `{"spec":{"replicas":3}}`)

	// without force, helm patches: the other manager's fields stay
	if err := run(false, map[string]any{"greeting": "hi"}); err != nil {
		t.Fatalf("upgrade: %v", err)
	}
	if cm := configMap(t, c, ns, "demo"); cm.Data["greeting"] != "hi" || cm.Data["extra"] != "x" || cm.Labels["team"] != "other" {
		t.Errorf("after an upgrade ConfigMap data %v, labels %v; want greeting hi, extra x and label team", cm.Data, cm.Labels)
	}

	// with force, helm replaces: the other manager's fields are gone
	if err := run(true, map[string]any{"greeting": "bye"}); err != nil {
		t.Fatalf("upgrade with force: %v", err)
	}
	cm := configMap(t, c, ns, "demo")
	if len(cm.Data) != 1 || cm.Data["greeting"] != "bye" || cm.Labels["team"] != "" || cm.Labels["app.kubernetes.io/managed-by"] != "Helm" {
		t.Errorf("after an upgrade with force ConfigMap data %v, labels %v; want only greeting bye, helm's label and no team",
			cm.Data, cm.Labels)
	}
	if err := c.Get(ctx, key, svc); err != nil {
		t.Fatal(err)
	}
	if svc.Spec.ClusterIP != clusterIP || svc.Annotations["other"] != "" {
		t.Errorf("after an upgrade with force Service cluster IP %s, annotations %v; want %s kept, other gone",
			svc.Spec.ClusterIP, svc.Annotations, clusterIP)
	}
	dep := &appsv1.Deployment{}
	if err := c.Get(ctx, key, dep); err != nil {
		t.Fatal(err)
	}
	if dep.Spec.Replicas == nil || *dep.Spec.Replicas != 1 {
		t.Errorf("after an upgrade with force Deployment replicas %v, want 1 (the default of the chart's object)", dep.Spec.Replicas)
	}
	wantReleaseHistory(t, c, ns, "superseded", "superseded", "deployed")

	// an immutable field: the replace is refused
	err := run(true, map[string]any{"greeting": "bye", "app": "web2"})
	want := `
preparing upgrade for demo
performing update for demo
creating upgraded release for demo
checking 3 resources for changes
Replaced "demo" with kind ConfigMap for kind ConfigMap
Replaced "demo" with kind Service for kind Service
error updating the resource "demo":
	 failed to replace object: Deployment.apps "demo" is invalid: spec.selector: Invalid value: {"matchLabels":{"app":"web2"}}: field is immutable
warning: Upgrade "demo" failed: failed to replace object: Deployment.apps "demo" is invalid: spec.selector: Invalid value: {"matchLabels":{"app":"web2"}}: field is immutable
Op: UpgradeHelmRelease - Reason: Update - Message: unable to upgrade helm chart release: failed to replace object: Deployment.apps "demo" is invalid: spec.selector: Invalid value: {"matchLabels":{"app":"web2"}}: field is immutable`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("upgrade with force of an immutable field = %v, want %s", err, want)
	}
	wantReleaseHistory(t, c, ns, "superseded", "superseded", "deployed", "failed")
	if err := c.Get(ctx, key, svc); err != nil {
		t.Fatal(err)
	}
	if svc.Spec.Selector["app"] != "web2" || svc.Spec.ClusterIP != clusterIP {
		t.Errorf("Service selector %v, cluster IP %s; want app web2 (replaced before the Deployment failed) and %s",
			svc.Spec.Selector, svc.Spec.ClusterIP, clusterIP)
	}
}

// forceAdopt installs the chart testdata/force in namespace ns with
// install.takeOwnership and install.force where its ConfigMap exists with
// a key of its own: helm's install adopts the ConfigMap by replacing it
// (helm's Update with force), so the key is gone, and creates the rest.
func forceAdopt(t *testing.T, d *Deployer, c client.Client, target *lsv1alpha1.Target, ns string, now *time.Time) {
	ctx := context.Background()
	if err := c.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}); err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatal(err)
	}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "demo"}, Data: map[string]string{"extra": "x"}}
	if err := c.Create(ctx, cm); err != nil {
		t.Fatal(err)
	}
	*now = now.Add(time.Minute)
	changes := map[string]any{"namespace": ns, "chart": map[string]any{"ref": "./testdata/force"},
		"helmDeploymentConfig": map[string]any{"install": map[string]any{"force": true, "takeOwnership": true}}}
	req := request(deployItem(t, config(t, changes), lsv1alpha1.DeployItemPhases.Init, *now), *now)
	req.Target = target
	if _, err := d.Reconcile(ctx, req); err != nil {
		t.Fatalf("install with takeOwnership and force: %v", err)
	}
	if cm := configMap(t, c, ns, "demo"); len(cm.Data) != 1 || cm.Data["greeting"] != "hello" ||
		cm.Annotations["meta.helm.sh/release-name"] != "demo" {
		t.Errorf("adopted ConfigMap data %v, annotations %v; want only greeting hello and helm's annotations", cm.Data, cm.Annotations)
	}
	if err := c.Get(ctx, client.ObjectKey{Namespace: ns, Name: "demo"}, &corev1.Service{}); err != nil {
		t.Errorf("the Service was not created: %v", err)
	}
	wantReleaseHistory(t, c, ns, "deployed")
}
