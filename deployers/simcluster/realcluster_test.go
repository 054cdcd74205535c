package simcluster

import (
	"context"
	"encoding/json"
	"maps"
	"os"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/internal/testcluster"
)

func TestMain(m *testing.M) { os.Exit(testcluster.Run(m)) }

// compareCreates creates the manifest of each case (in namespace default)
// on a real kube-apiserver, in a namespace of its own, and on a simulated
// cluster, and fails for each case whose answers differ.
func compareCreates(t *testing.T, cases []struct{ name, manifest string }) {
	t.Helper()
	tc := testcluster.Get(t)
	ctx := context.Background()
	ns := tc.Namespace(t)
	f := newFixture(t)
	for _, c := range cases {
		sim := outcome(f.c.Create(ctx, obj(t, c.manifest)))
		real := outcome(tc.Client.Create(ctx, obj(t, strings.Replace(c.manifest, "namespace: default", "namespace: "+ns, 1))))
		if sim != real {
			t.Errorf("%s:\nsimulated: %s\nreal:      %s", c.name, sim, real)
		} else {
			t.Logf("%s: %s", c.name, real)
		}
	}
}

// legacyServiceAccount is the ServiceAccount podSpecWithEverything names:
// a simulated cluster, as a real one with the ServiceAccount admission
// plugin (which envtest's kube-apiserver runs without), refuses a Pod whose
// ServiceAccount does not exist.
const legacyServiceAccount = "apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: legacy, namespace: default}\n"

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

