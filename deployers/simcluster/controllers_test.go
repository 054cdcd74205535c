package simcluster

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/cli-utils/pkg/kstatus/status"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// kinds are one manifest of each kind the fake controllers handle.
var kinds = []struct {
	name, apiVersion, kind, manifest string
	// failed is the kstatus of the object when a rule makes it fail.
	failed status.Status
}{
	{"Deployment", "apps/v1", "Deployment", deploymentManifest, status.FailedStatus},
	{"StatefulSet", "apps/v1", "StatefulSet", `
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: web, namespace: default}
spec: {replicas: 3, serviceName: web, selector: {matchLabels: {app: web}}, template: {metadata: {labels: {app: web}}, spec: {containers: [{name: web, image: nginx}]}}}
`, status.InProgressStatus},
	{"DaemonSet", "apps/v1", "DaemonSet", `
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: web, namespace: default}
spec: {selector: {matchLabels: {app: web}}, template: {metadata: {labels: {app: web}}, spec: {containers: [{name: web, image: nginx}]}}}
`, status.InProgressStatus},
	{"ReplicaSet", "apps/v1", "ReplicaSet", `
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: web, namespace: default}
spec: {replicas: 2, selector: {matchLabels: {app: web}}, template: {metadata: {labels: {app: web}}, spec: {containers: [{name: web, image: nginx}]}}}
`, status.InProgressStatus},
	{"Pod", "v1", "Pod", `
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: default}
spec: {containers: [{name: web, image: nginx}]}
`, status.FailedStatus},
	{"Job", "batch/v1", "Job", `
apiVersion: batch/v1
kind: Job
metadata: {name: migrate, namespace: default}
spec: {template: {spec: {restartPolicy: Never, containers: [{name: m, image: busybox}]}}}
`, status.FailedStatus},
	{"PersistentVolumeClaim", "v1", "PersistentVolumeClaim", `
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data, namespace: default}
spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`, status.InProgressStatus},
	{"LoadBalancer Service", "v1", "Service", `
apiVersion: v1
kind: Service
metadata: {name: web, namespace: default}
spec: {type: LoadBalancer, ports: [{port: 80}]}
`, status.CurrentStatus},
	{"CRD", "apiextensions.k8s.io/v1", "CustomResourceDefinition", crdManifest, status.FailedStatus},
}

func TestFakeControllersMakeObjectsReady(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			f := newFixture(t)
			u := obj(t, k.manifest)
			f.create(k.manifest)
			got := f.get(k.apiVersion, k.kind, u.GetNamespace(), u.GetName())
			if s := kstatusOf(t, got); s != status.CurrentStatus {
				t.Errorf("kstatus = %s, want Current; status: %v", s, got.Object["status"])
			}
		})
	}
}

func TestFailRule(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			f := newFixture(t, RuleConfig{Match: MatchConfig{Kind: k.kind}, Fail: "simulated failure"})
			u := obj(t, k.manifest)
			f.create(k.manifest)
			got := f.get(k.apiVersion, k.kind, u.GetNamespace(), u.GetName())
			if s := kstatusOf(t, got); s != k.failed {
				t.Errorf("kstatus = %s, want %s; status: %v", s, k.failed, got.Object["status"])
			}
		})
	}
}

func TestDurationRule(t *testing.T) {
	f := newFixture(t, RuleConfig{Match: MatchConfig{Target: "cluster", Kind: "Deploy*", Labels: "app=web"}, Duration: "2m"})
	ctx := context.Background()
	f.create(deploymentManifest)
	check := func(when string, want status.Status) {
		t.Helper()
		if s := kstatusOf(t, f.get("apps/v1", "Deployment", "default", "web")); s != want {
			t.Errorf("%s: kstatus = %s, want %s", when, s, want)
		}
	}
	check("at once", status.InProgressStatus)
	if next, ok := f.clusters.NextChange(f.target); !ok || !next.Equal(epoch.Add(2*time.Minute)) {
		t.Errorf("NextChange = %v, %v; want %v", next, ok, epoch.Add(2*time.Minute))
	}
	f.clock.Step(time.Minute)
	check("after 1m", status.InProgressStatus)
	f.clock.Step(time.Minute)
	check("after 2m", status.CurrentStatus)
	if _, ok := f.clusters.NextChange(f.target); ok {
		t.Error("NextChange reports a change after everything is ready")
	}
	u := f.get("apps/v1", "Deployment", "default", "web")
	u.Object["spec"].(map[string]any)["replicas"] = int64(5)
	if err := f.c.Update(ctx, u); err != nil {
		t.Fatal(err)
	}
	check("after a spec change", status.InProgressStatus)
	f.clock.Step(2 * time.Minute)
	check("2m after the spec change", status.CurrentStatus)
}

