package simcluster

import (
	"context"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/cli-utils/pkg/kstatus/status"

	"github.com/lscli/lscli/deployers/readiness"
)

// ready reports whether u passes Landscaper's default readiness rule for
// its kind and kstatus computes Current for it, and, for a Job, whether it
// completed (neither looks at that: Landscaper's check knows no Jobs, and
// kstatus counts a running Job as Current).
func ready(t *testing.T, u *unstructured.Unstructured) bool {
	t.Helper()
	if readiness.Object(u) != nil || kstatusOf(t, u) != status.CurrentStatus {
		return false
	}
	if u.GetKind() != "Job" {
		return true
	}
	for _, c := range conditions(u) {
		if strings.HasPrefix(c, "Complete=True") {
			return true
		}
	}
	return false
}

// workloadManifests are one manifest of each kind whose fake controller
// runs pods, with SPEC where the pod spec goes (indented for a template).
var workloadManifests = map[string]string{
	"Deployment": `
apiVersion: apps/v1
kind: Deployment
metadata: {name: w, namespace: default}
spec:
  replicas: 2
  selector: {matchLabels: {app: w}}
  template:
    metadata: {labels: {app: w}}
    spec:
SPEC`,
	"StatefulSet": `
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: w, namespace: default}
spec:
  replicas: 2
  serviceName: w
  selector: {matchLabels: {app: w}}
  template:
    metadata: {labels: {app: w}}
    spec:
SPEC`,
	"DaemonSet": `
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: w, namespace: default}
spec:
  selector: {matchLabels: {app: w}}
  template:
    metadata: {labels: {app: w}}
    spec:
SPEC`,
	"ReplicaSet": `
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: w, namespace: default}
spec:
  replicas: 2
  selector: {matchLabels: {app: w}}
  template:
    metadata: {labels: {app: w}}
    spec:
SPEC`,
	"ReplicationController": `
apiVersion: v1
kind: ReplicationController
metadata: {name: w, namespace: default}
spec:
  replicas: 2
  selector: {app: w}
  template:
    metadata: {labels: {app: w}}
    spec:
SPEC`,
	"Job": `
apiVersion: batch/v1
kind: Job
metadata: {name: w, namespace: default}
spec:
  template:
    spec:
      restartPolicy: Never
SPEC`,
	"Pod": `
apiVersion: v1
kind: Pod
metadata: {name: w, namespace: default}
spec:
SPEC`,
}

func workload(kind, spec string) string {
	m := workloadManifests[kind]
	if kind == "Pod" {
		spec = strings.ReplaceAll(spec, "\n    ", "\n")
		spec = strings.TrimPrefix(spec, "    ")
	}
	return strings.Replace(m, "SPEC", spec, 1)
}

var workloadKinds = []struct{ kind, apiVersion string }{
	{"Deployment", "apps/v1"}, {"StatefulSet", "apps/v1"}, {"DaemonSet", "apps/v1"}, {"ReplicaSet", "apps/v1"},
	{"ReplicationController", "v1"}, {"Job", "batch/v1"}, {"Pod", "v1"},
}

// references are pod specs that need an object, and the object.
var references = []struct {
	name, spec, object string
}{
	{"service account", `
      serviceAccountName: sa
      containers: [{name: c, image: busybox}]
`, "apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: sa, namespace: default}\n"},
	{"claim", `
      containers: [{name: c, image: busybox}]
      volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]
`, "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data, namespace: default}\nspec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n"},
	{"secret volume", `
      containers: [{name: c, image: busybox}]
      volumes: [{name: s, secret: {secretName: creds}}]
`, "apiVersion: v1\nkind: Secret\nmetadata: {name: creds, namespace: default}\n"},
	{"config map volume", `
      containers: [{name: c, image: busybox}]
      volumes: [{name: s, configMap: {name: conf}}]
`, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: conf, namespace: default}\n"},
	{"projected secret", `
      containers: [{name: c, image: busybox}]
      volumes: [{name: s, projected: {sources: [{configMap: {name: other, optional: true}}, {secret: {name: creds}}]}}]
`, "apiVersion: v1\nkind: Secret\nmetadata: {name: creds, namespace: default}\n"},
	{"env secret", `
      containers:
      - name: c
        image: busybox
        env: [{name: P, valueFrom: {secretKeyRef: {name: creds, key: p}}}]
`, "apiVersion: v1\nkind: Secret\nmetadata: {name: creds, namespace: default}\nstringData: {p: x}\n"},
	{"envFrom config map", `
      initContainers: [{name: i, image: busybox, envFrom: [{configMapRef: {name: conf}}]}]
      containers: [{name: c, image: busybox}]
`, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: conf, namespace: default}\n"},
}