// otherDefaultsManifests are the other kinds whose stored form the
// simulated cluster defaults, and some that a real server does not default
// (keys are KIND or KIND/VARIANT; NS is the namespace, also in the names of
// cluster-scoped objects). The webhooks match no resource the test
// creates, so that the real server never calls them.
var otherDefaultsManifests = map[string]string{
	"Service": `apiVersion: v1
kind: Service
metadata: {name: svc, namespace: NS}
spec:
  selector: {app: web}
  ports: [{name: http, port: 80}, {name: dns, port: 53, protocol: UDP, targetPort: 5353}]
`,
	"Service/ClientIP": `apiVersion: v1
kind: Service
metadata: {name: sticky, namespace: NS}
spec: {sessionAffinity: ClientIP, externalIPs: [192.0.2.1], selector: {app: web}, ports: [{port: 80, targetPort: http}]}
`,
	"Service/NodePort": `apiVersion: v1
kind: Service
metadata: {name: np, namespace: NS}
spec:
  type: NodePort
  selector: {app: web}
  ports: [{name: http, port: 80}, {name: https, port: 443}, {name: alt, port: 80, protocol: UDP}]
`,
	"Service/LoadBalancer": `apiVersion: v1
kind: Service
metadata: {name: lb, namespace: NS}
spec: {type: LoadBalancer, externalTrafficPolicy: Local, selector: {app: web}, ports: [{port: 443}]}
`,
	"Service/LoadBalancerNoNodePorts": `apiVersion: v1
kind: Service
metadata: {name: lbn, namespace: NS}
spec: {type: LoadBalancer, allocateLoadBalancerNodePorts: false, selector: {app: web}, ports: [{port: 443}]}
`,
	"Service/Headless": `apiVersion: v1
kind: Service
metadata: {name: headless, namespace: NS}
spec: {clusterIP: None, selector: {app: web}, ports: [{port: 80}]}
`,
	"Service/HeadlessNoSelector": `apiVersion: v1
kind: Service
metadata: {name: headless-ns, namespace: NS}
spec: {clusterIP: None, ports: [{port: 80}]}
`,
	"Service/ExternalName": `apiVersion: v1
kind: Service
metadata: {name: ext, namespace: NS}
spec: {type: ExternalName, externalName: example.com, ports: [{port: 443}]}
`,
	"Job/Labelled": `apiVersion: batch/v1
kind: Job
metadata: {name: jl, namespace: NS, labels: {team: a}}
spec:
  template:
    metadata: {labels: {app: jl}}
    spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}
`,
	"Job/SameLabels": `apiVersion: batch/v1
kind: Job
metadata: {name: js, namespace: NS, labels: {app: js}}
spec:
  template:
    metadata: {labels: {app: js}}
    spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}
`,
	"Job/TemplateLabels": `apiVersion: batch/v1
kind: Job
metadata: {name: jt, namespace: NS}
spec:
  completions: 3
  template:
    metadata: {labels: {app: jt}}
    spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}
`,
	"Job/Unlabelled": `apiVersion: batch/v1
kind: Job
metadata: {name: ju, namespace: NS}
spec:
  parallelism: 2
  template:
    spec: {restartPolicy: OnFailure, containers: [{name: c, image: busybox}]}
`,
	"Job/ManualSelector": `apiVersion: batch/v1
kind: Job
metadata: {name: jm, namespace: NS}
spec:
  manualSelector: true
  selector: {matchLabels: {app: jm}}
  template:
    metadata: {labels: {app: jm}}
    spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}
`,
	"PersistentVolumeClaim": `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data, namespace: NS}
spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1.5Gi}}}
`,
	"PersistentVolume": `apiVersion: v1
kind: PersistentVolume
metadata: {name: pv-NS}
spec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], hostPath: {path: /data}}
`,
	"NetworkPolicy": `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: np, namespace: NS}
spec:
  podSelector: {}
  ingress: [{ports: [{port: 80}]}]
  egress: [{ports: [{port: 53, protocol: UDP}, {port: 443}]}]
`,
	"NetworkPolicy/IngressOnly": `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: deny, namespace: NS}
spec: {podSelector: {}}
`,
	"Ingress": `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: web, namespace: NS}
spec:
  rules:
  - host: web.example
    http:
      paths: [{path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}]
`,
	"IngressClass": `apiVersion: networking.k8s.io/v1
kind: IngressClass
metadata: {name: ic-NS}
spec: {controller: example.com/ingress, parameters: {kind: Params, name: p}}
`,
	"StorageClass": `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: sc-NS}
provisioner: example.com/disk
`,
	"HorizontalPodAutoscaler": `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web, namespace: NS}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 5
  behavior: {scaleDown: {stabilizationWindowSeconds: 60}}
`,
	"HorizontalPodAutoscaler/Metrics": `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: mem, namespace: NS}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 2
  maxReplicas: 5
  metrics: [{type: Resource, resource: {name: memory, target: {type: Utilization, averageUtilization: 70}}}]
`,
	"PodDisruptionBudget": `apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web, namespace: NS}
spec: {minAvailable: 1, selector: {matchLabels: {app: web}}}
`,
	"RoleBinding": `apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: rb, namespace: NS}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: r}
subjects: [{kind: ServiceAccount, name: sa, namespace: NS}, {kind: User, name: alice}, {kind: Group, name: devs}]
`,
	"ClusterRoleBinding": `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: crb-NS}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view}
subjects: [{kind: User, name: bob}]
`,
	"ServiceAccount": `apiVersion: v1
kind: ServiceAccount
metadata: {name: sa, namespace: NS}
`,
	"ValidatingWebhookConfiguration": `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: vwc-NS}
webhooks:
- name: validate.example.com
  admissionReviewVersions: [v1]
  sideEffects: None
  clientConfig: {service: {name: hook, namespace: NS, path: /validate}}
  rules: [{apiGroups: [example.com], apiVersions: [v1], operations: [CREATE], resources: [widgets]}]
`,
	"MutatingWebhookConfiguration": `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata: {name: mwc-NS}
webhooks:
- name: mutate.example.com
  admissionReviewVersions: [v1]
  sideEffects: None
  clientConfig: {url: "https://hook.example.com/mutate"}
  rules: [{apiGroups: [example.com], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [gizmos], scope: Namespaced}]
`,
	"PriorityClass": `apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: pc-NS}
value: 1000
`,
	"Endpoints": `apiVersion: v1
kind: Endpoints
metadata: {name: ext, namespace: NS}
subsets: [{addresses: [{ip: 192.0.2.10}], ports: [{port: 5432}]}]
`,
	"EndpointSlice": `apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata: {name: ext, namespace: NS}
addressType: IPv4
endpoints: [{addresses: [192.0.2.10]}]
ports: [{port: 5432}]
`,
	"ResourceQuota": `apiVersion: v1
kind: ResourceQuota
metadata: {name: q, namespace: NS}
spec: {hard: {cpu: "0.0001", pods: "10"}}
`,
	"LimitRange": `apiVersion: v1
kind: LimitRange
metadata: {name: lr, namespace: NS}
spec:
  limits:
  - {type: Container, max: {cpu: "2", memory: 1Gi}, min: {cpu: 10m}, default: {memory: 512Mi}}
  - {type: Pod, max: {cpu: "4"}}
`,
	"CustomResourceDefinition": `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.NS.example.com}
spec:
  group: NS.example.com
  scope: Namespaced
  names: {kind: Gadget, plural: gadgets}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
`,
}

