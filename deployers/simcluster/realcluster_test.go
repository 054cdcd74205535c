package simcluster

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/internal/testcluster"
)

func TestMain(m *testing.M) { os.Exit(testcluster.Run(m)) }

// podSpecWithEverything is a pod spec (indented for a template) with a
// field for every default the API server sets on a pod template.
const podSpecWithEverything = `
      serviceAccount: legacy
      initContainers:
      - name: init
        image: busybox
        ports: [{containerPort: 53, protocol: UDP}, {containerPort: 54}]
      containers:
      - name: app
        image: registry.example/app:1.0
        ports: [{containerPort: 8080, name: http}]
        env:
        - name: POD
          valueFrom: {fieldRef: {fieldPath: metadata.name}}
        - name: SECRET
          valueFrom: {secretKeyRef: {name: s, key: k}}
        resources:
          limits: {cpu: "0.0001", memory: 100Mi}
        livenessProbe: {httpGet: {port: 8080}}
        readinessProbe: {grpc: {port: 9090}, periodSeconds: 5}
        startupProbe: {tcpSocket: {port: 8080}}
        lifecycle:
          preStop: {httpGet: {port: 8080, path: /stop}}
          postStart: {exec: {command: ["true"]}}
      - name: latest
        image: registry.example/app:latest
      - name: untagged
        image: registry.example/app
      - name: digest
        image: registry.example/app@sha256:0000000000000000000000000000000000000000000000000000000000000000
      volumes:
      - name: empty
      - name: cm
        configMap: {name: c}
      - name: secret
        secret: {secretName: s}
      - name: host
        hostPath: {path: /var/log}
      - name: downward
        downwardAPI: {items: [{path: name, fieldRef: {fieldPath: metadata.name}}]}
      - name: projected
        projected:
          sources:
          - serviceAccountToken: {path: token}
          - downwardAPI: {items: [{path: labels, fieldRef: {fieldPath: metadata.labels}}]}
      - name: scratch
        ephemeral:
          volumeClaimTemplate:
            spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`

// defaultsManifests are the workload kinds whose stored form the simulated
// cluster defaults, each with podSpecWithEverything (NS is the namespace).
var defaultsManifests = map[string]string{
	"Deployment": `apiVersion: apps/v1
kind: Deployment
metadata: {name: d, namespace: NS}
spec:
  selector: {matchLabels: {app: d}}
  template:
    metadata: {labels: {app: d}}
    spec:` + podSpecWithEverything,
	"StatefulSet": `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: s, namespace: NS}
spec:
  serviceName: s
  selector: {matchLabels: {app: s}}
  volumeClaimTemplates:
  - metadata: {name: data}
    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
  template:
    metadata: {labels: {app: s}}
    spec:` + podSpecWithEverything,
	"DaemonSet": `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: ds, namespace: NS}
spec:
  selector: {matchLabels: {app: ds}}
  template:
    metadata: {labels: {app: ds}}
    spec:` + podSpecWithEverything,
	"ReplicaSet": `apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: rs, namespace: NS}
spec:
  selector: {matchLabels: {app: rs}}
  template:
    metadata: {labels: {app: rs}}
    spec:` + podSpecWithEverything,
	"ReplicationController": `apiVersion: v1
kind: ReplicationController
metadata: {name: rc, namespace: NS}
spec:
  template:
    metadata: {labels: {app: rc}}
    spec:` + podSpecWithEverything,
	"Job": `apiVersion: batch/v1
kind: Job
metadata: {name: j, namespace: NS}
spec:
  podFailurePolicy:
    rules: [{action: Ignore, onPodConditions: [{type: DisruptionTarget}]}]
  template:
    spec:` + strings.Replace(podSpecWithEverything, "\n", "\n      restartPolicy: Never\n", 1),
	"CronJob": `apiVersion: batch/v1
kind: CronJob
metadata: {name: cj, namespace: NS}
spec:
  schedule: "0 * * * *"
  jobTemplate:
    spec:
      template:
        spec:` + strings.ReplaceAll(strings.Replace(podSpecWithEverything, "\n", "\n      restartPolicy: OnFailure\n", 1), "\n      ", "\n          "),
	"Pod": `apiVersion: v1
kind: Pod
metadata: {name: p, namespace: NS}
spec:` + strings.ReplaceAll(podSpecWithEverything, "\n      ", "\n  "),
}