// TestWorkloadWaitsForMissingObject: a workload whose pods need an object
// that does not exist is not ready (kstatus InProgress) until the object
// is created, by anyone, later.
func TestWorkloadWaitsForMissingObject(t *testing.T) {
	for _, k := range workloadKinds {
		for _, r := range references {
			if k.kind == "Pod" && r.name == "service account" {
				continue // refused when created: TestPodWithoutServiceAccountIsRefused
			}
			t.Run(k.kind+"/"+r.name, func(t *testing.T) {
				f := newFixture(t)
				f.create(workload(k.kind, r.spec))
				f.waitsUntil(k.kind, k.apiVersion, r.name, func() { f.create(r.object) })
			})
		}
	}
}

// waitsUntil checks that workload "w" of kind is not ready while what is
// missing, and is ready once provide, a minute later, made it.
func (f *fixture) waitsUntil(kind, apiVersion, what string, provide func()) {
	f.t.Helper()
	if u := f.get(apiVersion, kind, "default", "w"); ready(f.t, u) {
		f.t.Errorf("ready while %s is missing; status: %v", what, u.Object["status"])
	}
	f.clock.Step(time.Minute)
	provide()
	if u := f.get(apiVersion, kind, "default", "w"); !ready(f.t, u) {
		f.t.Errorf("not ready once %s exists; status: %v", what, u.Object["status"])
	}
}

// TestWorkloadReadyWhenNothingIsMissing: optional references, the default
// ServiceAccount, objects that exist and a workload without pods do not
// hold a workload back.
func TestWorkloadReadyWhenNothingIsMissing(t *testing.T) {
	for name, spec := range map[string]string{
		"default service account": "      serviceAccountName: default\n      containers: [{name: c, image: busybox}]\n",
		"optional secret volume":  "      containers: [{name: c, image: busybox}]\n      volumes: [{name: s, secret: {secretName: creds, optional: true}}]\n",
		"optional env":            "      containers: [{name: c, image: busybox, env: [{name: P, valueFrom: {configMapKeyRef: {name: conf, key: p, optional: true}}}], envFrom: [{secretRef: {name: creds, optional: true}}]}]\n",
		"optional projected":      "      containers: [{name: c, image: busybox}]\n      volumes: [{name: s, projected: {sources: [{secret: {name: creds, optional: true}}]}}]\n",
		"existing secret":         "      containers: [{name: c, image: busybox}]\n      volumes: [{name: s, secret: {secretName: present}}]\n",
		"other volume kinds":      "      containers: [{name: c, image: busybox}]\n      volumes: [{name: s, emptyDir: {}}, {name: d, downwardAPI: {items: [{path: \"n\", fieldRef: {fieldPath: metadata.name}}]}}]\n",
		// Every namespace of a real cluster has kube-root-ca.crt with the key
		// ca.crt (kube-controller-manager's root-ca-cert-publisher); charts
		// mount it in projected token volumes.
		"kube-root-ca.crt": "      containers: [{name: c, image: busybox}]\n      volumes: [{name: t, projected: {sources: [{serviceAccountToken: {path: token}}, {configMap: {name: kube-root-ca.crt, items: [{key: ca.crt, path: ca.crt}]}}]}}, {name: c, configMap: {name: kube-root-ca.crt}}]\n",
	} {
		for _, k := range workloadKinds {
			t.Run(name+"/"+k.kind, func(t *testing.T) {
				f := newFixture(t)
				f.create("apiVersion: v1\nkind: Secret\nmetadata: {name: present, namespace: default}\n")
				f.create(workload(k.kind, spec))
				if u := f.get(k.apiVersion, k.kind, "default", "w"); !ready(t, u) {
					t.Errorf("not ready; status: %v", u.Object["status"])
				}
			})
		}
	}
	t.Run("zero replicas", func(t *testing.T) {
		f := newFixture(t)
		f.create(strings.Replace(workload("Deployment", references[2].spec), "replicas: 2", "replicas: 0", 1))
		if s := kstatusOf(t, f.get("apps/v1", "Deployment", "default", "w")); s != status.CurrentStatus {
			t.Errorf("kstatus = %s, want Current", s)
		}
	})
}