// TestRealClusterDefaults creates each of defaultsManifests and
// otherDefaultsManifests on a real kube-apiserver and on a simulated
// cluster and compares what they store (all but metadata, less the
// status, and the labels): the simulated cluster defaults as
// kube-apiserver does. What a real server allocates at random (a Service's
// cluster IP and node ports, the uid a Job's selector names) is compared
// by shape. The pod-template hash of the Deployment's stored template,
// which names its ReplicaSet, is then the one kube-controller-manager
// computes (the test cluster runs no controller-manager; ComputeHash
// hashes the template as stored).
func TestRealClusterDefaults(t *testing.T) {
	tc := testcluster.Get(t)
	ctx := context.Background()
	ns := tc.Namespace(t)
	f := newFixture(t, unboundClaims)
	f.create(legacyServiceAccount)
	all := maps.Clone(defaultsManifests)
	maps.Copy(all, otherDefaultsManifests)
	for name, manifest := range all {
		t.Run(name, func(t *testing.T) {
			ns := ns
			if name == "LimitRange" { // its admission would change the Pods of the other manifests
				ns = tc.Namespace(t)
			}
			sim, real := obj(t, strings.ReplaceAll(manifest, "NS", "default")), obj(t, strings.ReplaceAll(manifest, "NS", ns))
			if err := f.c.Create(ctx, sim); err != nil {
				t.Fatalf("simulated cluster: %v", err)
			}
			if err := tc.Client.Create(ctx, real); err != nil {
				t.Fatalf("real cluster: %v", err)
			}
			gotSim, gotReal := typedOf(t, sim), typedOf(t, real)
			if err := f.c.Get(ctx, client.ObjectKeyFromObject(sim), gotSim); err != nil {
				t.Fatal(err)
			}
			if err := tc.Client.Get(ctx, client.ObjectKeyFromObject(real), gotReal); err != nil {
				t.Fatal(err)
			}
			if s, r := storedSpec(t, gotSim, "default"), storedSpec(t, gotReal, ns); s != r {
				t.Errorf("stored object\nsimulated: %s\nreal:      %s", s, r)
			}
			if s, r := labelsOf(gotSim), labelsOf(gotReal); s != r {
				t.Errorf("stored labels: simulated %s, real %s", s, r)
			}
			if d, ok := gotReal.(*appsv1.Deployment); ok {
				if s, r := podTemplateHash(&gotSim.(*appsv1.Deployment).Spec.Template, nil), podTemplateHash(&d.Spec.Template, nil); s != r {
					t.Errorf("pod-template-hash of the stored template: simulated %s, real %s", s, r)
				}
			}
		})
	}
}

