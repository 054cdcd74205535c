package simcluster

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// fieldAt reads the field at the dotted path of u ("" when absent).
func fieldAt(u *unstructured.Unstructured, path string) string {
	v, ok, _ := unstructured.NestedFieldNoCopy(u.Object, strings.Split(path, ".")...)
	if !ok {
		return ""
	}
	return fmt.Sprint(v)
}

// rewriteIsNoChange writes manifest again, as an update and as a merge
// patch, and fails when the stored object changes (a new resourceVersion:
// watchers would hear of it); then server-side applies it (a new field
// manager is a change) and fails when the spec or generation changes.
func rewriteIsNoChange(t *testing.T, f *fixture, manifest, apiVersion, kind, ns, name string) {
	t.Helper()
	ctx := context.Background()
	before := f.get(apiVersion, kind, ns, name)
	u := obj(t, manifest)
	u.SetResourceVersion(before.GetResourceVersion())
	if err := f.c.Update(ctx, u); err != nil {
		t.Fatalf("update: %v", err)
	}
	if err := f.c.Patch(ctx, obj(t, manifest), client.RawPatch(types.MergePatchType, []byte(manifestJSON(t, manifest)))); err != nil {
		t.Fatalf("merge patch: %v", err)
	}
	after := f.get(apiVersion, kind, ns, name)
	if after.GetResourceVersion() != before.GetResourceVersion() {
		t.Errorf("%s %s: writing the manifest again changed it:\nbefore: %v\nafter:  %v", kind, name, before.Object, after.Object)
	}
	if err := f.c.Patch(ctx, obj(t, manifest), client.Apply, client.FieldOwner("test"), client.ForceOwnership); err != nil {
		t.Fatalf("apply: %v", err)
	}
	after = f.get(apiVersion, kind, ns, name)
	if fmt.Sprint(after.Object["spec"]) != fmt.Sprint(before.Object["spec"]) || after.GetGeneration() != before.GetGeneration() {
		t.Errorf("%s %s: applying the manifest changed it:\nbefore: %v\nafter:  %v", kind, name, before.Object, after.Object)
	}
}

