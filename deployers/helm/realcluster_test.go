package helm

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/deployers/manifest/kubetest"
	"github.com/lscli/lscli/deployers/realcluster"
	"github.com/lscli/lscli/internal/testcluster"
	"github.com/lscli/lscli/reconcile"
)

func TestMain(m *testing.M) { os.Exit(testcluster.Run(m)) }

// realTarget is a kubernetes-cluster Target with the test cluster's kubeconfig.
func realTarget(tc *testcluster.Cluster) *lsv1alpha1.Target {
	tg := &lsv1alpha1.Target{Spec: lsv1alpha1.TargetSpec{Type: realcluster.TargetType}}
	tg.Name, tg.Namespace = "real", "example"
	raw := []byte(`{"kubeconfig": ` + jsonString(string(tc.Kubeconfig)) + `}`)
	tg.Spec.Configuration = &lsv1alpha1.AnyJSON{RawMessage: raw}
	return tg
}

// TestRealClusterRelease runs the release lifecycle of TestReleaseLifecycle
// against a real kube-apiserver: install (CRD from crds/ served before the
// Widget is created), readiness, two upgrades, uninstall.
func TestRealClusterRelease(t *testing.T) {
	tc := testcluster.Get(t)
	ctx := context.Background()
	ns := tc.Namespace(t)
	runPods(t, tc.Client, ns)
	d := New(Options{Clusters: realcluster.New(realcluster.Options{})})
	cfg := func(values map[string]any) map[string]any {
		return config(t, map[string]any{"namespace": ns, "values": values})
	}
	item := deployItem(t, cfg(map[string]any{"greeting": "hello", "extra": "x"}), lsv1alpha1.DeployItemPhases.Init, epoch)
	req := request(item, epoch)
	req.Target = realTarget(tc)

	res, err := d.Reconcile(ctx, req)
	if err != nil {
		t.Fatalf("install: %v", err)
	}
	wantPhase(t, res, lsv1alpha1.DeployItemPhases.Progressing)
	cm := configMap(t, tc.Client, ns, "demo-demo")
	if cm.Data["greeting"] != "HELLO" || cm.Data["kubeVersion"] != "v1.37.2" || cm.Data["servesDeployments"] != "true" {
		t.Errorf("ConfigMap data = %v, want greeting HELLO, the apiserver's version v1.37.2 and its kinds", cm.Data)
	}
	if kubetest.Get(t, tc.Client, "demo.lscli.io/v1", "Widget", ns, "demo-demo") == nil {
		t.Error("the Widget was not created")
	}

	markDeploymentReady(t, tc.Client, ns, "demo-demo")
	req.Item = item.DeepCopy()
	req.Item.Status.Phase, req.Item.Status.ProviderStatus = lsv1alpha1.DeployItemPhases.Progressing, res.ProviderStatus
	req.Now = epoch.Add(5 * time.Second)
	if res, err = d.Reconcile(ctx, req); err != nil {
		t.Fatalf("poll: %v", err)
	}
	wantPhase(t, res, lsv1alpha1.DeployItemPhases.Succeeded)

	upgrade := func(values map[string]any, now time.Time) {
		t.Helper()
		req.Item = deployItem(t, cfg(values), lsv1alpha1.DeployItemPhases.Init, now)
		req.Now = now
		res, err := d.Reconcile(ctx, req)
		if err != nil {
			t.Fatalf("upgrade: %v", err)
		}
		wantPhase(t, res, lsv1alpha1.DeployItemPhases.Succeeded)
	}
	upgrade(map[string]any{"greeting": "bye"}, epoch.Add(time.Minute))
	if cm := configMap(t, tc.Client, ns, "demo-demo"); cm.Data["greeting"] != "BYE" || cm.Data["extra"] != "" ||
		cm.Data["previousGreeting"] != "HELLO" {
		t.Errorf("after upgrade data = %v, want greeting BYE, no extra and previousGreeting HELLO (lookup)", cm.Data)
	}
	upgrade(map[string]any{"greeting": "hi", "widget": map[string]any{"enabled": false}}, epoch.Add(2*time.Minute))
	wantReleaseHistory(t, tc.Client, ns, "superseded", "superseded", "deployed")
	if kubetest.Get(t, tc.Client, "demo.lscli.io/v1", "Widget", ns, "demo-demo") != nil {
		t.Error("the Widget the chart no longer renders is still there")
	}

	req.Now = epoch.Add(3 * time.Minute)
	req.Item.Status.ProviderStatus = res.ProviderStatus // deployed: an item without one uninstalls nothing
	if _, err := d.Delete(ctx, req); err != nil {
		t.Fatalf("uninstall: %v", err)
	}
	wantReleaseHistory(t, tc.Client, ns)
	if kubetest.Get(t, tc.Client, "v1", "ConfigMap", ns, "demo-demo") != nil {
		t.Error("uninstall left the ConfigMap")
	}
}