// conditions returns "Type=Status/Reason: message" of each condition of u.
func conditions(u *unstructured.Unstructured) []string {
	conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	var out []string
	for _, c := range conds {
		m := c.(map[string]any)
		reason, _ := m["reason"].(string)
		s := m["type"].(string) + "=" + m["status"].(string) + "/" + reason
		if msg, ok := m["message"].(string); ok && msg != "" {
			s += ": " + msg
		}
		out = append(out, s)
	}
	return out
}

func statusInt(u *unstructured.Unstructured, field string) int64 {
	n, _, _ := unstructured.NestedInt64(u.Object, "status", field)
	return n
}

func checkConditions(t *testing.T, when string, u *unstructured.Unstructured, want ...string) {
	t.Helper()
	if got := conditions(u); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s: conditions\n%s\nwant\n%s", when, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestDeploymentWithoutServiceAccount: the ReplicaSet's pods are refused;
// the Deployment shows the ReplicaSet's FailedCreate, and 601 s after the
// rollout started (progressDeadlineSeconds 600, looked at a second later)
// ProgressDeadlineExceeded, as kube-controller-manager writes them.
func TestDeploymentWithoutServiceAccount(t *testing.T) {
	f := newFixture(t)
	f.create(workload("Deployment", references[0].spec))
	d := f.get("apps/v1", "Deployment", "default", "w")
	rs := "w-" + podTemplateHashOf(t, d)
	failure := `ReplicaFailure=True/FailedCreate: pods "` + rs + `-" is forbidden: error looking up service account default/sa: serviceaccount "sa" not found`
	checkConditions(t, "at once", d,
		`Progressing=True/NewReplicaSetCreated: Created new replica set "`+rs+`"`,
		"Available=False/MinimumReplicasUnavailable: Deployment does not have minimum availability.",
		failure)
	if got := [4]int64{statusInt(d, "replicas"), statusInt(d, "updatedReplicas"), statusInt(d, "availableReplicas"), statusInt(d, "unavailableReplicas")}; got != [4]int64{0, 0, 0, 2} {
		t.Errorf("replicas, updated, available, unavailable = %v, want [0 0 0 2]", got)
	}
	if next, ok := f.clusters.NextChange(f.target); !ok || !next.Equal(epoch.Add(601*time.Second)) {
		t.Errorf("NextChange = %v, %v; want %v", next, ok, epoch.Add(601*time.Second))
	}
	f.clock.Step(600 * time.Second)
	checkConditions(t, "at the deadline", f.get("apps/v1", "Deployment", "default", "w"),
		`Progressing=True/NewReplicaSetCreated: Created new replica set "`+rs+`"`,
		"Available=False/MinimumReplicasUnavailable: Deployment does not have minimum availability.",
		failure)
	f.clock.Step(time.Second)
	d = f.get("apps/v1", "Deployment", "default", "w")
	checkConditions(t, "after the deadline", d,
		"Available=False/MinimumReplicasUnavailable: Deployment does not have minimum availability.",
		failure,
		`Progressing=False/ProgressDeadlineExceeded: ReplicaSet "`+rs+`" has timed out progressing.`)
	if s := kstatusOf(t, d); s != status.FailedStatus {
		t.Errorf("kstatus after the deadline = %s, want Failed", s)
	}
	if _, ok := f.clusters.NextChange(f.target); ok {
		t.Error("NextChange reports a change after the deadline")
	}
	f.create(references[0].object)
	d = f.get("apps/v1", "Deployment", "default", "w")
	checkConditions(t, "once the ServiceAccount exists", d,
		"Available=True/MinimumReplicasAvailable: Deployment has minimum availability.",
		`Progressing=True/NewReplicaSetAvailable: ReplicaSet "`+rs+`" has successfully progressed.`)
}

func podTemplateHashOf(t *testing.T, d *unstructured.Unstructured) string {
	t.Helper()
	conds := conditions(d)
	for _, c := range conds {
		if i := strings.Index(c, `"w-`); i >= 0 {
			return strings.TrimSuffix(c[i+len(`"w-`):], `"`)[:strings.Index(c[i+len(`"w-`):], `"`)]
		}
	}
	t.Fatalf("no ReplicaSet named in %v", conds)
	return ""
}

// TestDeploymentWithoutSecret: the pods are created but never ready;
// Progressing is ReplicaSetUpdated until the deadline.
func TestDeploymentWithoutSecret(t *testing.T) {
	f := newFixture(t)
	f.create(strings.Replace(workload("Deployment", references[2].spec), "replicas: 2", "replicas: 2\n  progressDeadlineSeconds: 60", 1))
	d := f.get("apps/v1", "Deployment", "default", "w")
	rs := "w-" + podTemplateHashOf(t, d)
	checkConditions(t, "at once", d,
		"Available=False/MinimumReplicasUnavailable: Deployment does not have minimum availability.",
		`Progressing=True/ReplicaSetUpdated: ReplicaSet "`+rs+`" is progressing.`)
	if got := [4]int64{statusInt(d, "replicas"), statusInt(d, "updatedReplicas"), statusInt(d, "readyReplicas"), statusInt(d, "unavailableReplicas")}; got != [4]int64{2, 2, 0, 2} {
		t.Errorf("replicas, updated, ready, unavailable = %v, want [2 2 0 2]", got)
	}
	f.clock.Step(61 * time.Second)
	checkConditions(t, "after the deadline", f.get("apps/v1", "Deployment", "default", "w"),
		"Available=False/MinimumReplicasUnavailable: Deployment does not have minimum availability.",
		`Progressing=False/ProgressDeadlineExceeded: ReplicaSet "`+rs+`" has timed out progressing.`)
}

// TestDeploymentMaxUnavailableKeepsAvailable: with maxUnavailable covering
// every replica the Deployment is Available though no pod is.
func TestDeploymentMaxUnavailableKeepsAvailable(t *testing.T) {
	f := newFixture(t)
	f.create(strings.Replace(workload("Deployment", references[2].spec), "replicas: 2",
		"replicas: 1\n  strategy: {rollingUpdate: {maxUnavailable: 1}}", 1))
	d := f.get("apps/v1", "Deployment", "default", "w")
	if c := conditions(d)[0]; c != "Available=True/MinimumReplicasAvailable: Deployment has minimum availability." {
		t.Errorf("Available condition = %q", c)
	}
	if s := kstatusOf(t, d); s != status.InProgressStatus {
		t.Errorf("kstatus = %s, want InProgress", s)
	}
}

func TestReplicaSetWithoutServiceAccount(t *testing.T) {
	f := newFixture(t)
	f.create(workload("ReplicaSet", references[0].spec))
	checkConditions(t, "at once", f.get("apps/v1", "ReplicaSet", "default", "w"),
		`ReplicaFailure=True/FailedCreate: pods "w-" is forbidden: error looking up service account default/sa: serviceaccount "sa" not found`)
}

// TestPodWithoutServiceAccountIsRefused: the API server's ServiceAccount
// admission refuses the Pod.
func TestPodWithoutServiceAccountIsRefused(t *testing.T) {
	f := newFixture(t)
	err := f.c.Create(context.Background(), obj(t, workload("Pod", references[0].spec)))
	want := `pods "w" is forbidden: error looking up service account default/sa: serviceaccount "sa" not found`
	if !apierrors.IsForbidden(err) || err.Error() != want {
		t.Fatalf("Create = %v, want Forbidden %q", err, want)
	}
	f.create(references[0].object, workload("Pod", references[0].spec))
}

// TestPodStatusWhileWaiting: what the scheduler and the kubelet write.
func TestPodStatusWhileWaiting(t *testing.T) {
	for _, tc := range []struct {
		ref        int
		containers string // state of each container, init ones first
		conds      []string
	}{
		{1, "", []string{`PodScheduled=False/Unschedulable: 0/1 nodes are available: persistentvolumeclaim "data" not found. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.`}},
		{2, "c:ContainerCreating", []string{"PodScheduled=True/", "Initialized=True/",
			"ContainersReady=False/ContainersNotReady: containers with unready status: [c]", "Ready=False/ContainersNotReady: containers with unready status: [c]"}},
		{5, `c:CreateContainerConfigError:secret "creds" not found`, []string{"PodScheduled=True/", "Initialized=True/",
			"ContainersReady=False/ContainersNotReady: containers with unready status: [c]", "Ready=False/ContainersNotReady: containers with unready status: [c]"}},
		{6, `i:CreateContainerConfigError:configmap "conf" not found c:PodInitializing`, []string{"PodScheduled=True/",
			"Initialized=False/ContainersNotInitialized: containers with incomplete status: [i]",
			"ContainersReady=False/ContainersNotReady: containers with unready status: [c]", "Ready=False/ContainersNotReady: containers with unready status: [c]"}},
	} {
		t.Run(references[tc.ref].name, func(t *testing.T) {
			f := newFixture(t)
			f.create(workload("Pod", references[tc.ref].spec))
			p := f.get("v1", "Pod", "default", "w")
			if phase, _, _ := unstructured.NestedString(p.Object, "status", "phase"); phase != "Pending" {
				t.Errorf("phase = %q, want Pending", phase)
			}
			checkConditions(t, "", p, tc.conds...)
			var states []string
			for _, field := range []string{"initContainerStatuses", "containerStatuses"} {
				css, _, _ := unstructured.NestedSlice(p.Object, "status", field)
				for _, cs := range css {
					m := cs.(map[string]any)
					w, _, _ := unstructured.NestedStringMap(m, "state", "waiting")
					s := m["name"].(string) + ":" + w["reason"]
					if w["message"] != "" {
						s += ":" + w["message"]
					}
					states = append(states, s)
				}
			}
			if got := strings.Join(states, " "); got != tc.containers {
				t.Errorf("containers %q, want %q", got, tc.containers)
			}
		})
	}
}

// TestRulesApplyOnceNothingIsMissing: a rule's duration counts from the
// moment the missing object appears; fail and hang still apply.
func TestRulesApplyOnceNothingIsMissing(t *testing.T) {
	spec := workload("Deployment", references[2].spec)
	secret := references[2].object
	t.Run("duration", func(t *testing.T) {
		f := newFixture(t, RuleConfig{Match: MatchConfig{Kind: "Deployment"}, Duration: "2m"})
		f.create(spec)
		f.clock.Step(5 * time.Minute)
		f.create(secret)
		if s := kstatusOf(t, f.get("apps/v1", "Deployment", "default", "w")); s != status.InProgressStatus {
			t.Errorf("kstatus when the Secret appears = %s, want InProgress", s)
		}
		if next, ok := f.clusters.NextChange(f.target); !ok || !next.Equal(epoch.Add(7*time.Minute)) {
			t.Errorf("NextChange = %v, %v; want %v", next, ok, epoch.Add(7*time.Minute))
		}
		f.clock.Step(2 * time.Minute)
		if s := kstatusOf(t, f.get("apps/v1", "Deployment", "default", "w")); s != status.CurrentStatus {
			t.Errorf("kstatus 2m later = %s, want Current", s)
		}
	})
	t.Run("fail", func(t *testing.T) {
		f := newFixture(t, RuleConfig{Match: MatchConfig{Kind: "Deployment"}, Fail: "boom"})
		f.create(spec)
		if c := conditions(f.get("apps/v1", "Deployment", "default", "w"))[1]; !strings.Contains(c, "ReplicaSetUpdated") {
			t.Errorf("Progressing while the Secret is missing = %q", c)
		}
		f.create(secret)
		if s := kstatusOf(t, f.get("apps/v1", "Deployment", "default", "w")); s != status.FailedStatus {
			t.Errorf("kstatus = %s, want Failed", s)
		}
	})
	t.Run("hang", func(t *testing.T) {
		f := newFixture(t, RuleConfig{Match: MatchConfig{Kind: "Deployment"}, Hang: true})
		f.create(spec)
		f.create(secret)
		if st, _, _ := unstructured.NestedMap(f.get("apps/v1", "Deployment", "default", "w").Object, "status"); len(st) > 0 {
			t.Errorf("status of a hanging controller's Deployment = %v, want none", st)
		}
	})
}

// TestWaitingSurvivesSaveRestore: a restored waiting Deployment keeps its
// deadline and becomes ready when the Secret is created in a later run.
func TestWaitingSurvivesSaveRestore(t *testing.T) {
	f := newFixture(t)
	f.create(workload("Deployment", references[2].spec))
	g := f.restored()
	if next, ok := g.clusters.NextChange(g.target); !ok || !next.Equal(epoch.Add(601*time.Second)) {
		t.Errorf("NextChange of the restored cluster = %v, %v; want %v", next, ok, epoch.Add(601*time.Second))
	}
	g.c = g.client()
	g.create(references[2].object)
	if s := kstatusOf(t, g.get("apps/v1", "Deployment", "default", "w")); s != status.CurrentStatus {
		t.Errorf("kstatus = %s, want Current", s)
	}
	if _, ok := g.clusters.NextChange(g.target); ok {
		t.Error("NextChange reports the deadline of a ready Deployment")
	}
}

// TestWaitingInOtherNamespace: an object of the same name in another
// namespace does not help.
func TestWaitingInOtherNamespace(t *testing.T) {
	f := newFixture(t)
	f.create(workload("Deployment", references[2].spec), "apiVersion: v1\nkind: Namespace\nmetadata: {name: other}\n",
		strings.Replace(references[2].object, "namespace: default", "namespace: other", 1))
	if s := kstatusOf(t, f.get("apps/v1", "Deployment", "default", "w")); s != status.InProgressStatus {
		t.Errorf("kstatus = %s, want InProgress", s)
	}
}

// update replaces the object of manifest with it, as a client's update
// does, and fails the test on error.
func (f *fixture) update(manifest string) {
	f.t.Helper()
	u := obj(f.t, manifest)
	old := f.get(u.GetAPIVersion(), u.GetKind(), u.GetNamespace(), u.GetName())
	u.SetResourceVersion(old.GetResourceVersion())
	if err := f.c.Update(context.Background(), u); err != nil {
		f.t.Fatalf("update: %v", err)
	}
}

// keyRefs are pod specs that need a key of a Secret or ConfigMap, the
// object without the key, and with it.
var keyRefs = []struct {
	name, spec, without, with string
}{
	{"env secret key", `
      containers:
      - name: c
        image: busybox
        env: [{name: P, valueFrom: {secretKeyRef: {name: creds, key: p}}}]
`, "apiVersion: v1\nkind: Secret\nmetadata: {name: creds, namespace: default}\nstringData: {q: x}\n",
		"apiVersion: v1\nkind: Secret\nmetadata: {name: creds, namespace: default}\nstringData: {p: x, q: x}\n"},
	{"env config map key", `
      initContainers: [{name: i, image: busybox, env: [{name: P, valueFrom: {configMapKeyRef: {name: conf, key: p}}}]}]
      containers: [{name: c, image: busybox}]
`, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: conf, namespace: default}\nbinaryData: {p: eA==}\n",
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: conf, namespace: default}\ndata: {p: x}\n"},
	{"secret volume item", `
      containers: [{name: c, image: busybox}]
      volumes: [{name: s, secret: {secretName: creds, items: [{key: tls.crt, path: crt}]}}]
`, "apiVersion: v1\nkind: Secret\nmetadata: {name: creds, namespace: default}\ndata: {tls.key: eA==}\n",
		"apiVersion: v1\nkind: Secret\nmetadata: {name: creds, namespace: default}\ndata: {tls.key: eA==, tls.crt: eA==}\n"},
	{"config map volume item", `
      containers: [{name: c, image: busybox}]
      volumes: [{name: s, configMap: {name: conf, items: [{key: a, path: a}, {key: b, path: b}]}}]
`, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: conf, namespace: default}\ndata: {a: x}\n",
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: conf, namespace: default}\ndata: {a: x}\nbinaryData: {b: eA==}\n"},
	{"projected item", `
      containers: [{name: c, image: busybox}]
      volumes: [{name: s, projected: {sources: [{secret: {name: creds, items: [{key: token, path: t}]}}]}}]
`, "apiVersion: v1\nkind: Secret\nmetadata: {name: creds, namespace: default}\n",
		"apiVersion: v1\nkind: Secret\nmetadata: {name: creds, namespace: default}\nstringData: {token: x}\n"},
}

