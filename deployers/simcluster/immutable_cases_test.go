package simcluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// immutableCase creates an object and writes it again with method: the
// simulated cluster must answer the second write as kube-apiserver does.
type immutableCase struct {
	name string
	// create and update are manifests without metadata.namespace.
	create, update string
	// method is how the update is written: "update" (a whole object with
	// the stored resourceVersion), "merge" (a JSON merge patch of the whole
	// manifest), or "apply" (server-side apply, forced).
	method string
	// bind marks the created claim Bound with its request as capacity, as
	// a volume binder does.
	bind bool
	// want is the error text, empty when the write passes.
	want string
}

// immutableFixture is a simulated cluster with namespace "imm" whose
// claims named "claim" stay unbound (Pending), as on a cluster without a
// volume binder; others are bound by the fake controller.
func immutableFixture(t *testing.T) *fixture {
	f := newFixture(t, RuleConfig{Match: MatchConfig{Kind: "PersistentVolumeClaim", Name: "claim"}, Hang: true})
	f.create("apiVersion: v1\nkind: Namespace\nmetadata: {name: imm}\n")
	return f
}

// writeCase creates c.create in ns and writes c.update with c.method.
func writeCase(t *testing.T, cl client.Client, ns string, c immutableCase) error {
	t.Helper()
	ctx := context.Background()
	first := obj(t, c.create)
	first.SetNamespace(ns)
	if err := cl.Create(ctx, first); err != nil {
		t.Fatalf("%s: create: %v", c.name, err)
	}
	t.Cleanup(func() { _ = cl.Delete(ctx, first) })
	if c.bind {
		status := []byte(`{"status":{"phase":"Bound","accessModes":["ReadWriteOnce"],"capacity":{"storage":"1Gi"}}}`)
		if err := cl.Status().Patch(ctx, first, client.RawPatch(types.MergePatchType, status)); err != nil {
			t.Fatalf("%s: bind: %v", c.name, err)
		}
	}
	next := obj(t, c.update)
	next.SetNamespace(first.GetNamespace())
	switch c.method {
	case "update":
		return updateWhole(t, cl, c.name, next)
	case "merge":
		raw, err := json.Marshal(next.Object)
		if err != nil {
			t.Fatal(err)
		}
		return cl.Patch(ctx, next, client.RawPatch(types.MergePatchType, raw))
	case "apply":
		return cl.Patch(ctx, next, client.Apply, client.FieldOwner("test"), client.ForceOwnership)
	}
	t.Fatalf("%s: unknown method %q", c.name, c.method)
	return nil
}

// updateWhole writes next, a whole object, over the stored one, with its
// resourceVersion; a failing read fails case name.
func updateWhole(t *testing.T, cl client.Client, name string, next *unstructured.Unstructured) error {
	t.Helper()
	ctx := context.Background()
	cur := &unstructured.Unstructured{}
	cur.SetGroupVersionKind(next.GroupVersionKind())
	if err := cl.Get(ctx, client.ObjectKeyFromObject(next), cur); err != nil {
		t.Fatalf("%s: get: %v", name, err)
	}
	next.SetResourceVersion(cur.GetResourceVersion())
	return cl.Update(ctx, next)
}

// outcome renders err as its status code, message and causes.
func outcome(err error) string {
	if err == nil {
		return ""
	}
	var status apierrors.APIStatus
	if !errors.As(err, &status) {
		return "not a status: " + err.Error()
	}
	s := status.Status()
	out := fmt.Sprintf("%d %s %s", s.Code, s.Reason, s.Message)
	if s.Details != nil {
		for _, c := range s.Details.Causes {
			out += fmt.Sprintf("\ncause %s %s: %s", c.Type, c.Field, c.Message)
		}
	}
	return out
}

const (
	deployA = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: a}}
  template:
    metadata: {labels: {app: a}}
    spec: {containers: [{name: c, image: nginx:1}]}
`
	deployB = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: b}}
  template:
    metadata: {labels: {app: b}}
    spec: {containers: [{name: c, image: nginx:1}]}
`
	deployA2 = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 3
  selector: {matchLabels: {app: a}}
  template:
    metadata: {labels: {app: a, tier: x}}
    spec: {containers: [{name: c, image: nginx:2}]}
`
	stsA = `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: c, image: postgres:1, volumeMounts: [{name: data, mountPath: /data}]}]}
  volumeClaimTemplates:
  - metadata: {name: data}
    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`
	configMapImmutable = `apiVersion: v1