func TestHangRule(t *testing.T) {
	f := newFixture(t, RuleConfig{Match: MatchConfig{Name: "web"}, Hang: true})
	f.create(deploymentManifest)
	f.clock.Step(time.Hour)
	if s := kstatusOf(t, f.get("apps/v1", "Deployment", "default", "web")); s != status.InProgressStatus {
		t.Errorf("kstatus = %s, want InProgress", s)
	}
	if _, ok := f.clusters.NextChange(f.target); ok {
		t.Error("a hanging controller reports a next change")
	}
}

func TestCRDRuleDelaysItsKinds(t *testing.T) {
	f := newFixture(t, RuleConfig{Match: MatchConfig{Kind: "CustomResourceDefinition"}, Duration: "30s"})
	f.create(crdManifest)
	if err := f.c.Create(context.Background(), obj(t, widgetManifest)); err == nil {
		t.Fatal("a custom resource was accepted before its CRD was established")
	}
	f.clock.Step(30 * time.Second)
	f.create(widgetManifest)
}

// TestDeploymentNamesItsReplicaSet checks the ReplicaSet name in a
// Deployment's Progressing condition: the Deployment's name and the
// pod-template-hash of the template as stored, with the API server's
// defaults (restartPolicy, imagePullPolicy, ...; TestRealClusterDefaults
// compares them with a real kube-apiserver's), hashed as
// kube-controller-manager's ComputeHash does (TestPodTemplateHash).
func TestDeploymentNamesItsReplicaSet(t *testing.T) {
	f := newFixture(t)
	f.create(deploymentManifest)
	got := f.get("apps/v1", "Deployment", "default", "web")
	conds, _, _ := unstructured.NestedSlice(got.Object, "status", "conditions")
	var msg string
	for _, c := range conds {
		if m := c.(map[string]any); m["type"] == "Progressing" {
			msg, _ = m["message"].(string)
		}
	}
	if want := `ReplicaSet "web-69899ccd4" has successfully progressed.`; msg != want {
		t.Errorf("Progressing message = %q, want %q", msg, want)
	}
}

// TestPodTemplateHash checks the algorithm alone: the hashes were computed
// with kube-controller-manager's own ComputeHash (k8s.io/kubernetes v1.37.2,
// pkg/controller) for this template, as given (not defaulted).
func TestPodTemplateHash(t *testing.T) {
	tpl := &corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "nginx"}}}}
	one := int32(1)
	for _, tc := range []struct {
		collisions *int32
		want       string
	}{{nil, "969cd65dd"}, {&one, "6cfbb99f8f"}} {
		if got := podTemplateHash(tpl, tc.collisions); got != tc.want {
			t.Errorf("podTemplateHash(collisionCount %v) = %q, want %q", tc.collisions, got, tc.want)
		}
	}
}