// TestWorkloadWaitsForMissingKey: a workload whose pods need a key that
// the Secret or ConfigMap lacks is not ready until a write of the object
// adds the key. A ConfigMap's binaryData counts for volumes, not for env,
// as in the kubelet.
func TestWorkloadWaitsForMissingKey(t *testing.T) {
	for _, k := range workloadKinds {
		for _, r := range keyRefs {
			t.Run(k.kind+"/"+r.name, func(t *testing.T) {
				f := newFixture(t)
				f.create(r.without, workload(k.kind, r.spec))
				f.waitsUntil(k.kind, k.apiVersion, "the key of "+r.name, func() { f.update(r.with) })
			})
		}
	}
}

// TestOptionalKeys: a missing key of an optional reference does not hold
// a workload back.
func TestOptionalKeys(t *testing.T) {
	for name, spec := range map[string]string{
		"env":         "      containers: [{name: c, image: busybox, env: [{name: P, valueFrom: {secretKeyRef: {name: creds, key: p, optional: true}}}]}]\n",
		"volume item": "      containers: [{name: c, image: busybox}]\n      volumes: [{name: s, secret: {secretName: creds, optional: true, items: [{key: p, path: p}]}}]\n",
		"projected":   "      containers: [{name: c, image: busybox}]\n      volumes: [{name: s, projected: {sources: [{secret: {name: creds, optional: true, items: [{key: p, path: p}]}}]}}]\n",
		"no items":    "      containers: [{name: c, image: busybox}]\n      volumes: [{name: s, secret: {secretName: creds}}]\n",
	} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			f.create("apiVersion: v1\nkind: Secret\nmetadata: {name: creds, namespace: default}\nstringData: {q: x}\n", workload("Deployment", spec))
			if u := f.get("apps/v1", "Deployment", "default", "w"); !ready(t, u) {
				t.Errorf("not ready; status: %v", u.Object["status"])
			}
		})
	}
}

