package simcluster

import (
	"context"
	"strings"
	"testing"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/lscli/lscli/internal/ids"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

var deploymentGVK = schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}

// epoch is where test clocks start.
var epoch = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// testClock is a virtual clock moved by hand.
type testClock struct{ now time.Time }

func (c *testClock) Now() time.Time       { return c.now }
func (c *testClock) Step(d time.Duration) { c.now = c.now.Add(d) }

// fixture is a set of clusters with a clock, and the client of one Target.
type fixture struct {
	t        *testing.T
	clock    *testClock
	clusters *Clusters
	target   *lsv1alpha1.Target
	c        client.Client
}

// newFixture returns clusters with rules, and the client behind Target
// example/cluster.
func newFixture(t *testing.T, rules ...RuleConfig) *fixture {
	t.Helper()
	compiled, err := CompileRules(rules)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, clock: &testClock{now: epoch}}
	f.clusters = New(Options{Now: f.clock.Now, IDs: ids.NewSource(1), Rules: compiled})
	f.target = &lsv1alpha1.Target{ObjectMeta: metav1.ObjectMeta{Namespace: "example", Name: "cluster"}}
	f.c = f.client()
	return f
}

func (f *fixture) client() client.Client {
	f.t.Helper()
	c, err := f.clusters.ForTarget(context.Background(), f.target)
	if err != nil {
		f.t.Fatal(err)
	}
	return c
}

// obj decodes one YAML manifest the way deployers should: into an
// unstructured object, so that numbers are int64.
func obj(t *testing.T, manifest string) *unstructured.Unstructured {
	t.Helper()
	u := &unstructured.Unstructured{}
	if err := utilyaml.NewYAMLOrJSONDecoder(strings.NewReader(manifest), 4096).Decode(u); err != nil {
		t.Fatal(err)
	}
	return u
}

// create creates each manifest and fails the test on error.
func (f *fixture) create(manifests ...string) {
	f.t.Helper()
	for _, m := range manifests {
		if err := f.c.Create(context.Background(), obj(f.t, m)); err != nil {
			f.t.Fatalf("create: %v", err)
		}
	}
}

// get reads apiVersion/kind ns/name as an unstructured object.
func (f *fixture) get(apiVersion, kind, ns, name string) *unstructured.Unstructured {
	f.t.Helper()
	u := &unstructured.Unstructured{}
	u.SetAPIVersion(apiVersion)
	u.SetKind(kind)
	if err := f.c.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: name}, u); err != nil {
		f.t.Fatalf("get %s %s/%s: %v", kind, ns, name, err)
	}
	return u
}

const crdManifest = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
`

const widgetManifest = `
apiVersion: example.com/v1
kind: Widget
metadata: {name: w, namespace: default}
spec: {size: 3}
`

const deploymentManifest = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default, labels: {app: web}}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx}]
`
