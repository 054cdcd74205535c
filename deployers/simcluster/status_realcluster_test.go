package simcluster

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/internal/testcluster"
)

// statusManifests are objects of kinds with a status subresource, each
// with a status a client sends (NAME is the name, NS the namespace), and
// the status the test then writes through the subresource.
var statusManifests = map[string]struct{ manifest, status string }{
	"Deployment": {`apiVersion: apps/v1
kind: Deployment
metadata: {name: NAME, namespace: NS}
spec:
  selector: {matchLabels: {app: d}}
  template: {metadata: {labels: {app: d}}, spec: {containers: [{name: c, image: busybox}]}}
status: {replicas: 9, observedGeneration: 9}
`, `{"replicas":3}`},
	"StatefulSet": {`apiVersion: apps/v1
kind: StatefulSet
metadata: {name: NAME, namespace: NS}
spec:
  serviceName: s
  selector: {matchLabels: {app: s}}
  template: {metadata: {labels: {app: s}}, spec: {containers: [{name: c, image: busybox}]}}
status: {replicas: 9}
`, `{"replicas":3}`},
	"DaemonSet": {`apiVersion: apps/v1
kind: DaemonSet
metadata: {name: NAME, namespace: NS}
spec:
  selector: {matchLabels: {app: ds}}
  template: {metadata: {labels: {app: ds}}, spec: {containers: [{name: c, image: busybox}]}}
status: {currentNumberScheduled: 9, desiredNumberScheduled: 9, numberMisscheduled: 0, numberReady: 9}
`, `{"currentNumberScheduled":3,"desiredNumberScheduled":3}`},
	"ReplicaSet": {`apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: NAME, namespace: NS}
spec:
  selector: {matchLabels: {app: rs}}
  template: {metadata: {labels: {app: rs}}, spec: {containers: [{name: c, image: busybox}]}}
status: {replicas: 9}
`, `{"replicas":3}`},
	"ReplicationController": {`apiVersion: v1
kind: ReplicationController
metadata: {name: NAME, namespace: NS}
spec:
  template: {metadata: {labels: {app: rc}}, spec: {containers: [{name: c, image: busybox}]}}
status: {replicas: 9}
`, `{"replicas":3}`},
	"Job": {`apiVersion: batch/v1
kind: Job
metadata: {name: NAME, namespace: NS}
spec:
  template: {spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}}
status: {active: 9}
`, `{"active":3}`},
	"CronJob": {`apiVersion: batch/v1
kind: CronJob
metadata: {name: NAME, namespace: NS}
spec:
  schedule: "0 * * * *"
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}}}}
status: {lastScheduleTime: "2025-01-01T09:00:00Z"}
`, `{"lastScheduleTime":"2025-01-01T03:00:00Z"}`},
	"Pod": {`apiVersion: v1
kind: Pod
metadata: {name: NAME, namespace: NS}
spec: {containers: [{name: c, image: busybox}]}
status: {phase: Running, message: sent by the client}
`, `{"message":"written through the subresource"}`},
	"Service": {`apiVersion: v1
kind: Service
metadata: {name: NAME, namespace: NS}
spec: {type: LoadBalancer, selector: {app: web}, ports: [{port: 80}]}
status: {loadBalancer: {ingress: [{ip: 192.0.2.9}]}}
`, `{"loadBalancer":{"ingress":[{"ip":"192.0.2.3"}]}}`},
	"PersistentVolumeClaim": {`apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: NAME, namespace: NS}
spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
status: {phase: Bound}
`, `{"phase":"Lost"}`},
	"Namespace": {`apiVersion: v1
kind: Namespace
metadata: {name: NAME-NS}
status: {phase: Terminating}
`, `{"conditions":[{"type":"NamespaceDeletionDiscoveryFailure","status":"False","reason":"Test"}]}`},
	"HorizontalPodAutoscaler": {`apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: NAME, namespace: NS}
spec: {scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: d}, maxReplicas: 3}
status: {currentReplicas: 9, desiredReplicas: 9}
`, `{"currentReplicas":3,"desiredReplicas":3}`},
	"PodDisruptionBudget": {`apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: NAME, namespace: NS}
spec: {minAvailable: 1, selector: {matchLabels: {app: web}}}
status: {currentHealthy: 9, desiredHealthy: 9, disruptionsAllowed: 9, expectedPods: 9}
`, `{"currentHealthy":3,"desiredHealthy":3,"disruptionsAllowed":0,"expectedPods":3}`},
	"Ingress": {`apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: NAME, namespace: NS}
spec: {defaultBackend: {service: {name: web, port: {number: 80}}}}
status: {loadBalancer: {ingress: [{ip: 192.0.2.9}]}}
`, `{"loadBalancer":{"ingress":[{"ip":"192.0.2.3"}]}}`},
	"ResourceQuota": {`apiVersion: v1
kind: ResourceQuota
metadata: {name: NAME, namespace: NS}
spec: {hard: {configmaps: "99"}}
status: {hard: {configmaps: "99"}, used: {configmaps: "99"}}
`, `{"hard":{"configmaps":"98"},"used":{"configmaps":"3"}}`},
}