// pvcManifest is a claim with the given extra spec fields.
func pvcManifest(extra string) string {
	return "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data, namespace: default}\n" +
		"spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}" + extra + "}\n"
}

// TestWorkloadWaitsForUnboundClaim: a claim that a rule keeps Pending
// holds the pods back until it is Bound, also when the binding is due
// later (duration) and nothing else is written.
func TestWorkloadWaitsForUnboundClaim(t *testing.T) {
	for _, k := range workloadKinds {
		t.Run(k.kind, func(t *testing.T) {
			f := newFixture(t, RuleConfig{Match: MatchConfig{Kind: "PersistentVolumeClaim"}, Duration: "2m"})
			f.create(pvcManifest(""), workload(k.kind, references[1].spec))
			f.clock.Step(time.Minute)
			if u := f.get(k.apiVersion, k.kind, "default", "w"); ready(t, u) {
				t.Errorf("ready while the claim is Pending; status: %v", u.Object["status"])
			}
			f.clock.Step(time.Minute)
			if phase, _, _ := unstructured.NestedString(f.get("v1", "PersistentVolumeClaim", "default", "data").Object, "status", "phase"); phase != "Bound" {
				t.Fatalf("claim phase = %q, want Bound", phase)
			}
			if u := f.get(k.apiVersion, k.kind, "default", "w"); !ready(t, u) {
				t.Errorf("not ready once the claim is Bound; status: %v", u.Object["status"])
			}
		})
	}
	t.Run("hang", func(t *testing.T) {
		f := newFixture(t, RuleConfig{Match: MatchConfig{Kind: "PersistentVolumeClaim"}, Hang: true})
		f.create(pvcManifest(""), workload("Deployment", references[1].spec))
		f.clock.Step(time.Hour)
		if u := f.get("apps/v1", "Deployment", "default", "w"); ready(t, u) {
			t.Errorf("ready while the claim is never bound; status: %v", u.Object["status"])
		}
	})
}

