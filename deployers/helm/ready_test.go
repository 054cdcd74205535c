package helm

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/gardener/landscaper/apis/core/v1alpha1/targettypes"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/deployers/manifest/kubetest"
	"github.com/lscli/lscli/deployers/simcluster"
	"github.com/lscli/lscli/internal/ids"
)

// simClient returns a client of a simulated cluster with rules, whose
// clock reads *now.
func simClient(t *testing.T, now *time.Time, rules ...simcluster.RuleConfig) client.Client {
	t.Helper()
	rs, err := simcluster.CompileRules(rules)
	if err != nil {
		t.Fatal(err)
	}
	clusters := simcluster.New(simcluster.Options{Now: func() time.Time { return *now }, IDs: ids.NewSource(1),
		Version: "v1.33.4", Rules: rs})
	target := &lsv1alpha1.Target{ObjectMeta: metav1.ObjectMeta{Namespace: "example", Name: "sim"},
		Spec: lsv1alpha1.TargetSpec{Type: targettypes.KubernetesClusterTargetType}}
	c, err := clusters.ForTarget(context.Background(), target)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestReadinessRules checks helm's own readiness rules (kube.ReadyChecker,
// as helm's Wait and WaitWithJobs use it) on objects of the simulated
// cluster, whose fake controllers fill their status as the rules say.
func TestReadinessRules(t *testing.T) {
	deployment := func(name string, extra string) string {
		return fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata: {name: %s, namespace: default}
spec:
  %s
  selector: {matchLabels: {app: %s}}
  template:
    metadata: {labels: {app: %s}}
    spec: {containers: [{name: c, image: i}]}`, name, extra, name, name)
	}
	tests := []struct {
		name  string
		rule  *simcluster.RuleConfig
		doc   string
		jobs  bool
		ready bool
		log   string
	}{
		{name: "deployment ready", doc: deployment("d", "replicas: 2"), ready: true},
		{name: "deployment crashing", rule: &simcluster.RuleConfig{Fail: "crash"}, doc: deployment("d", "replicas: 2"),
			log: "Deployment is not ready: default/d. 0 out of 2 expected pods are ready"},
		{name: "deployment never observed", rule: &simcluster.RuleConfig{Hang: true}, doc: deployment("d", "replicas: 1")},
		{name: "paused deployment counts as ready", rule: &simcluster.RuleConfig{Hang: true}, doc: deployment("d", "paused: true"), ready: true},
		{name: "statefulset ready", doc: `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: s, namespace: default}
spec:
  serviceName: s
  selector: {matchLabels: {app: s}}
  template:
    metadata: {labels: {app: s}}
    spec: {containers: [{name: c, image: i}]}`, ready: true},
		{name: "statefulset crashing", rule: &simcluster.RuleConfig{Fail: "crash"}, doc: `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: s, namespace: default}
spec:
  serviceName: s
  selector: {matchLabels: {app: s}}
  template:
    metadata: {labels: {app: s}}
    spec: {containers: [{name: c, image: i}]}`, log: "StatefulSet is not ready: default/s. 0 out of 1 expected pods are ready"},
		// One node and maxUnavailable 1: helm expects no ready pod.
		{name: "daemonset crashing on one node", rule: &simcluster.RuleConfig{Fail: "crash"}, doc: `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: ds, namespace: default}
spec:
  selector: {matchLabels: {app: ds}}
  template:
    metadata: {labels: {app: ds}}
    spec: {containers: [{name: c, image: i}]}`, ready: true},
		{name: "daemonset not observed", rule: &simcluster.RuleConfig{Hang: true}, doc: `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: ds, namespace: default}