// TestRealClusterDefaults creates each of defaultsManifests on a real
// kube-apiserver and on a simulated cluster and compares the specs stored:
// the simulated cluster defaults as kube-apiserver does. The pod-template
// hash of the Deployment's stored template, which names its ReplicaSet, is
// then the one kube-controller-manager computes (the test cluster runs no
// controller-manager; ComputeHash hashes the template as stored).
func TestRealClusterDefaults(t *testing.T) {
	tc := testcluster.Get(t)
	ctx := context.Background()
	ns := tc.Namespace(t)
	f := newFixture(t)
	for kind, manifest := range defaultsManifests {
		t.Run(kind, func(t *testing.T) {
			sim, real := obj(t, strings.ReplaceAll(manifest, "NS", "default")), obj(t, strings.ReplaceAll(manifest, "NS", ns))
			if err := f.c.Create(ctx, sim); err != nil {
				t.Fatalf("simulated cluster: %v", err)
			}
			if err := tc.Client.Create(ctx, real); err != nil {
				t.Fatalf("real cluster: %v", err)
			}
			gotSim, gotReal := typedOf(t, kind), typedOf(t, kind)
			if err := f.c.Get(ctx, client.ObjectKeyFromObject(sim), gotSim); err != nil {
				t.Fatal(err)
			}
			if err := tc.Client.Get(ctx, client.ObjectKeyFromObject(real), gotReal); err != nil {
				t.Fatal(err)
			}
			if s, r := storedSpec(t, gotSim), storedSpec(t, gotReal); s != r {
				t.Errorf("stored spec\nsimulated: %s\nreal:      %s", s, r)
			}
			if s, r := gotSim.GetLabels(), gotReal.GetLabels(); !equalLabels(s, r) {
				t.Errorf("stored labels: simulated %v, real %v", s, r)
			}
			if d, ok := gotReal.(*appsv1.Deployment); ok {
				if s, r := podTemplateHash(&gotSim.(*appsv1.Deployment).Spec.Template, nil), podTemplateHash(&d.Spec.Template, nil); s != r {
					t.Errorf("pod-template-hash of the stored template: simulated %s, real %s", s, r)
				}
			}
		})
	}
}

// typedOf returns a new object of the built-in kind.
func typedOf(t *testing.T, kind string) client.Object {
	switch kind {
	case "Deployment":
		return &appsv1.Deployment{}
	case "StatefulSet":
		return &appsv1.StatefulSet{}
	case "DaemonSet":
		return &appsv1.DaemonSet{}
	case "ReplicaSet":
		return &appsv1.ReplicaSet{}
	case "ReplicationController":
		return &corev1.ReplicationController{}
	case "Job":
		return &batchv1.Job{}
	case "CronJob":
		return &batchv1.CronJob{}
	case "Pod":
		return &corev1.Pod{}
	}
	t.Fatalf("no type for kind %s", kind)
	return nil
}

// storedSpec is the JSON of o's spec, less what the Job registry adds on
// create (selector, the template's controller-uid labels), which the
// simulated cluster does not.
func storedSpec(t *testing.T, o client.Object) string {
	t.Helper()
	if j, ok := o.(*batchv1.Job); ok {
		j = j.DeepCopy()
		j.Spec.Selector, j.Spec.Template.Labels = nil, nil
		o = j
	}
	raw, err := json.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return string(m["spec"])
}

// equalLabels compares labels, less the Job registry's.
func equalLabels(a, b map[string]string) bool {
	drop := func(m map[string]string) map[string]string {
		out := map[string]string{}
		for k, v := range m {
			if !strings.Contains(k, "controller-uid") && !strings.HasSuffix(k, "job-name") {
				out[k] = v
			}
		}
		return out
	}
	x, y := drop(a), drop(b)
	if len(x) != len(y) {
		return false
	}
	for k, v := range x {
		if y[k] != v {
			return false
		}
	}
	return true
}

// TestRealClusterReplicaSetName ties the ReplicaSet name in
// testdata/script/simcluster_deployment_timed_out.txtar to a real
// kube-apiserver: the hash of the Deployment's template as it stores it.
func TestRealClusterReplicaSetName(t *testing.T) {
	tc := testcluster.Get(t)
	ctx := context.Background()
	ns := tc.Namespace(t)
	u := obj(t, `apiVersion: apps/v1
kind: Deployment
metadata: {name: broken, namespace: `+ns+`}
spec:
  replicas: 2
  selector: {matchLabels: {app: broken}}
  template:
    metadata: {labels: {app: broken}}
    spec: {containers: [{name: app, image: "registry.example/broken:1.0"}]}
`)
	if err := tc.Client.Create(ctx, u); err != nil {
		t.Fatal(err)
	}
	d := &appsv1.Deployment{}
	if err := tc.Client.Get(ctx, client.ObjectKeyFromObject(u), d); err != nil {
		t.Fatal(err)
	}
	if got := d.Name + "-" + podTemplateHash(&d.Spec.Template, d.Status.CollisionCount); got != "broken-6479d59bb" {
		t.Errorf("ReplicaSet name from the real cluster's stored template = %s, want broken-6479d59bb", got)
	}
}

// TestRealClusterManagedFieldsOfDefaults: the writer of a create owns the
// fields the API server defaulted (defaulting comes before the field
// manager), as on a real kube-apiserver.
func TestRealClusterManagedFieldsOfDefaults(t *testing.T) {
	tc := testcluster.Get(t)
	ctx := context.Background()
	ns := tc.Namespace(t)
	f := newFixture(t)
	fields := func(c client.Client, ns string) string {
		t.Helper()
		u := obj(t, strings.ReplaceAll(deploymentManifest, "namespace: default", "namespace: "+ns))
		if err := c.Create(ctx, u, client.FieldOwner("test")); err != nil {
			t.Fatal(err)
		}
		d := &appsv1.Deployment{}
		if err := c.Get(ctx, client.ObjectKeyFromObject(u), d); err != nil {
			t.Fatal(err)
		}
		for _, e := range d.ManagedFields {
			if e.Manager == "test" {
				return string(e.FieldsV1.Raw)
			}
		}
		return "none"
	}
	if s, r := fields(f.c, "default"), fields(tc.Client, ns); s != r {
		t.Errorf("managed fields of the creator\nsimulated: %s\nreal:      %s", s, r)
	}
}