// typedOf returns a new object of the built-in kind of u.
func typedOf(t *testing.T, u *unstructured.Unstructured) client.Object {
	o, err := builtin().New(u.GroupVersionKind())
	if err != nil {
		t.Fatalf("no type for %s: %v", u.GroupVersionKind(), err)
	}
	return o.(client.Object)
}

// storedSpec is the JSON of o but its metadata and status, with what a
// real server allocates at random made a shape: the uid (in a Job's
// selector and labels) "UID", cluster IPs "IP", node ports 1; ns, the
// namespace, is "default".
func storedSpec(t *testing.T, o client.Object, ns string) string {
	t.Helper()
	if s, ok := o.(*corev1.Service); ok {
		s = s.DeepCopy()
		if ip := s.Spec.ClusterIP; ip != "" && ip != corev1.ClusterIPNone {
			s.Spec.ClusterIP = "IP"
		}
		for i, ip := range s.Spec.ClusterIPs {
			if ip != corev1.ClusterIPNone {
				s.Spec.ClusterIPs[i] = "IP"
			}
		}
		for i := range s.Spec.Ports {
			if s.Spec.Ports[i].NodePort != 0 {
				s.Spec.Ports[i].NodePort = 1
			}
		}
		if s.Spec.HealthCheckNodePort != 0 {
			s.Spec.HealthCheckNodePort = 1
		}
		o = s
	}
	raw, err := json.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "metadata")
	delete(m, "status")
	raw, err = json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return normalized(string(raw), o, ns)
}

// normalized is s with o's uid "UID" and ns, a namespace, "default".
func normalized(s string, o client.Object, ns string) string {
	if uid := string(o.GetUID()); uid != "" {
		s = strings.ReplaceAll(s, uid, "UID")
	}
	if ns == "" || ns == "default" {
		return s
	}
	return strings.ReplaceAll(s, ns, "default")
}

// labelsOf is o's labels as JSON (sorted), normalized.
func labelsOf(o client.Object) string {
	raw, _ := json.Marshal(o.GetLabels())
	return normalized(string(raw), o, "")
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
	fields := func(c client.Client, manifest string) string {
		t.Helper()
		u := obj(t, manifest)
		if err := c.Create(ctx, u, client.FieldOwner("test")); err != nil {
			t.Fatal(err)
		}
		d := typedOf(t, u)
		if err := c.Get(ctx, client.ObjectKeyFromObject(u), d); err != nil {
			t.Fatal(err)
		}
		for _, e := range d.GetManagedFields() {
			if e.Manager == "test" {
				return string(e.FieldsV1.Raw)
			}
		}
		return "none"
	}
	manifests := map[string]string{"Deployment": deploymentManifest}
	for _, k := range []string{"Service/NodePort", "Service/LoadBalancer", "Service/HeadlessNoSelector", "Job/TemplateLabels",
		"PersistentVolumeClaim", "NetworkPolicy", "HorizontalPodAutoscaler", "StorageClass", "CustomResourceDefinition"} {
		manifests[k] = strings.ReplaceAll(otherDefaultsManifests[k], "NS", "default")
	}
	for name, manifest := range manifests {
		t.Run(name, func(t *testing.T) {
			real := strings.ReplaceAll(strings.ReplaceAll(manifest, "namespace: default", "namespace: "+ns), "default.example.com", ns+".example.com")
			real = strings.ReplaceAll(real, "sc-default", "sc-"+ns)
			if s, r := fields(f.c, manifest), strings.ReplaceAll(fields(tc.Client, real), ns, "default"); s != r {
				t.Errorf("managed fields of the creator\nsimulated: %s\nreal:      %s", s, r)
			}
		})
	}
}