spec:
  selector: {matchLabels: {app: ds}}
  template:
    metadata: {labels: {app: ds}}
    spec: {containers: [{name: c, image: i}]}`},
		{name: "pod running", doc: `{apiVersion: v1, kind: Pod, metadata: {name: p, namespace: default}, spec: {containers: [{name: c, image: i}]}}`, ready: true},
		{name: "pod completed is not ready", doc: `{apiVersion: v1, kind: Pod, metadata: {name: p, namespace: default}, spec: {restartPolicy: Never, containers: [{name: c, image: i}]}}`,
			log: "Pod is not ready: default/p"},
		{name: "pvc bound", doc: `{apiVersion: v1, kind: PersistentVolumeClaim, metadata: {name: v, namespace: default}, spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}}`, ready: true},
		{name: "pvc pending", rule: &simcluster.RuleConfig{Fail: "no volume"},
			doc: `{apiVersion: v1, kind: PersistentVolumeClaim, metadata: {name: v, namespace: default}, spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}}`,
			log: "PersistentVolumeClaim is not bound: default/v"},
		{name: "service", doc: `{apiVersion: v1, kind: Service, metadata: {name: s, namespace: default}, spec: {ports: [{port: 80}]}}`, ready: true},
		{name: "load balancer with ingress", doc: `{apiVersion: v1, kind: Service, metadata: {name: s, namespace: default}, spec: {type: LoadBalancer, ports: [{port: 80}]}}`, ready: true},
		{name: "load balancer without ingress", rule: &simcluster.RuleConfig{Hang: true},
			doc: `{apiVersion: v1, kind: Service, metadata: {name: s, namespace: default}, spec: {type: LoadBalancer, ports: [{port: 80}]}}`,
			log: "Service does not have load balancer ingress IP address: default/s"},
		{name: "load balancer with external IP", rule: &simcluster.RuleConfig{Hang: true},
			doc: `{apiVersion: v1, kind: Service, metadata: {name: s, namespace: default}, spec: {type: LoadBalancer, externalIPs: [1.2.3.4], ports: [{port: 80}]}}`, ready: true},
		{name: "job without jobs", rule: &simcluster.RuleConfig{Hang: true}, doc: job, ready: true},
		{name: "job running with jobs", rule: &simcluster.RuleConfig{Hang: true}, doc: job, jobs: true, log: "Job is not completed: default/j"},
		{name: "job complete with jobs", doc: job, jobs: true, ready: true},
		{name: "configmap", doc: `{apiVersion: v1, kind: ConfigMap, metadata: {name: cm, namespace: default}}`, ready: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			now := epoch
			var rules []simcluster.RuleConfig
			if tt.rule != nil {
				rules = append(rules, *tt.rule)
			}
			c := simClient(t, &now, rules...)
			u := kubetest.Object(tt.doc)
			if err := c.Create(ctx, u); err != nil {
				t.Fatal(err)
			}
			log := &helmLog{}
			k := &kubeClient{ctx: ctx, c: c, namespace: "default", log: log, hooks: &hookRun{}}
			res, err := k.Build(strings.NewReader(tt.doc), false)
			if err != nil {
				t.Fatal(err)
			}
			checker, err := readyChecker(ctx, c, log.printf, tt.jobs)
			if err != nil {
				t.Fatal(err)
			}
			ready, err := checker.IsReady(ctx, res[0])
			if err != nil || ready != tt.ready {
				t.Errorf("IsReady = %v, %v; want %v", ready, err, tt.ready)
			}
			if tt.log != "" && !strings.Contains(log.text(), tt.log) {
				t.Errorf("helm logged %q, want %q", log.text(), tt.log)
			}
		})
	}
}

const job = `apiVersion: batch/v1
kind: Job
metadata: {name: j, namespace: default}
spec:
  template:
    spec:
      restartPolicy: Never
      containers: [{name: c, image: i}]`

// TestWaitPausesOnSimulatedCluster: helm's wait for objects that are not
// ready does not block on a simulated cluster: it pauses the action (the
// item is called again later), and once the progressing timeout has passed
// it fails with helm's timeout error; ready objects pass.
func TestWaitPausesOnSimulatedCluster(t *testing.T) {
	ctx := context.Background()
	now := epoch
	c := simClient(t, &now, simcluster.RuleConfig{Match: simcluster.MatchConfig{Kind: "Deployment"}, Duration: "1m"})
	doc := `apiVersion: apps/v1
kind: Deployment
metadata: {name: d, namespace: default}
spec:
  selector: {matchLabels: {app: d}}
  template:
    metadata: {labels: {app: d}}
    spec: {containers: [{name: c, image: i}]}`
	if err := c.Create(ctx, kubetest.Object(doc)); err != nil {
		t.Fatal(err)
	}
	wait := func(hooks *hookRun) error {
		k := &kubeClient{ctx: ctx, c: c, namespace: "default", log: &helmLog{}, hooks: hooks}
		res, err := k.Build(strings.NewReader(doc), false)
		if err != nil {
			t.Fatal(err)
		}
		return k.Wait(res, time.Hour)
	}
	hooks := &hookRun{}
	if err := wait(hooks); err != errHookPending || !hooks.isPaused() {
		t.Fatalf("Wait = %v, paused %v; want the action paused", err, hooks.isPaused())
	}
	if err := wait(&hookRun{expired: true}); err != context.DeadlineExceeded {
		t.Fatalf("Wait past the timeout = %v, want %v", err, context.DeadlineExceeded)
	}
	now = now.Add(time.Minute)
	if err := wait(&hookRun{}); err != nil {
		t.Fatalf("Wait for the ready Deployment = %v", err)
	}
}

// TestWaitForDeleteOnSimulatedCluster: uninstall's wait passes when the
// objects are gone and pauses while one is still there; hooks deleted by
// their policy are not waited for.
func TestWaitForDeleteOnSimulatedCluster(t *testing.T) {
	ctx := context.Background()
	now := epoch
	c := simClient(t, &now)
	doc := `{apiVersion: v1, kind: ConfigMap, metadata: {name: cm, namespace: default, finalizers: [example.com/hold]}}`
	if err := c.Create(ctx, kubetest.Object(doc)); err != nil {
		t.Fatal(err)
	}
	k := &kubeClient{ctx: ctx, c: c, namespace: "default", log: &helmLog{}, hooks: &hookRun{}}
	res, err := k.Build(strings.NewReader(doc), false)
	if err != nil {
		t.Fatal(err)
	}
	if _, errs := k.Delete(res); len(errs) > 0 {
		t.Fatal(errs)
	}
	if err := k.WaitForDelete(res, time.Hour); err != errHookPending {
		t.Fatalf("WaitForDelete = %v, want the action paused", err)
	}
	hook := `{apiVersion: v1, kind: ConfigMap, metadata: {name: cm, namespace: default, annotations: {helm.sh/hook: pre-delete}}}`
	k = &kubeClient{ctx: ctx, c: c, namespace: "default", log: &helmLog{}, hooks: &hookRun{}}
	hres, err := k.Build(strings.NewReader(hook), false)
	if err != nil {
		t.Fatal(err)
	}
	if err := k.WaitForDelete(hres, time.Hour); err != nil {
		t.Fatalf("WaitForDelete of a hook = %v, want no wait", err)
	}
	live := kubetest.Object(doc)
	if err := c.Get(ctx, client.ObjectKeyFromObject(live), live); err != nil {
		t.Fatal(err)
	}
	live.SetFinalizers(nil)
	if err := c.Update(ctx, live); err != nil {
		t.Fatal(err)
	}
	if err := k.WaitForDelete(res, time.Hour); err != nil {
		t.Fatalf("WaitForDelete when gone = %v", err)
	}
}