// TestPodPhase: a Pod whose containers are not restarted (restartPolicy
// Never or OnFailure) runs to completion as a Job does: Succeeded when the
// controller acts (after the rule's duration), Failed with a fail rule
// (OnFailure restarts the failing container instead: a crash loop, Running
// for ever); a Pod with restartPolicy Always (the default) runs for ever.
func TestPodPhase(t *testing.T) {
	pod := func(policy string) string {
		return "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\nspec: {restartPolicy: " + policy +
			", containers: [{name: c, image: busybox}]}\n"
	}
	for _, tc := range []struct {
		name, policy string
		rule         RuleConfig
		want         string // phase after the rule's time
		before       string // phase before it, for a duration (a new Pod is Pending, as kube-apiserver makes it)
		kstatus      status.Status
	}{
		{"never", "Never", RuleConfig{}, "Succeeded", "", status.CurrentStatus},
		{"never after 1m", "Never", RuleConfig{Duration: "1m"}, "Succeeded", "Pending", status.CurrentStatus},
		{"never failing", "Never", RuleConfig{Fail: "exit 1"}, "Failed", "", status.CurrentStatus}, // kstatus: "completed, but not successfully"
		{"on failure", "OnFailure", RuleConfig{}, "Succeeded", "", status.CurrentStatus},
		{"on failure failing", "OnFailure", RuleConfig{Fail: "exit 1"}, "Running", "", status.FailedStatus},
		{"always", "Always", RuleConfig{}, "Running", "", status.CurrentStatus},
		{"never hanging", "Never", RuleConfig{Hang: true}, "Pending", "", status.InProgressStatus},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.rule.Match = MatchConfig{Kind: "Pod"}
			f := newFixture(t, tc.rule)
			f.create(pod(tc.policy))
			phase := func() string {
				p, _, _ := unstructured.NestedString(f.get("v1", "Pod", "default", "p").Object, "status", "phase")
				return p
			}
			if tc.rule.Duration != "" {
				if got := phase(); got != tc.before {
					t.Errorf("phase before the rule's time = %q, want %q", got, tc.before)
				}
				f.clock.Step(time.Minute)
			}
			if got := phase(); got != tc.want {
				t.Errorf("phase = %q, want %q", got, tc.want)
			}
			if s := kstatusOf(t, f.get("v1", "Pod", "default", "p")); s != tc.kstatus {
				t.Errorf("kstatus = %s, want %s", s, tc.kstatus)
			}
		})
	}
}

func TestControlledKindsAreTheFillers(t *testing.T) {
	kinds := ControlledKinds()
	if len(kinds) != len(fillers) {
		t.Fatalf("ControlledKinds has %d kinds, fillers %d", len(kinds), len(fillers))
	}
	for _, k := range kinds {
		if !HasController(k) {
			t.Errorf("HasController(%q) = false", k)
		}
	}
	for _, k := range []string{"Shoot", "Ingress", "LsHealthCheck", "ConfigMap"} {
		if HasController(k) {
			t.Errorf("HasController(%q) = true", k)
		}
	}
}

// TestStatusJSONEncodesOnlyTheStatus checks that statusJSON, which encodes
// only the status of a typed object, gives what encoding the whole object
// and taking its status gave, for every kind a fake controller fills, new,
// filled ready and filled failed, and for an unstructured object.
func TestStatusJSONEncodesOnlyTheStatus(t *testing.T) {
	whole := func(obj client.Object) string {
		data, err := json.Marshal(obj)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		out, err := json.Marshal(dropTimes(m["status"]))
		if err != nil {
			t.Fatal(err)
		}
		return string(out)
	}
	now := metav1.NewTime(epoch)
	var objs []client.Object
	for gvk, fill := range fillers {
		for _, fail := range []string{"-", "", "it broke"} {
			ro, err := builtin().New(gvk)
			if err != nil {
				t.Fatal(err)
			}
			obj := ro.(client.Object)
			obj.SetName("x")
			obj.SetGeneration(3)
			if fail != "-" {
				fill(obj, fail, now)
			}
			objs = append(objs, obj)
		}
	}
	objs = append(objs, &unstructured.Unstructured{Object: map[string]any{"apiVersion": "example.com/v1", "kind": "W",
		"status": map[string]any{"n": int64(2), "lastTransitionTime": "now", "c": []any{map[string]any{"startedAt": "x", "a": "b"}}}}})
	for _, obj := range objs {
		got, err := statusJSON(obj)
		if err != nil {
			t.Fatal(err)
		}
		if want := whole(obj); got != want {
			t.Errorf("%T: statusJSON = %s, the whole object's status %s", obj, got, want)
		}
	}
}