kind: ConfigMap
metadata: {name: cfg}
immutable: true
data: {a: "1"}
`
	secretImmutable = `apiVersion: v1
kind: Secret
metadata: {name: sec}
immutable: true
stringData: {a: "1"}
`
	pvcA = `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: claim}
spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`
	pvcBound = `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: bound}
spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`
	roleBindingA = `apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: rb}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: a}
subjects: [{kind: ServiceAccount, name: default}]
`
	clusterRoleBindingA = `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: RBNAME}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: a}
subjects: [{kind: ServiceAccount, name: default, namespace: default}]
`
	jobA = `apiVersion: batch/v1
kind: Job
metadata: {name: job}
spec:
  template:
    spec: {restartPolicy: Never, containers: [{name: c, image: busybox:1}]}
`
	serviceA = `apiVersion: v1
kind: Service
metadata: {name: svc}
spec: {selector: {app: a}, ports: [{port: 80}]}
`
	podA = `apiVersion: v1
kind: Pod
metadata: {name: pod}
spec:
  containers: [{name: c, image: nginx:1, env: [{name: A, value: "1"}]}]
`
	storageClassA = `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: SCNAME}
provisioner: example.com/a
parameters: {type: a}
`
)

// immutableCases are the writes the real-cluster test replays against
// kube-apiserver.
var immutableCases = []immutableCase{
	{name: "deployment selector by update", create: deployA, update: deployB, method: "update"},
	{name: "deployment selector by merge patch", create: deployA, update: deployB, method: "merge"},
	{name: "deployment selector by apply", create: deployA, update: deployB, method: "apply"},
	{name: "deployment same manifest by update", create: deployA, update: deployA, method: "update"},
	{name: "deployment same manifest by apply", create: deployA, update: deployA, method: "apply"},
	{name: "deployment other fields by update", create: deployA, update: deployA2, method: "update"},
	{name: "deployment other fields by apply", create: deployA, update: deployA2, method: "apply"},
	{name: "replicaset selector", create: strings.ReplaceAll(deployA, "Deployment", "ReplicaSet"), update: strings.ReplaceAll(deployB, "Deployment", "ReplicaSet"), method: "update"},
	{name: "daemonset selector", create: strings.ReplaceAll(deployA, "Deployment", "DaemonSet"), update: strings.ReplaceAll(deployB, "Deployment", "DaemonSet"), method: "apply"},
	{name: "statefulset volumeClaimTemplates by apply", create: stsA, update: strings.Replace(stsA, "1Gi", "2Gi", 1), method: "apply"},
	{name: "statefulset volumeClaimTemplates by update", create: stsA, update: strings.Replace(stsA, "1Gi", "2Gi", 1), method: "update"},
	{name: "statefulset serviceName", create: stsA, update: strings.Replace(stsA, "serviceName: db", "serviceName: db2", 1), method: "apply"},
	{name: "statefulset podManagementPolicy", create: stsA, update: strings.Replace(stsA, "serviceName: db", "serviceName: db\n  podManagementPolicy: Parallel", 1), method: "apply"},
	{name: "statefulset selector", create: stsA, update: strings.ReplaceAll(stsA, "app: db", "app: db2"), method: "apply"},
	{name: "statefulset selector and serviceName", create: stsA, update: strings.Replace(strings.ReplaceAll(stsA, "app: db", "app: db2"), "serviceName: db", "serviceName: db2", 1), method: "apply"},
	{name: "statefulset replicas and template", create: stsA, update: strings.Replace(strings.Replace(stsA, "postgres:1", "postgres:2", 1), "serviceName: db", "serviceName: db\n  replicas: 2\n  minReadySeconds: 5", 1), method: "update"},
	{name: "statefulset same manifest by update", create: stsA, update: stsA, method: "update"},
	{name: "statefulset volumeClaimTemplates with defaults spelt out", create: stsA, update: strings.Replace(stsA, "resources: {requests: {storage: 1Gi}}}", "resources: {requests: {storage: 1Gi}}, volumeMode: Filesystem}", 1), method: "update"},
	{name: "configmap immutable data", create: configMapImmutable, update: strings.Replace(configMapImmutable, `a: "1"`, `a: "2"`, 1), method: "apply"},
	{name: "configmap immutable to false", create: configMapImmutable, update: strings.Replace(configMapImmutable, "immutable: true", "immutable: false", 1), method: "merge"},
	{name: "configmap immutable dropped by update", create: configMapImmutable, update: strings.Replace(configMapImmutable, "immutable: true\n", "", 1), method: "update"},
	{name: "configmap immutable binaryData", create: configMapImmutable, update: configMapImmutable + "binaryData: {b: AAE=}\n", method: "apply"},
	{name: "configmap immutable labels", create: configMapImmutable, update: strings.Replace(configMapImmutable, "{name: cfg}", "{name: cfg, labels: {x: z}}", 1), method: "apply"},
	{name: "configmap immutable data and flag", create: configMapImmutable, update: strings.Replace(strings.Replace(configMapImmutable, `a: "1"`, `a: "2"`, 1), "immutable: true", "immutable: false", 1), method: "update"},
	{name: "configmap mutable data", create: strings.Replace(configMapImmutable, "immutable: true\n", "", 1), update: strings.Replace(configMapImmutable, `a: "1"`, `a: "2"`, 1), method: "update"},
	{name: "secret immutable data", create: secretImmutable, update: strings.Replace(secretImmutable, `a: "1"`, `a: "2"`, 1), method: "apply"},
	{name: "secret immutable same stringData", create: secretImmutable, update: secretImmutable, method: "update"},
	{name: "secret type", create: secretImmutable, update: strings.Replace(secretImmutable, "immutable: true", "immutable: true\ntype: example.com/x", 1), method: "merge"},
	{name: "secret type of mutable secret", create: strings.Replace(secretImmutable, "immutable: true\n", "", 1), update: strings.Replace(secretImmutable, "immutable: true\n", "type: example.com/x\n", 1), method: "update"},
	{name: "rolebinding roleRef", create: roleBindingA, update: strings.Replace(roleBindingA, "name: a}", "name: b}", 1), method: "apply"},
	{name: "rolebinding subjects", create: roleBindingA, update: strings.Replace(roleBindingA, "name: default}", "name: other}", 1), method: "apply"},
	{name: "clusterrolebinding roleRef", create: clusterRoleBindingA, update: strings.Replace(clusterRoleBindingA, "name: a}", "name: b}", 1), method: "update"},
	{name: "pvc storage request of unbound claim", create: pvcA, update: strings.Replace(pvcA, "1Gi", "2Gi", 1), method: "apply"},
	{name: "pvc storageClassName", create: pvcA, update: strings.Replace(pvcA, "spec: {", "spec: {storageClassName: fast, ", 1), method: "apply"},
	{name: "pvc accessModes", create: pvcA, update: strings.Replace(pvcA, "ReadWriteOnce", "ReadWriteMany", 1), method: "update"},
	{name: "pvc same manifest", create: pvcA, update: pvcA, method: "update"},
	{name: "pvc volumeMode", create: pvcA, update: strings.Replace(pvcA, "spec: {", "spec: {volumeMode: Block, ", 1), method: "apply"},
	{name: "bound pvc storage request", create: pvcBound, update: strings.Replace(pvcBound, "1Gi", "2Gi", 1), method: "apply", bind: true},
	{name: "bound pvc storage request shrinks", create: pvcBound, update: strings.Replace(pvcBound, "1Gi", "512Mi", 1), method: "apply", bind: true},
	{name: "bound pvc accessModes", create: pvcBound, update: strings.Replace(pvcBound, "ReadWriteOnce", "ReadOnlyMany", 1), method: "apply", bind: true},
	{name: "job template", create: jobA, update: strings.Replace(jobA, "busybox:1", "busybox:2", 1), method: "apply"},
	{name: "job parallelism", create: jobA, update: strings.Replace(jobA, "spec:\n  template", "spec:\n  parallelism: 2\n  template", 1), method: "apply"},
	{name: "job completions", create: jobA, update: strings.Replace(jobA, "spec:\n  template", "spec:\n  completions: 2\n  template", 1), method: "apply"},
	{name: "job same manifest by apply", create: jobA, update: jobA, method: "apply"},
	{name: "service clusterIP", create: serviceA, update: strings.Replace(serviceA, "spec: {", "spec: {clusterIP: 10.0.0.77, ", 1), method: "apply"},
	{name: "service without clusterIP by update", create: serviceA, update: serviceA, method: "update"},
	{name: "service headless", create: serviceA, update: strings.Replace(serviceA, "spec: {", "spec: {clusterIP: None, ", 1), method: "merge"},
	{name: "storageclass provisioner", create: storageClassA, update: strings.Replace(storageClassA, "example.com/a", "example.com/b", 1), method: "apply"},
	{name: "storageclass parameters", create: storageClassA, update: strings.Replace(storageClassA, "type: a", "type: b", 1), method: "apply"},
	{name: "storageclass reclaimPolicy", create: storageClassA, update: storageClassA + "reclaimPolicy: Retain\n", method: "apply"},
	{name: "storageclass volumeBindingMode", create: storageClassA, update: storageClassA + "volumeBindingMode: WaitForFirstConsumer\n", method: "update"},
	{name: "storageclass parameters and provisioner", create: storageClassA, update: strings.Replace(strings.Replace(storageClassA, "type: a", "type: b", 1), "example.com/a", "example.com/b", 1), method: "update"},
	{name: "storageclass allowVolumeExpansion", create: storageClassA, update: storageClassA + "allowVolumeExpansion: true\n", method: "apply"},
	{name: "job template with a volume", create: jobA, update: strings.Replace(jobA, "busybox:1}]}", "busybox:1}], volumes: [{name: v, emptyDir: {}}]}", 1), method: "apply"},
	{name: "pod image by apply", create: podA, update: strings.Replace(podA, "nginx:1", "nginx:2", 1), method: "apply"},
	{name: "pod same manifest by update", create: podA, update: podA, method: "update"},
	{name: "pod labels by merge patch", create: podA, update: strings.Replace(podA, "{name: pod}", "{name: pod, labels: {x: z}}", 1), method: "merge"},
	{name: "pod env by apply", create: podA, update: strings.Replace(podA, `value: "1"`, `value: "2"`, 1), method: "apply"},
	{name: "pod env and image by update", create: podA, update: strings.Replace(strings.Replace(podA, `value: "1"`, `value: "2"`, 1), "nginx:1", "nginx:2", 1), method: "update"},
	{name: "pod restartPolicy by merge patch", create: podA, update: strings.Replace(podA, "spec:\n", "spec:\n  restartPolicy: Never\n", 1), method: "merge"},
	{name: "pod nodeSelector and volume by apply", create: podA, update: podA + "  nodeSelector: {disk: ssd}\n  volumes: [{name: v, emptyDir: {}}]\n", method: "apply"},
	{name: "pod probe by apply", create: podA, update: strings.Replace(podA, "nginx:1,", "nginx:1, readinessProbe: {httpGet: {port: 80}},", 1), method: "apply"},
	{name: "pod added container", create: podA, update: strings.Replace(podA, "}]}]", "}]}, {name: d, image: busybox:1}]", 1), method: "update"},
	{name: "pod activeDeadlineSeconds set", create: podA, update: podA + "  activeDeadlineSeconds: 30\n", method: "apply"},
	{name: "pod activeDeadlineSeconds raised", create: podA + "  activeDeadlineSeconds: 30\n", update: podA + "  activeDeadlineSeconds: 60\n", method: "apply"},
	{name: "pod activeDeadlineSeconds dropped", create: podA + "  activeDeadlineSeconds: 30\n", update: podA, method: "update"},
	{name: "pod toleration added", create: podA, update: podA + "  tolerations: [{key: k, operator: Exists}]\n", method: "apply"},
	{name: "pod toleration changed", create: podA + "  tolerations: [{key: k, operator: Exists}]\n", update: podA + "  tolerations: [{key: k, operator: Equal, value: v}]\n", method: "apply"},
	{name: "pod toleration seconds changed", create: podA + "  tolerations: [{key: k, operator: Exists, effect: NoExecute, tolerationSeconds: 10}]\n", update: podA + "  tolerations: [{key: k, operator: Exists, effect: NoExecute, tolerationSeconds: 20}]\n", method: "apply"},
	{name: "pod scheduling gate added", create: podA, update: podA + "  schedulingGates: [{name: g}]\n", method: "apply"},
	{name: "pod scheduling gate removed", create: podA + "  schedulingGates: [{name: g}]\n", update: podA, method: "update"},
	{name: "pod terminationGracePeriodSeconds", create: podA, update: podA + "  terminationGracePeriodSeconds: 5\n", method: "apply"},
}