// podStates returns "name:reason[:message]" of each container's waiting
// state, init containers first.
func podStates(p *unstructured.Unstructured) string {
	var states []string
	for _, field := range []string{"initContainerStatuses", "containerStatuses"} {
		css, _, _ := unstructured.NestedSlice(p.Object, "status", field)
		for _, cs := range css {
			m := cs.(map[string]any)
			w, _, _ := unstructured.NestedStringMap(m, "state", "waiting")
			s := m["name"].(string) + ":" + w["reason"]
			if w["message"] != "" {
				s += ":" + w["message"]
			}
			states = append(states, s)
		}
	}
	return strings.Join(states, " ")
}

// TestPodStatusWhileKeyOrBindingMissing: what the kubelet writes for a
// missing key (kubelet_pods.go makeEnvironmentVariables; a volume's
// MakePayload fails the mount), and the scheduler for a claim not yet
// bound: immediate binding fails its PreFilter (volume_binding.go), a
// WaitForFirstConsumer class leaves the pod assumed, waiting in PreBind for
// the claim, without a condition.
func TestPodStatusWhileKeyOrBindingMissing(t *testing.T) {
	running := []string{"PodScheduled=True/", "Initialized=True/",
		"ContainersReady=False/ContainersNotReady: containers with unready status: [c]", "Ready=False/ContainersNotReady: containers with unready status: [c]"}
	wffc := "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: local}\nprovisioner: example.com/local\nvolumeBindingMode: WaitForFirstConsumer\n"
	for _, tc := range []struct {
		name       string
		objects    []string
		spec       string
		containers string
		conds      []string
	}{
		{"env secret key", []string{keyRefs[0].without}, keyRefs[0].spec,
			"c:CreateContainerConfigError:couldn't find key p in Secret default/creds", running},
		{"env config map key", []string{keyRefs[1].without}, keyRefs[1].spec,
			"i:CreateContainerConfigError:couldn't find key p in ConfigMap default/conf c:PodInitializing", []string{"PodScheduled=True/",
				"Initialized=False/ContainersNotInitialized: containers with incomplete status: [i]",
				"ContainersReady=False/ContainersNotReady: containers with unready status: [c]", "Ready=False/ContainersNotReady: containers with unready status: [c]"}},
		{"env missing object before key", []string{keyRefs[0].without}, `
      containers:
      - name: c
        image: busybox
        env: [{name: A, valueFrom: {configMapKeyRef: {name: conf, key: a}}}, {name: P, valueFrom: {secretKeyRef: {name: creds, key: p}}}]
`, `c:CreateContainerConfigError:configmap "conf" not found`, running},
		{"envFrom before env key", []string{keyRefs[0].without}, `
      containers:
      - name: c
        image: busybox
        env: [{name: P, valueFrom: {secretKeyRef: {name: creds, key: p}}}]
        envFrom: [{configMapRef: {name: conf}}]
`, `c:CreateContainerConfigError:configmap "conf" not found`, running},
		{"volume item", []string{keyRefs[2].without}, keyRefs[2].spec, "c:ContainerCreating", running},
		{"key kube-root-ca.crt does not have", nil, `
      containers:
      - name: c
        image: busybox
        env: [{name: CA, valueFrom: {configMapKeyRef: {name: kube-root-ca.crt, key: ca.crt}}}, {name: P, valueFrom: {configMapKeyRef: {name: kube-root-ca.crt, key: token}}}]
`, "c:CreateContainerConfigError:couldn't find key token in ConfigMap default/kube-root-ca.crt", running},
		{"unbound claim", []string{pvcManifest("")}, references[1].spec, "",
			[]string{"PodScheduled=False/Unschedulable: 0/1 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."}},
		{"missing before unbound claim", []string{pvcManifest("")}, `
      containers: [{name: c, image: busybox}]
      volumes: [{name: data, persistentVolumeClaim: {claimName: data}}, {name: more, persistentVolumeClaim: {claimName: more}}]
`, "", []string{`PodScheduled=False/Unschedulable: 0/1 nodes are available: persistentvolumeclaim "more" not found. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.`}},
		{"wait for first consumer", []string{wffc, pvcManifest(", storageClassName: local")}, references[1].spec, "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, RuleConfig{Match: MatchConfig{Kind: "PersistentVolumeClaim"}, Hang: true})
			f.create(tc.objects...)
			f.create(workload("Pod", tc.spec))
			p := f.get("v1", "Pod", "default", "w")
			if phase, _, _ := unstructured.NestedString(p.Object, "status", "phase"); phase != "Pending" {
				t.Errorf("phase = %q, want Pending", phase)
			}
			checkConditions(t, "", p, tc.conds...)
			if got := podStates(p); got != tc.containers {
				t.Errorf("containers %q, want %q", got, tc.containers)
			}
		})
	}
}

