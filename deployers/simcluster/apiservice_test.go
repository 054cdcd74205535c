package simcluster

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/internal/ids"
)

const localAPIService = `
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata: {name: v1.local.example.com, namespace: default}
spec: {group: local.example.com, version: v1, groupPriorityMinimum: 1000, versionPriority: 15}
`

const metricsAPIService = `
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata: {name: v1beta1.metrics.k8s.io, labels: {k8s-app: metrics-server}}
spec:
  group: metrics.k8s.io
  version: v1beta1
  groupPriorityMinimum: 100
  versionPriority: 100
  insecureSkipTLSVerify: true
  service: {name: metrics-server, namespace: kube-system}
`

const metricsService = `
apiVersion: v1
kind: Service
metadata: {name: metrics-server, namespace: kube-system}
spec:
  selector: {k8s-app: metrics-server}
  ports: [{name: https, port: 443, targetPort: https}]
`

// availableOf returns the Available condition of an APIService as
// "status reason message at time", "" without one.
func availableOf(t *testing.T, u *unstructured.Unstructured) string {
	t.Helper()
	conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	for _, c := range conds {
		m, _ := c.(map[string]any)
		if m["type"] == "Available" {
			return strings.Join([]string{m["status"].(string), m["reason"].(string), m["message"].(string), "at", m["lastTransitionTime"].(string)}, " ")
		}
	}
	return ""
}

// TestAPIServiceServed: every simulated cluster serves
// apiregistration.k8s.io/v1 APIServices, cluster-scoped, as kube-apiserver's
// aggregator does; v1beta1 only before Kubernetes 1.22.
func TestAPIServiceServed(t *testing.T) {
	ctx := context.Background()
	v1 := schema.GroupVersionKind{Group: "apiregistration.k8s.io", Version: "v1", Kind: "APIService"}
	beta := v1.GroupVersion().WithKind("APIService")
	beta.Version = "v1beta1"
	for _, tc := range []struct {
		version    string
		betaServed bool
	}{{"", false}, {"v1.21.14", true}, {"v1.22.0", false}} {
		f := versionFixture(t, tc.version)
		m, err := f.c.RESTMapper().RESTMapping(v1.GroupKind())
		if err != nil {
			t.Fatalf("%q: RESTMapping: %v", tc.version, err)
		}
		if m.GroupVersionKind != v1 || m.Resource.Resource != "apiservices" || m.Scope.Name() != meta.RESTScopeNameRoot {
			t.Errorf("%q: mapping = %v %v %v", tc.version, m.GroupVersionKind, m.Resource, m.Scope.Name())
		}
		s := f.c.(interface {
			ServesGroupVersion(schema.GroupVersion) bool
		})
		if !s.ServesGroupVersion(v1.GroupVersion()) || s.ServesGroupVersion(beta.GroupVersion()) != tc.betaServed {
			t.Errorf("%q: ServesGroupVersion v1 %v, v1beta1 %v; want true, %v", tc.version,
				s.ServesGroupVersion(v1.GroupVersion()), s.ServesGroupVersion(beta.GroupVersion()), tc.betaServed)
		}
		namespaced, err := f.c.IsObjectNamespaced(obj(t, localAPIService))
		if err != nil || namespaced {
			t.Errorf("%q: IsObjectNamespaced = %v, %v", tc.version, namespaced, err)
		}
		b := obj(t, localAPIService)
		b.SetAPIVersion("apiregistration.k8s.io/v1beta1")
		err = f.c.Create(ctx, b)
		if tc.betaServed && err != nil {
			t.Errorf("%q: create v1beta1: %v", tc.version, err)
		}
		if !tc.betaServed && !meta.IsNoMatchError(err) {
			t.Errorf("%q: create v1beta1 = %v, want no match", tc.version, err)
		}
	}
}