// TestRealClusterServiceUpdates changes a Service's type back and forth on
// a real kube-apiserver and on a simulated cluster and compares the
// Services stored after each write (allocations by shape): what a type
// no longer has is dropped, what it needs is allocated, and an update that
// leaves out what was allocated keeps it (the same cluster IP and node
// ports).
func TestRealClusterServiceUpdates(t *testing.T) {
	tc := testcluster.Get(t)
	ctx := context.Background()
	ns := tc.Namespace(t)
	f := newFixture(t)
	manifest := func(ns, spec string) *unstructured.Unstructured {
		return obj(t, "apiVersion: v1\nkind: Service\nmetadata: {name: svc, namespace: "+ns+"}\nspec: "+spec+"\n")
	}
	const nodePort = `{type: NodePort, selector: {app: web}, ports: [{name: http, port: 80}, {name: https, port: 443}]}`
	steps := []struct {
		name  string
		write func(c client.Client, ns string) error
	}{
		{"create NodePort", func(c client.Client, ns string) error { return c.Create(ctx, manifest(ns, nodePort)) }},
		{"patch to ClusterIP", func(c client.Client, ns string) error {
			return c.Patch(ctx, manifest(ns, nodePort), client.RawPatch(types.MergePatchType, []byte(`{"spec":{"type":"ClusterIP"}}`)))
		}},
		{"patch to LoadBalancer, Local", func(c client.Client, ns string) error {
			return c.Patch(ctx, manifest(ns, nodePort), client.RawPatch(types.MergePatchType,
				[]byte(`{"spec":{"type":"LoadBalancer","externalTrafficPolicy":"Local"}}`)))
		}},
		{"update without allocations", func(c client.Client, ns string) error {
			cur := &corev1.Service{}
			if err := c.Get(ctx, client.ObjectKey{Namespace: ns, Name: "svc"}, cur); err != nil {
				return err
			}
			u := manifest(ns, `{type: LoadBalancer, externalTrafficPolicy: Local, selector: {app: web}, ports: [{name: http, port: 80}, {name: https, port: 443}]}`)
			u.SetResourceVersion(cur.ResourceVersion)
			return c.Update(ctx, u)
		}},
		{"patch to ExternalName", func(c client.Client, ns string) error {
			return c.Patch(ctx, manifest(ns, nodePort), client.RawPatch(types.MergePatchType,
				[]byte(`{"spec":{"type":"ExternalName","externalName":"example.com"}}`)))
		}},
		{"patch to ClusterIP again", func(c client.Client, ns string) error {
			return c.Patch(ctx, manifest(ns, nodePort), client.RawPatch(types.MergePatchType,
				[]byte(`{"spec":{"type":"ClusterIP","externalName":null}}`)))
		}},
	}
	get := func(c client.Client, ns string) *corev1.Service {
		s := &corev1.Service{}
		if err := c.Get(ctx, client.ObjectKey{Namespace: ns, Name: "svc"}, s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	for _, step := range steps {
		prevSim, prevReal := (*corev1.Service)(nil), (*corev1.Service)(nil)
		if step.name == "update without allocations" {
			prevSim, prevReal = get(f.c, "default"), get(tc.Client, ns)
		}
		if err := step.write(f.c, "default"); err != nil {
			t.Fatalf("%s: simulated cluster: %v", step.name, err)
		}
		if err := step.write(tc.Client, ns); err != nil {
			t.Fatalf("%s: real cluster: %v", step.name, err)
		}
		gotSim, gotReal := get(f.c, "default"), get(tc.Client, ns)
		if s, r := storedSpec(t, gotSim, "default"), storedSpec(t, gotReal, ns); s != r {
			t.Errorf("%s: stored Service\nsimulated: %s\nreal:      %s", step.name, s, r)
		}
		if prevSim != nil {
			js := func(s *corev1.Service) string { raw, _ := json.Marshal(s.Spec); return string(raw) }
			if js(prevSim) != js(gotSim) || js(prevReal) != js(gotReal) {
				t.Errorf("%s: allocations changed\nsimulated: %s -> %s\nreal:      %s -> %s", step.name, js(prevSim), js(gotSim), js(prevReal), js(gotReal))
			}
		}
	}
}