// TestWaitingStatusFollowsWhatIsMissing: when what a waiting workload
// misses changes, its status does too: once the ServiceAccount exists the
// Deployment's pods are created (its ReplicaSet's failure goes, Progressing
// is ReplicaSetUpdated) though the Secret is still missing; once the Secret
// exists without the key, the container's message names the key.
func TestWaitingStatusFollowsWhatIsMissing(t *testing.T) {
	t.Run("Deployment", func(t *testing.T) {
		f := newFixture(t)
		f.create(workload("Deployment", `
      serviceAccountName: sa
      containers: [{name: c, image: busybox}]
      volumes: [{name: s, secret: {secretName: creds}}]
`))
		rs := "w-" + podTemplateHashOf(t, f.get("apps/v1", "Deployment", "default", "w"))
		f.clock.Step(time.Minute)
		f.create(references[0].object)
		d := f.get("apps/v1", "Deployment", "default", "w")
		checkConditions(t, "once the ServiceAccount exists", d,
			"Available=False/MinimumReplicasUnavailable: Deployment does not have minimum availability.",
			`Progressing=True/ReplicaSetUpdated: ReplicaSet "`+rs+`" is progressing.`)
		if got := statusInt(d, "updatedReplicas"); got != 2 {
			t.Errorf("updatedReplicas = %d, want 2", got)
		}
		if ready(t, d) {
			t.Error("ready while the Secret is missing")
		}
	})
	t.Run("Pod", func(t *testing.T) {
		f := newFixture(t)
		f.create(workload("Pod", keyRefs[0].spec))
		if got := podStates(f.get("v1", "Pod", "default", "w")); got != `c:CreateContainerConfigError:secret "creds" not found` {
			t.Errorf("containers %q", got)
		}
		f.create(keyRefs[0].without)
		if got := podStates(f.get("v1", "Pod", "default", "w")); got != "c:CreateContainerConfigError:couldn't find key p in Secret default/creds" {
			t.Errorf("containers once the Secret exists %q", got)
		}
		f.update(keyRefs[0].with)
		if u := f.get("v1", "Pod", "default", "w"); !ready(t, u) {
			t.Errorf("not ready once the key exists; status: %v", u.Object["status"])
		}
	})
}