// TestAPIServiceLocal: a local APIService (no spec.service) is stored
// cluster-scoped, without generation, and Available as kube-aggregator's
// strategy marks it on create; a client's status is dropped; list, patch,
// apply and delete work.
func TestAPIServiceLocal(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	u := obj(t, localAPIService)
	_ = unstructured.SetNestedField(u.Object, map[string]any{"conditions": []any{map[string]any{"type": "Available", "status": "False"}}}, "status")
	if err := f.c.Create(ctx, u); err != nil {
		t.Fatal(err)
	}
	got := f.get("apiregistration.k8s.io/v1", "APIService", "", "v1.local.example.com")
	if got.GetNamespace() != "" || got.GetGeneration() != 0 {
		t.Errorf("namespace %q generation %d, want none", got.GetNamespace(), got.GetGeneration())
	}
	want := "True Local Local APIServices are always available at " + epoch.UTC().Format(time.RFC3339)
	if a := availableOf(t, got); a != want {
		t.Errorf("Available = %q, want %q", a, want)
	}

	f.clock.Step(time.Minute)
	patch := client.RawPatch(types.MergePatchType, []byte(`{"spec":{"versionPriority":20}}`))
	if err := f.c.Patch(ctx, got, patch); err != nil {
		t.Fatal(err)
	}
	got = f.get("apiregistration.k8s.io/v1", "APIService", "", "v1.local.example.com")
	if p, _, _ := unstructured.NestedInt64(got.Object, "spec", "versionPriority"); p != 20 {
		t.Errorf("versionPriority = %d after the patch", p)
	}
	if a := availableOf(t, got); a != want {
		t.Errorf("after a patch Available = %q, want %q", a, want)
	}

	ac := obj(t, localAPIService)
	ac.SetManagedFields(nil)
	if err := f.c.Patch(ctx, ac, client.Apply, client.FieldOwner("helm"), client.ForceOwnership); err != nil {
		t.Fatalf("apply: %v", err)
	}

	list := &unstructured.UnstructuredList{}
	list.SetGroupVersionKind(schema.GroupVersionKind{Group: "apiregistration.k8s.io", Version: "v1", Kind: "APIServiceList"})
	if err := f.c.List(ctx, list); err != nil || len(list.Items) != 1 {
		t.Fatalf("list = %d items, %v", len(list.Items), err)
	}
	if err := f.c.Delete(ctx, got); err != nil {
		t.Fatal(err)
	}
	if err := f.c.Get(ctx, client.ObjectKeyFromObject(got), got); !apierrors.IsNotFound(err) {
		t.Errorf("get after delete = %v", err)
	}
}