// manifestJSON is manifest as JSON.
func manifestJSON(t *testing.T, manifest string) string {
	t.Helper()
	data, err := obj(t, manifest).MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

const nodePortServiceManifest = `apiVersion: v1
kind: Service
metadata: {name: np, namespace: default}
spec:
  type: NodePort
  selector: {app: web}
  ports: [{name: http, port: 80}, {name: https, port: 443, targetPort: https}]
`

const lbServiceManifest = `apiVersion: v1
kind: Service
metadata: {name: lb, namespace: default}
spec:
  type: LoadBalancer
  externalTrafficPolicy: Local
  selector: {app: web}
  ports: [{port: 80}]
`

// TestServiceDefaults: Services are stored with the API server's defaults
// and allocations (see TestRealClusterDefaults for the whole objects).
func TestServiceDefaults(t *testing.T) {
	f := newFixture(t)
	f.create(nodePortServiceManifest, lbServiceManifest, `apiVersion: v1
kind: Service
metadata: {name: headless, namespace: default}
spec: {clusterIP: None, selector: {app: web}, ports: [{port: 80}]}
`, `apiVersion: v1
kind: Service
metadata: {name: ext, namespace: default}
spec: {type: ExternalName, externalName: example.com}
`)
	np := f.get("v1", "Service", "default", "np")
	for path, want := range map[string]string{
		"spec.sessionAffinity": "None", "spec.ipFamilyPolicy": "SingleStack", "spec.ipFamilies": "[IPv4]",
		"spec.internalTrafficPolicy": "Cluster", "spec.externalTrafficPolicy": "Cluster",
		"spec.clusterIPs": "[" + fieldAt(np, "spec.clusterIP") + "]",
	} {
		if got := fieldAt(np, path); got != want {
			t.Errorf("NodePort Service: %s = %q, want %q", path, got, want)
		}
	}
	ports, _, _ := unstructured.NestedSlice(np.Object, "spec", "ports")
	seen := map[int64]bool{}
	for i, p := range ports {
		p := p.(map[string]any)
		n, _ := p["nodePort"].(int64)
		if n < 30000 || n > 32767 || seen[n] {
			t.Errorf("port %d: nodePort %v, want a distinct port in 30000-32767", i, p["nodePort"])
		}
		seen[n] = true
		if p["protocol"] != "TCP" {
			t.Errorf("port %d: protocol %v, want TCP", i, p["protocol"])
		}
	}
	if tp := ports[0].(map[string]any)["targetPort"]; tp != int64(80) {
		t.Errorf("targetPort of port 80 = %v, want 80", tp)
	}
	lb := f.get("v1", "Service", "default", "lb")
	if fieldAt(lb, "spec.allocateLoadBalancerNodePorts") != "true" || fieldAt(lb, "spec.healthCheckNodePort") == "" {
		t.Errorf("LoadBalancer Service: allocateLoadBalancerNodePorts %q, healthCheckNodePort %q, want true and a port",
			fieldAt(lb, "spec.allocateLoadBalancerNodePorts"), fieldAt(lb, "spec.healthCheckNodePort"))
	}
	h := f.get("v1", "Service", "default", "headless")
	if fieldAt(h, "spec.clusterIPs") != "[None]" || fieldAt(h, "spec.ipFamilies") != "[IPv4]" {
		t.Errorf("headless Service: clusterIPs %q, ipFamilies %q, want [None] and [IPv4]", fieldAt(h, "spec.clusterIPs"), fieldAt(h, "spec.ipFamilies"))
	}
	ext := f.get("v1", "Service", "default", "ext")
	if fieldAt(ext, "spec.clusterIP") != "" || fieldAt(ext, "spec.ipFamilies") != "" || fieldAt(ext, "spec.internalTrafficPolicy") != "" {
		t.Errorf("ExternalName Service: got %v, want no cluster IP, IP families or internal traffic policy", ext.Object["spec"])
	}
	rewriteIsNoChange(t, f, nodePortServiceManifest, "v1", "Service", "default", "np")
	rewriteIsNoChange(t, f, lbServiceManifest, "v1", "Service", "default", "lb")
}

const jobManifest = `apiVersion: batch/v1
kind: Job
metadata: {name: migrate, namespace: default}
spec:
  template:
    metadata: {labels: {app: migrate}}
    spec:
      restartPolicy: Never
      containers: [{name: m, image: busybox}]
`

// TestJobSelectorGenerated: a Job without manualSelector gets the
// selector and pod template labels the Job registry adds on create, on its
// uid, and its labels (copied from the template) have them too.
func TestJobSelectorGenerated(t *testing.T) {
	f := newFixture(t)
	f.create(jobManifest)
	j := f.get("batch/v1", "Job", "default", "migrate")
	uid := string(j.GetUID())
	want := map[string]string{"app": "migrate", "batch.kubernetes.io/controller-uid": uid, "batch.kubernetes.io/job-name": "migrate",
		"controller-uid": uid, "job-name": "migrate"}
	tl, _, _ := unstructured.NestedStringMap(j.Object, "spec", "template", "metadata", "labels")
	if fmt.Sprint(tl) != fmt.Sprint(want) {
		t.Errorf("template labels %v, want %v", tl, want)
	}
	if fmt.Sprint(j.GetLabels()) != fmt.Sprint(want) {
		t.Errorf("labels %v, want %v", j.GetLabels(), want)
	}
	if got := fieldAt(j, "spec.selector.matchLabels"); got != "map[batch.kubernetes.io/controller-uid:"+uid+"]" {
		t.Errorf("selector %s, want the controller-uid", got)
	}
	rewriteIsNoChange(t, f, jobManifest, "batch/v1", "Job", "default", "migrate")
}

// unboundClaims keeps every claim Pending, so that no PersistentVolume
// controller binds it (spec.volumeName, which a rewrite without it may not
// remove): what is compared is the API server's defaulting, and the real
// test cluster runs no controllers.
var unboundClaims = RuleConfig{Match: MatchConfig{Kind: "PersistentVolumeClaim"}, Hang: true}

// TestVolumeDefaults: PersistentVolumeClaims and PersistentVolumes get
// volumeMode Filesystem, PersistentVolumes reclaim policy Retain.
func TestVolumeDefaults(t *testing.T) {
	f := newFixture(t, unboundClaims)
	pvc := `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data, namespace: default}
spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`
	f.create(pvc, `apiVersion: v1
kind: PersistentVolume
metadata: {name: pv}
spec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], hostPath: {path: /data}}
`)
	if got := fieldAt(f.get("v1", "PersistentVolumeClaim", "default", "data"), "spec.volumeMode"); got != "Filesystem" {
		t.Errorf("PersistentVolumeClaim volumeMode %q, want Filesystem", got)
	}
	pv := f.get("v1", "PersistentVolume", "", "pv")
	if fieldAt(pv, "spec.volumeMode") != "Filesystem" || fieldAt(pv, "spec.persistentVolumeReclaimPolicy") != "Retain" {
		t.Errorf("PersistentVolume spec %v, want volumeMode Filesystem, reclaim policy Retain", pv.Object["spec"])
	}
	rewriteIsNoChange(t, f, pvc, "v1", "PersistentVolumeClaim", "default", "data")
}

// TestRewriteWithoutDefaultsIsNoChange: every manifest of the real-cluster
// comparison (TestRealClusterDefaults), written again without what the
// simulated cluster defaulted and allocated, is no change.
func TestRewriteWithoutDefaultsIsNoChange(t *testing.T) {
	f := newFixture(t, unboundClaims)
	f.create(legacyServiceAccount)
	all := maps.Clone(defaultsManifests)
	maps.Copy(all, otherDefaultsManifests)
	for name, manifest := range all {
		t.Run(name, func(t *testing.T) {
			manifest := strings.ReplaceAll(manifest, "NS", "default")
			u := obj(t, manifest)
			if err := f.c.Create(context.Background(), u); err != nil {
				t.Fatal(err)
			}
			rewriteIsNoChange(t, f, manifest, u.GetAPIVersion(), u.GetKind(), u.GetNamespace(), u.GetName())
		})
	}
}

// TestServiceTypeChange: what a Service's new type does not have is
// dropped, what it needs is allocated (TestRealClusterServiceUpdates
// compares the same with a real kube-apiserver).
func TestServiceTypeChange(t *testing.T) {
	f := newFixture(t)
	f.create(nodePortServiceManifest)
	patch := func(p string) *unstructured.Unstructured {
		t.Helper()
		if err := f.c.Patch(context.Background(), obj(t, nodePortServiceManifest), client.RawPatch(types.MergePatchType, []byte(p))); err != nil {
			t.Fatal(err)
		}
		return f.get("v1", "Service", "default", "np")
	}
	s := patch(`{"spec":{"type":"ClusterIP"}}`)
	if got := fieldAt(s, "spec.ports"); strings.Contains(got, "nodePort") || fieldAt(s, "spec.externalTrafficPolicy") != "" {
		t.Errorf("NodePort -> ClusterIP: ports %s, externalTrafficPolicy %q, want no node ports and no policy", got, fieldAt(s, "spec.externalTrafficPolicy"))
	}
	ip := fieldAt(s, "spec.clusterIP")
	s = patch(`{"spec":{"type":"ExternalName","externalName":"example.com"}}`)
	for _, path := range []string{"spec.clusterIP", "spec.clusterIPs", "spec.ipFamilies", "spec.ipFamilyPolicy", "spec.internalTrafficPolicy"} {
		if got := fieldAt(s, path); got != "" {
			t.Errorf("ClusterIP -> ExternalName: %s = %s, want none", path, got)
		}
	}
	s = patch(`{"spec":{"type":"LoadBalancer","externalName":null}}`)
	if fieldAt(s, "spec.clusterIP") != ip || !strings.Contains(fieldAt(s, "spec.ports"), "nodePort") || fieldAt(s, "spec.ipFamilyPolicy") != "SingleStack" {
		t.Errorf("ExternalName -> LoadBalancer: spec %v, want cluster IP %s again, node ports, IP family policy", s.Object["spec"], ip)
	}
}