// TestRealClusterStatusOnWrites writes an object of each of
// statusManifests with a status on a real kube-apiserver and on a
// simulated cluster (its fake controllers kept away by a rule) and
// compares the stored status after each write: a create (also by
// server-side apply) stores the status the API server's strategy sets,
// not the client's; a write of the status subresource stores it; an
// update, a merge patch and an apply of the main resource keep the
// stored status.
func TestRealClusterStatusOnWrites(t *testing.T) {
	tc := testcluster.Get(t)
	ctx := context.Background()
	ns := tc.Namespace(t)
	f := newFixture(t, RuleConfig{Hang: true})
	for kind, m := range statusManifests {
		t.Run(kind, func(t *testing.T) {
			manifest := func(ns, name, status string) *unstructured.Unstructured {
				u := obj(t, strings.NewReplacer("NAME", name, "NS", ns).Replace(m.manifest))
				if status != "" {
					var st map[string]any
					if err := json.Unmarshal([]byte(status), &st); err != nil {
						t.Fatal(err)
					}
					u.Object["status"] = st
				}
				return u
			}
			statusOf := func(c client.Client, u *unstructured.Unstructured, ns string) string {
				got := &unstructured.Unstructured{}
				got.SetGroupVersionKind(u.GroupVersionKind())
				if err := c.Get(ctx, client.ObjectKeyFromObject(u), got); err != nil {
					t.Fatal(err)
				}
				raw, _ := json.Marshal(got.Object["status"])
				return strings.ReplaceAll(string(raw), ns, "default")
			}
			name := strings.ToLower(kind)
			clientStatus, _ := json.Marshal(manifest("", name, "").Object["status"])
			steps := []struct {
				name  string
				write func(c client.Client, ns string) (*unstructured.Unstructured, error)
			}{
				{"create", func(c client.Client, ns string) (*unstructured.Unstructured, error) {
					u := manifest(ns, name, "")
					return u, c.Create(ctx, u)
				}},
				{"patch of the status subresource", func(c client.Client, ns string) (*unstructured.Unstructured, error) {
					u := manifest(ns, name, "")
					return u, c.Status().Patch(ctx, u, client.RawPatch(types.MergePatchType, []byte(`{"status":`+m.status+`}`)))
				}},
				{"update", func(c client.Client, ns string) (*unstructured.Unstructured, error) {
					u := manifest(ns, name, "")
					if err := c.Get(ctx, client.ObjectKeyFromObject(u), u); err != nil {
						return u, err
					}
					u.Object["status"] = manifest(ns, name, "").Object["status"]
					u.SetLabels(map[string]string{"updated": "yes"})
					return u, c.Update(ctx, u)
				}},
				{"merge patch", func(c client.Client, ns string) (*unstructured.Unstructured, error) {
					u := manifest(ns, name, "")
					return u, c.Patch(ctx, u, client.RawPatch(types.MergePatchType, []byte(`{"metadata":{"labels":{"patched":"yes"}},"status":`+string(clientStatus)+`}`)))
				}},
				{"apply", func(c client.Client, ns string) (*unstructured.Unstructured, error) {
					u := manifest(ns, name, string(clientStatus))
					return u, c.Patch(ctx, u, client.Apply, client.FieldOwner("test"), client.ForceOwnership)
				}},
				{"create with apply", func(c client.Client, ns string) (*unstructured.Unstructured, error) {
					u := manifest(ns, name+"-ssa", "")
					u.Object["status"] = manifest(ns, name, "").Object["status"]
					return u, c.Patch(ctx, u, client.Apply, client.FieldOwner("test"), client.ForceOwnership)
				}},
			}
			for _, step := range steps {
				uSim, errSim := step.write(f.c, "default")
				uReal, errReal := step.write(tc.Client, ns)
				if errSim != nil || errReal != nil {
					t.Fatalf("%s: simulated: %v; real: %v", step.name, errSim, errReal)
				}
				if s, r := statusOf(f.c, uSim, "default"), statusOf(tc.Client, uReal, ns); s != r {
					t.Errorf("%s: stored status\nsimulated: %s\nreal:      %s", step.name, s, r)
				}
			}
		})
	}
}