// runPods plays the kubelet the test cluster has not, until the test ends:
// a Pod in ns that runs to completion (restartPolicy Never or OnFailure,
// such as the test chart's hook Pod, which helm waits for) succeeds.
func runPods(t *testing.T, c client.Client, ns string) {
	playController(t, func(ctx context.Context) {
		pods := &corev1.PodList{}
		if err := c.List(ctx, pods, client.InNamespace(ns)); err == nil {
			for i := range pods.Items {
				p := &pods.Items[i]
				if p.Spec.RestartPolicy != corev1.RestartPolicyAlways && p.Status.Phase != corev1.PodSucceeded {
					p.Status.Phase = corev1.PodSucceeded
					_ = c.Status().Update(ctx, p) // a conflict is tried again in the next round
				}
			}
		}
	})
}

// playController runs round every 50ms until the test ends, in the place
// of a controller the test cluster does not run.
func playController(t *testing.T, round func(ctx context.Context)) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	t.Cleanup(func() { cancel(); <-done })
	go func() {
		defer close(done)
		for ctx.Err() == nil {
			round(ctx)
			select {
			case <-ctx.Done():
			case <-time.After(50 * time.Millisecond):
			}
		}
	}()
}

// wantReleaseHistory is wantHistory for the release demo in namespace ns.
func wantReleaseHistory(t *testing.T, c client.Client, ns string, statuses ...string) {
	t.Helper()
	rels, err := newReleaser(context.Background(), c, true, "demo", ns, nil, epoch).history()
	if err != nil {
		t.Fatal(err)
	}
	if len(rels) != len(statuses) {
		t.Fatalf("%d revisions, want %v", len(rels), statuses)
	}
	for i, r := range rels {
		if r.Info.Status.String() != statuses[i] {
			t.Errorf("revision %d is %s, want %s", r.Version, r.Info.Status, statuses[i])
		}
	}
}

// TestRealClusterManifests deploys the test chart with helmDeployment: false
// to a real kube-apiserver: applied object by object, readiness, an update
// that drops the ConfigMap's extra key, and deletion of every object.
func TestRealClusterManifests(t *testing.T) {
	tc := testcluster.Get(t)
	ctx := context.Background()
	ns := tc.Namespace(t)
	d := New(Options{Clusters: realcluster.New(realcluster.Options{})})
	cfg := func(values map[string]any) map[string]any {
		values["widget"] = map[string]any{"enabled": false}
		return config(t, map[string]any{"helmDeployment": false, "namespace": ns, "values": values})
	}
	req := request(deployItem(t, cfg(map[string]any{"extra": "x"}), lsv1alpha1.DeployItemPhases.Init, epoch), epoch)
	req.Target = realTarget(tc)
	res, err := d.Reconcile(ctx, req)
	if err != nil {
		t.Fatalf("apply: %v", err)
	}
	wantPhase(t, res, lsv1alpha1.DeployItemPhases.Progressing)
	markDeploymentReady(t, tc.Client, ns, "demo-demo")
	markPodReady(t, tc.Client, ns, "demo-demo-post-install")
	req.Item.Status.Phase, req.Item.Status.ProviderStatus = lsv1alpha1.DeployItemPhases.Progressing, res.ProviderStatus
	req.Now = epoch.Add(5 * time.Second)
	if res, err = d.Reconcile(ctx, req); err != nil {
		t.Fatalf("poll: %v", err)
	}
	wantPhase(t, res, lsv1alpha1.DeployItemPhases.Succeeded)

	req.Item = deployItem(t, cfg(map[string]any{}), lsv1alpha1.DeployItemPhases.Init, epoch.Add(time.Minute))
	req.Item.Status.ProviderStatus, req.Now = res.ProviderStatus, epoch.Add(time.Minute)
	if res, err = d.Reconcile(ctx, req); err != nil {
		t.Fatalf("update: %v", err)
	}
	wantPhase(t, res, lsv1alpha1.DeployItemPhases.Succeeded)
	if cm := configMap(t, tc.Client, ns, "demo-demo"); cm.Data["extra"] != "" || cm.Data["previousGreeting"] != cm.Data["greeting"] {
		t.Errorf("after update data = %v, want no extra and previousGreeting (lookup) the greeting", cm.Data)
	}

	// delete: a real cluster finishes deleting after a while (the Pod needs
	// a kubelet, which the test plays, the CRD its cleanup): poll, in real time
	req.Item.Status.ProviderStatus = res.ProviderStatus
	for i := 0; ; i++ {
		req.Now = epoch.Add(2*time.Minute + time.Duration(i)*time.Second)
		res, err := d.Delete(ctx, req)
		if err != nil {
			t.Fatalf("delete: %v", err)
		}
		if res.Phase == "" {
			break
		}
		if i == 100 {
			t.Fatalf("delete still %s after %d polls", res.Phase, i)
		}
		req.Item.Status.Phase = res.Phase
		pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "demo-demo-post-install"}}
		_ = tc.Client.Delete(ctx, pod, client.GracePeriodSeconds(0))
		time.Sleep(100 * time.Millisecond)
	}
	if kubetest.Get(t, tc.Client, "v1", "ConfigMap", ns, "demo-demo") != nil {
		t.Error("delete left the ConfigMap")
	}
}