// TestAPIServiceValidation: kube-aggregator's validation, with its
// messages.
func TestAPIServiceValidation(t *testing.T) {
	for _, c := range apiServiceCases {
		f := newFixture(t)
		got := outcome(f.c.Create(context.Background(), obj(t, c.manifest)))
		if got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}

// TestAPIServiceWithService: an APIService of a Service is Available once
// the Service exists and listens on its port (443 by default), as
// kube-aggregator's availability controller finds it when the aggregated
// server answers; before, ServiceNotFound or ServicePortError.
func TestAPIServiceWithService(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	f.create(metricsAPIService)
	got := f.get("apiregistration.k8s.io/v1", "APIService", "", "v1beta1.metrics.k8s.io")
	if p, _, _ := unstructured.NestedInt64(got.Object, "spec", "service", "port"); p != 443 {
		t.Errorf("spec.service.port = %d, want the default 443", p)
	}
	at := " at " + epoch.UTC().Format(time.RFC3339)
	if a, want := availableOf(t, got), `False ServiceNotFound service/metrics-server in "kube-system" is not present`+at; a != want {
		t.Errorf("without the Service: Available = %q, want %q", a, want)
	}

	f.clock.Step(time.Minute)
	wrongPort := strings.Replace(metricsService, "port: 443", "port: 8443", 1)
	f.create(wrongPort)
	got = f.get("apiregistration.k8s.io/v1", "APIService", "", "v1beta1.metrics.k8s.io")
	if a, want := availableOf(t, got), `False ServicePortError service/metrics-server in "kube-system" is not listening on port 443`+at; a != want {
		t.Errorf("wrong port: Available = %q, want %q", a, want)
	}

	f.clock.Step(time.Minute)
	if err := f.c.Delete(ctx, obj(t, wrongPort)); err != nil {
		t.Fatal(err)
	}
	f.create(metricsService)
	got = f.get("apiregistration.k8s.io/v1", "APIService", "", "v1beta1.metrics.k8s.io")
	if a, want := availableOf(t, got), "True Passed all checks passed at "+epoch.Add(2*time.Minute).UTC().Format(time.RFC3339); a != want {
		t.Errorf("with the Service: Available = %q, want %q", a, want)
	}

	f.clock.Step(time.Minute)
	if err := f.c.Delete(ctx, obj(t, metricsService)); err != nil {
		t.Fatal(err)
	}
	got = f.get("apiregistration.k8s.io/v1", "APIService", "", "v1beta1.metrics.k8s.io")
	if a, want := availableOf(t, got), `False ServiceNotFound service/metrics-server in "kube-system" is not present at `+epoch.Add(3*time.Minute).UTC().Format(time.RFC3339); a != want {
		t.Errorf("Service deleted: Available = %q, want %q", a, want)
	}
}

// TestAPIServiceSaveRestore: APIServices are saved with the cluster and
// served again after a restore.
func TestAPIServiceSaveRestore(t *testing.T) {
	f := newFixture(t)
	f.create(localAPIService, metricsService, metricsAPIService)
	saved, err := f.clusters.Save()
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(saved)
	if err != nil {
		t.Fatal(err)
	}
	g := newRestored(t, f, data)
	g.c = g.client()
	got := g.get("apiregistration.k8s.io/v1", "APIService", "", "v1beta1.metrics.k8s.io")
	if a := availableOf(t, got); !strings.HasPrefix(a, "True Passed") {
		t.Errorf("restored: Available = %q", a)
	}
	again, err := g.clusters.Save()
	if err != nil {
		t.Fatal(err)
	}
	againData, _ := json.Marshal(again)
	if string(againData) != string(data) {
		t.Errorf("save of the restored cluster differs:\n%s\n%s", againData, data)
	}
}

// apiServiceCase is an APIService create and the answer kube-apiserver
// gives it (outcome), "" when it is stored.
type apiServiceCase struct{ name, manifest, want string }

var apiServiceCases = []apiServiceCase{
	{"valid local", localAPIService, ""},
	{"name is not version.group", `
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata: {name: metrics}
spec: {group: metrics.example.com, version: v1beta1, groupPriorityMinimum: 100, versionPriority: 100}
`, `422 Invalid APIService.apiregistration.k8s.io "metrics" is invalid: metadata.name: Invalid value: "metrics": must be ` +
		"`spec.version+\".\"+spec.group`" + `: "v1beta1.metrics.example.com"
cause FieldValueInvalid metadata.name: Invalid value: "metrics": must be ` + "`spec.version+\".\"+spec.group`" + `: "v1beta1.metrics.example.com"`},
	{"priorities missing", `
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata: {name: v1.prio.example.com}
spec: {group: prio.example.com, version: v1}
`, `422 Invalid APIService.apiregistration.k8s.io "v1.prio.example.com" is invalid: [spec.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000, spec.versionPriority: Invalid value: 0: must be positive and less than 1000]
cause FieldValueInvalid spec.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000
cause FieldValueInvalid spec.versionPriority: Invalid value: 0: must be positive and less than 1000`},
	{"service without name and namespace, bad port", `
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata: {name: v1.svc.example.com}
spec: {group: svc.example.com, version: v1, groupPriorityMinimum: 100, versionPriority: 100, service: {port: 70000}}
`, `422 Invalid APIService.apiregistration.k8s.io "v1.svc.example.com" is invalid: [spec.service.namespace: Required value, spec.service.name: Required value, spec.service.port: Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive]
cause FieldValueRequired spec.service.namespace: Required value
cause FieldValueRequired spec.service.name: Required value
cause FieldValueInvalid spec.service.port: Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive`},
	{"local with caBundle and insecure", `
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata: {name: v1.ca.example.com}
spec: {group: ca.example.com, version: v1, groupPriorityMinimum: 100, versionPriority: 100, caBundle: Y2VydA==, insecureSkipTLSVerify: true}
`, `422 Invalid APIService.apiregistration.k8s.io "v1.ca.example.com" is invalid: [spec.caBundle: Invalid value: "4 bytes": local APIServices may not have a caBundle, spec.insecureSkipTLSVerify: Invalid value: true: local APIServices may not have insecureSkipTLSVerify]
cause FieldValueInvalid spec.caBundle: Invalid value: "4 bytes": local APIServices may not have a caBundle
cause FieldValueInvalid spec.insecureSkipTLSVerify: Invalid value: true: local APIServices may not have insecureSkipTLSVerify`},
	{"insecure with caBundle", `
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata: {name: v1.both.example.com}
spec: {group: both.example.com, version: v1, groupPriorityMinimum: 100, versionPriority: 100, caBundle: Y2VydA==, insecureSkipTLSVerify: true, service: {name: s, namespace: default}}
`, `422 Invalid APIService.apiregistration.k8s.io "v1.both.example.com" is invalid: spec.insecureSkipTLSVerify: Invalid value: true: may not be true if caBundle is present
cause FieldValueInvalid spec.insecureSkipTLSVerify: Invalid value: true: may not be true if caBundle is present`},
	{"bad group and version", `
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata: {name: V1.Bad_Group}
spec: {group: Bad_Group, version: V1, groupPriorityMinimum: 100, versionPriority: 100}
`, `422 Invalid APIService.apiregistration.k8s.io "V1.Bad_Group" is invalid: [spec.group: Invalid value: "Bad_Group": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), spec.version: Invalid value: "V1": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')]
cause FieldValueInvalid spec.group: Invalid value: "Bad_Group": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')
cause FieldValueInvalid spec.version: Invalid value: "V1": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`},
}

// TestAPIServiceNamespaceDeleted: deleting the Namespace of its Service
// (the namespace controller deletes the Service) makes an APIService
// unavailable.
func TestAPIServiceNamespaceDeleted(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	svc := strings.ReplaceAll(metricsService, "kube-system", "metrics")
	f.create(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"metrics"}}`, svc,
		strings.ReplaceAll(metricsAPIService, "kube-system", "metrics"))
	got := f.get("apiregistration.k8s.io/v1", "APIService", "", "v1beta1.metrics.k8s.io")
	if a := availableOf(t, got); !strings.HasPrefix(a, "True Passed") {
		t.Fatalf("Available = %q, want Passed", a)
	}
	f.clock.Step(time.Minute)
	if err := f.c.Delete(ctx, obj(t, `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"metrics"}}`)); err != nil {
		t.Fatal(err)
	}
	got = f.get("apiregistration.k8s.io/v1", "APIService", "", "v1beta1.metrics.k8s.io")
	if a, want := availableOf(t, got), `False ServiceNotFound service/metrics-server in "metrics" is not present at `+epoch.Add(time.Minute).UTC().Format(time.RFC3339); a != want {
		t.Errorf("Available = %q, want %q", a, want)
	}
}

// TestAPIServiceSeed: seeded APIServices are served: a local one without a
// status gets Local, one of a seeded Service is Passed.
func TestAPIServiceSeed(t *testing.T) {
	files := []SeedFile{{Name: "seed.yaml", Data: []byte(localAPIService + "\n---\n" + metricsAPIService + "\n---\n" + metricsService)}}
	seed, err := ParseSeed(SeedConfig{Target: "example/cluster", Files: []string{"seed.yaml"}}, files)
	if err != nil {
		t.Fatal(err)
	}
	store := fakecluster.New(fakecluster.Options{})
	f := &fixture{t: t, clock: &testClock{now: epoch}, target: newFixture(t).target}
	if err := store.Create(context.Background(), f.target.DeepCopy()); err != nil {
		t.Fatal(err)
	}
	f.clusters = New(Options{Now: f.clock.Now, IDs: ids.NewSource(1), Seeds: []Seed{seed}, Landscape: store})
	f.c = f.client()
	for name, want := range map[string]string{"v1.local.example.com": "True Local", "v1beta1.metrics.k8s.io": "True Passed"} {
		if a := availableOf(t, f.get("apiregistration.k8s.io/v1", "APIService", "", name)); !strings.HasPrefix(a, want) {
			t.Errorf("seeded %s: Available = %q, want %s", name, a, want)
		}
	}
}