// TestRealClusterWait runs helm's wait against a real kube-apiserver, which
// runs no controllers: a Deployment gets no ReplicaSet and is never ready
// by helm's rules, so an atomic install waits until its timeout (the time
// left of the item's progressing timeout, 2s) and is uninstalled, with
// helm's error. Once the Deployment's ReplicaSet is there and ready (as
// kube-controller-manager would make it), an install with wait succeeds.
func TestRealClusterWait(t *testing.T) {
	tc := testcluster.Get(t)
	ctx := context.Background()
	ns := tc.Namespace(t)
	runPods(t, tc.Client, ns)
	d := New(Options{Clusters: realcluster.New(realcluster.Options{})})
	item := func(flags map[string]any) *lsv1alpha1.DeployItem {
		di := deployItem(t, config(t, map[string]any{"namespace": ns, "helmDeploymentConfig": map[string]any{"install": flags}}),
			lsv1alpha1.DeployItemPhases.Init, epoch)
		di.Spec.Timeout = &lsv1alpha1.Duration{Duration: 2 * time.Second}
		return di
	}
	req := request(item(map[string]any{"atomic": true}), epoch)
	req.Target = realTarget(tc)
	start := time.Now()
	_, err := d.Reconcile(ctx, req)
	want := "unable to install helm chart release: release demo failed, and has been uninstalled due to atomic being set: context deadline exceeded"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("atomic install = %v, want %q", err, want)
	}
	if e, ok := err.(*reconcile.Error); !ok || e.Operation != "RealHelmDeployer.Deploy" || e.Reason != "installRelease" {
		t.Errorf("error %#v, want operation RealHelmDeployer.Deploy, reason installRelease", err)
	}
	if waited := time.Since(start); waited < 2*time.Second {
		t.Errorf("the install failed after %v, before its timeout", waited)
	}
	wantReleaseHistory(t, tc.Client, ns)
	if kubetest.Get(t, tc.Client, "apps/v1", "Deployment", ns, "demo-demo") != nil {
		t.Error("the atomic install left its Deployment")
	}

	readyDeployments(t, tc.Client, ns)
	req = request(item(map[string]any{"wait": true}), epoch)
	req.Target = realTarget(tc)
	if _, err := d.Reconcile(ctx, req); err != nil {
		t.Fatalf("install with wait: %v", err)
	}
	wantReleaseHistory(t, tc.Client, ns, "deployed")
}

// readyDeployments makes the Deployments in ns ready until the test ends,
// as kube-controller-manager and the kubelet would: a new ReplicaSet
// controlled by the Deployment, with its pod template, and every replica
// ready in both statuses.
func readyDeployments(t *testing.T, c client.Client, ns string) {
	playController(t, func(ctx context.Context) {
		deps := &appsv1.DeploymentList{}
		if err := c.List(ctx, deps, client.InNamespace(ns)); err == nil {
			for i := range deps.Items {
				readyDeployment(ctx, c, &deps.Items[i])
			}
		}
	})
}

// readyDeployment gives dep a ready ReplicaSet and status (see
// readyDeployments); errors are tried again in the next round.
func readyDeployment(ctx context.Context, c client.Client, dep *appsv1.Deployment) {
	n := *dep.Spec.Replicas
	rs := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: dep.Name + "-rs", Namespace: dep.Namespace,
		Labels:          dep.Spec.Template.Labels,
		OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(dep, appsv1.SchemeGroupVersion.WithKind("Deployment"))}},
		Spec: appsv1.ReplicaSetSpec{Replicas: &n, Selector: dep.Spec.Selector, Template: dep.Spec.Template}}
	if err := c.Create(ctx, rs); err != nil && !apierrors.IsAlreadyExists(err) {
		return
	}
	if err := c.Get(ctx, client.ObjectKeyFromObject(rs), rs); err != nil {
		return
	}
	if rs.Status.ObservedGeneration != rs.Generation {
		rs.Status = appsv1.ReplicaSetStatus{ObservedGeneration: rs.Generation, Replicas: n, ReadyReplicas: n, AvailableReplicas: n}
		_ = c.Status().Update(ctx, rs)
	}
	if dep.Status.ObservedGeneration != dep.Generation {
		dep.Status = appsv1.DeploymentStatus{ObservedGeneration: dep.Generation, Replicas: n, UpdatedReplicas: n,
			AvailableReplicas: n, ReadyReplicas: n}
		_ = c.Status().Update(ctx, dep)
	}
}
