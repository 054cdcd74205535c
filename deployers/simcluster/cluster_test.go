package simcluster

import (
	"context"
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/cli-utils/pkg/kstatus/status"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func TestCustomResourceNeedsCRD(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	err := f.c.Create(ctx, obj(t, widgetManifest))
	if !meta.IsNoMatchError(err) {
		t.Fatalf("create Widget before its CRD: got %v, want a NoKindMatchError", err)
	}
	if err := f.c.List(ctx, listOf("example.com/v1", "Widget")); !meta.IsNoMatchError(err) {
		t.Fatalf("list Widgets before the CRD: got %v, want a NoKindMatchError", err)
	}
	f.create(crdManifest, widgetManifest)
	w := f.get("example.com/v1", "Widget", "default", "w")
	if size, _, _ := unstructured.NestedInt64(w.Object, "spec", "size"); size != 3 {
		t.Errorf("spec.size = %d, want 3", size)
	}
	m, err := f.c.RESTMapper().RESTMapping(schema.GroupKind{Group: "example.com", Kind: "Widget"}, "v1")
	if err != nil || m.Resource.Resource != "widgets" || m.Scope.Name() != meta.RESTScopeNameNamespace {
		t.Errorf("RESTMapping(Widget) = %+v, %v; want widgets, namespaced", m, err)
	}
	if err := f.c.Delete(ctx, obj(t, crdManifest)); err != nil {
		t.Fatal(err)
	}
	if err := f.c.Get(ctx, client.ObjectKey{Namespace: "default", Name: "w"}, obj(t, widgetManifest)); !meta.IsNoMatchError(err) {
		t.Errorf("get Widget after its CRD was deleted: got %v, want a NoKindMatchError", err)
	}
	f.create(crdManifest)
	if err := f.c.Get(ctx, client.ObjectKey{Namespace: "default", Name: "w"}, obj(t, widgetManifest)); !apierrors.IsNotFound(err) {
		t.Errorf("Widget survived the deletion of its CRD: %v", err)
	}
}

func listOf(apiVersion, kind string) *unstructured.UnstructuredList {
	l := &unstructured.UnstructuredList{}
	l.SetAPIVersion(apiVersion)
	l.SetKind(kind + "List")
	return l
}

func TestGeneration(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.create(deploymentManifest)
	steps := []struct {
		name   string
		change func(u *unstructured.Unstructured)
		want   int64
	}{
		{name: "create", change: nil, want: 1},
		{name: "label only", change: func(u *unstructured.Unstructured) { u.SetLabels(map[string]string{"x": "y"}) }, want: 1},
		{name: "spec", change: func(u *unstructured.Unstructured) {
			_ = unstructured.SetNestedField(u.Object, int64(3), "spec", "replicas")
		}, want: 2},
		{name: "same spec again", change: func(u *unstructured.Unstructured) {
			_ = unstructured.SetNestedField(u.Object, int64(3), "spec", "replicas")
		}, want: 2},
	}
	for _, s := range steps {
		u := f.get("apps/v1", "Deployment", "default", "web")
		if s.change != nil {
			s.change(u)
			if err := f.c.Update(ctx, u); err != nil {
				t.Fatalf("%s: %v", s.name, err)
			}
		}
		got := f.get("apps/v1", "Deployment", "default", "web")
		if got.GetGeneration() != s.want {
			t.Errorf("%s: generation = %d, want %d", s.name, got.GetGeneration(), s.want)
		}
		if og, _, _ := unstructured.NestedInt64(got.Object, "status", "observedGeneration"); og != s.want {
			t.Errorf("%s: status.observedGeneration = %d, want %d", s.name, og, s.want)
		}
	}
}

func TestServerSideApply(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	cm := obj(t, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"default"},"data":{"a":"1"}}`)
	if err := f.c.Patch(ctx, cm, client.Apply, client.FieldOwner("one")); err != nil {
		t.Fatalf("apply (create): %v", err)
	}
	cm = obj(t, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"default"},"data":{"a":"2"}}`)
	err := f.c.Patch(ctx, cm, client.Apply, client.FieldOwner("two"))
	if !apierrors.IsConflict(err) {
		t.Fatalf("apply by another manager: got %v, want a conflict", err)
	}
	if err := f.c.Patch(ctx, cm, client.Apply, client.FieldOwner("two"), client.ForceOwnership); err != nil {
		t.Fatalf("forced apply: %v", err)
	}
	got := f.get("v1", "ConfigMap", "default", "c")
	if v, _, _ := unstructured.NestedString(got.Object, "data", "a"); v != "2" || got.GetGeneration() != 0 {
		t.Errorf("after forced apply: data.a = %q, generation %d; want 2 and none (a ConfigMap has no generation)", v, got.GetGeneration())
	}
	for _, e := range got.GetManagedFields() {
		if e.Time == nil || !e.Time.Time.Equal(epoch) {
			t.Errorf("managedFields time of %s = %v, want the virtual clock %v", e.Manager, e.Time, epoch)
		}
	}
}

func TestNamespaces(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	cm := `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"app"}}`
	if err := f.c.Create(ctx, obj(t, cm)); !apierrors.IsNotFound(err) {
		t.Fatalf("create in a missing namespace: got %v, want NotFound", err)
	}
	f.create(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"app","namespace":"ignored"}}`, cm)
	if ns := f.get("v1", "Namespace", "", "app"); ns.GetNamespace() != "" {
		t.Errorf("cluster-scoped Namespace kept metadata.namespace %q", ns.GetNamespace())
	}
	if err := f.c.Delete(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "app"}}); err != nil {
		t.Fatal(err)
	}
	err := f.c.Get(ctx, client.ObjectKey{Namespace: "app", Name: "c"}, &corev1.ConfigMap{})
	if !apierrors.IsNotFound(err) {
		t.Errorf("ConfigMap survived the deletion of its namespace: %v", err)
	}
}

func TestDeletionUsesVirtualClock(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.create(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"default","finalizers":["example.com/keep"]}}`)
	f.clock.Step(time.Hour)
	if err := f.c.Delete(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "c"}}); err != nil {
		t.Fatal(err)
	}
	got := f.get("v1", "ConfigMap", "default", "c")
	if ts := got.GetDeletionTimestamp(); ts == nil || !ts.Time.Equal(epoch.Add(time.Hour)) {
		t.Errorf("deletionTimestamp = %v, want %v", ts, epoch.Add(time.Hour))
	}
	if ct := got.GetCreationTimestamp(); !ct.Time.Equal(epoch) || got.GetUID() == "" {
		t.Errorf("creationTimestamp = %v, uid %q; want %v and a uid", ct, got.GetUID(), epoch)
	}
}

// kstatusOf computes the kstatus of an object read from the cluster.
func kstatusOf(t *testing.T, u *unstructured.Unstructured) status.Status {
	t.Helper()
	res, err := status.Compute(u)
	if err != nil {
		t.Fatalf("kstatus of %s %s: %v", u.GetKind(), u.GetName(), err)
	}
	return res.Status
}

// TestWritesAnswerWithStoredObject: Create and Update fill in the caller's
// object as a real API server's answer does, for built-in and custom kinds.
func TestWritesAnswerWithStoredObject(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	for _, m := range []string{deploymentManifest, crdManifest, widgetManifest} {
		u := obj(t, m)
		if err := f.c.Create(ctx, u); err != nil {
			t.Fatal(err)
		}
		if ts := u.GetCreationTimestamp(); u.GetUID() == "" || ts.IsZero() || u.GetGeneration() != 1 {
			t.Errorf("%s after Create: uid %q, creationTimestamp %v, generation %d; want them set, generation 1",
				u.GetKind(), u.GetUID(), u.GetCreationTimestamp(), u.GetGeneration())
		}
	}
	u := f.get("apps/v1", "Deployment", "default", "web")
	_ = unstructured.SetNestedField(u.Object, int64(5), "spec", "replicas")
	if err := f.c.Update(ctx, u); err != nil {
		t.Fatal(err)
	}
	if u.GetGeneration() != 2 {
		t.Errorf("Deployment after Update: generation %d, want 2", u.GetGeneration())
	}
	typed := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "c", Namespace: "default"}}
	if err := f.c.Create(ctx, typed); err != nil {
		t.Fatal(err)
	}
	if typed.UID == "" {
		t.Errorf("typed ConfigMap after Create: no uid")
	}
}

// TestCRDWriteReadsOnlyThatCRD: keeping the served kinds up to date reads the
// CRD a write touched, not every CRD of the cluster, so a cluster of many
// CRDs does not get slower with each one (a write of one of N CRDs read all
// N before). Every kind stays served, and a deleted CRD takes its kind along.
func TestCRDWriteReadsOnlyThatCRD(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	const n = 40
	for i := range n {
		f.create(strings.NewReplacer("widgets.example.com", fmt.Sprintf("widgets.g%d.example.com", i),
			"group: example.com", fmt.Sprintf("group: g%d.example.com", i)).Replace(crdManifest))
	}
	if len(f.clusters.clusters) != 1 {
		t.Fatalf("%d clusters, want the one of the Target", len(f.clusters.clusters))
	}
	var c *Cluster
	for _, only := range f.clusters.clusters {
		c = only
	}
	// Each CRD is read when it is created and when the fake controller
	// establishes it: a few reads a CRD, not a number that grows with n.
	if c.crdsRead > 3*n {
		t.Errorf("creating %d CRDs read %d CRDs; want at most %d", n, c.crdsRead, 3*n)
	}
	for i := range n {
		gvk := schema.GroupVersionKind{Group: fmt.Sprintf("g%d.example.com", i), Version: "v1", Kind: "Widget"}
		if _, ok := c.served[gvk]; !ok {
			t.Fatalf("%s is not served", gvk)
		}
	}
	victim := obj(t, strings.NewReplacer("widgets.example.com", "widgets.g7.example.com").Replace(crdManifest))
	if err := f.c.Delete(ctx, victim); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.served[schema.GroupVersionKind{Group: "g7.example.com", Version: "v1", Kind: "Widget"}]; ok {
		t.Error("the kind of a deleted CRD is still served")
	}
	if len(c.served) != n-1 {
		t.Errorf("%d kinds served after one of %d CRDs went, want %d", len(c.served), n, n-1)
	}
	mapper := f.c.RESTMapper()
	if _, err := mapper.RESTMapping(schema.GroupKind{Group: "g7.example.com", Kind: "Widget"}, "v1"); !meta.IsNoMatchError(err) {
		t.Errorf("RESTMapping of the deleted CRD's kind: %v, want a NoKindMatchError", err)
	}
	for _, g := range []string{"g0.example.com", "g8.example.com", fmt.Sprintf("g%d.example.com", n-1)} {
		if m, err := mapper.RESTMapping(schema.GroupKind{Group: g, Kind: "Widget"}, "v1"); err != nil || m.Resource.Resource != "widgets" {
			t.Errorf("RESTMapping(%s Widget) = %+v, %v", g, m, err)
		}
	}
	f.create(strings.NewReplacer("widgets.example.com", "widgets.g7.example.com", "group: example.com", "group: g7.example.com").Replace(crdManifest))
	if _, err := mapper.RESTMapping(schema.GroupKind{Group: "g7.example.com", Kind: "Widget"}, "v1"); err != nil {
		t.Errorf("RESTMapping of the kind of a CRD created again: %v", err)
	}
}

// TestListBySelectorIsFilteredList: a List with a label selector (which the
// tracker filters before the fake client converts the objects) gives what
// filtering the whole List gives, in the same order, for typed and
// unstructured lists; and the List after it is whole again.
func TestListBySelectorIsFilteredList(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	for i := range 12 {
		f.create(fmt.Sprintf(`
apiVersion: v1
kind: Secret
metadata: {name: s%02d, namespace: default, labels: {owner: helm, name: r%d}}
type: helm.sh/release.v1
data: {release: %s}
`, 11-i, i%3, base64.StdEncoding.EncodeToString([]byte(fmt.Sprint(i)))))
	}
	sel := client.MatchingLabels{"owner": "helm", "name": "r1"}
	all, some := &corev1.SecretList{}, &corev1.SecretList{}
	if err := f.c.List(ctx, all, client.InNamespace("default")); err != nil {
		t.Fatal(err)
	}
	if err := f.c.List(ctx, some, client.InNamespace("default"), sel); err != nil {
		t.Fatal(err)
	}
	var want []corev1.Secret
	for _, s := range all.Items {
		if s.Labels["name"] == "r1" {
			want = append(want, s)
		}
	}
	if len(want) != 4 || !reflect.DeepEqual(some.Items, want) {
		t.Errorf("List by selector gave %d Secrets, filtering the List %d (or they differ)", len(some.Items), len(want))
	}
	u := listOf("v1", "Secret")
	if err := f.c.List(ctx, u, client.InNamespace("default"), sel); err != nil {
		t.Fatal(err)
	}
	if len(u.Items) != 4 || u.Items[0].GetName() != want[0].Name {
		t.Errorf("unstructured List by selector: %d items, first %q; want 4, %q", len(u.Items), u.Items[0].GetName(), want[0].Name)
	}
	again := &corev1.SecretList{}
	if err := f.c.List(ctx, again, client.InNamespace("default")); err != nil {
		t.Fatal(err)
	}
	if len(again.Items) != len(all.Items) {
		t.Errorf("the List after one by selector gave %d Secrets, want all %d", len(again.Items), len(all.Items))
	}
}

// TestCRDsServingOneKind: of two CRDs that serve one kind, the later by name
// serves it; when it goes, the other takes over, and the kind stays served.
func TestCRDsServingOneKind(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	gadgets := strings.NewReplacer("widgets.example.com", "gadgets.example.com", "plural: widgets", "plural: gadgets").Replace(crdManifest)
	f.create(crdManifest, gadgets)
	gk := schema.GroupKind{Group: "example.com", Kind: "Widget"}
	if m, err := f.c.RESTMapper().RESTMapping(gk, "v1"); err != nil || m.Resource.Resource != "widgets" {
		t.Fatalf("RESTMapping(Widget) = %+v, %v; want widgets (the CRD later by name)", m, err)
	}
	if err := f.c.Delete(ctx, obj(t, crdManifest)); err != nil {
		t.Fatal(err)
	}
	if m, err := f.c.RESTMapper().RESTMapping(gk, "v1"); err != nil || m.Resource.Resource != "gadgets" {
		t.Fatalf("after the widgets CRD went: RESTMapping(Widget) = %+v, %v; want gadgets", m, err)
	}
	f.create(widgetManifest)
}

// TestListByLabelsFollowsEveryWrite: Lists by labels, which the tracker
// answers from its label index, give what filtering the whole List gives
// after every kind of write: create, update, merge patch, server-side
// apply, delete, and the deletion of a namespace's objects with it.
func TestListByLabelsFollowsEveryWrite(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	rnd := rand.New(rand.NewPCG(1, 2))
	f.create("{apiVersion: v1, kind: Namespace, metadata: {name: other}}")
	namespaces := []string{"default", "other"}
	cm := func(ns, name, app string) *unstructured.Unstructured {
		return obj(t, fmt.Sprintf(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":%q,"namespace":%q,"labels":{"app":%q}}}`, name, ns, app))
	}
	check := func(step int) {
		t.Helper()
		for _, ns := range append(namespaces, "") {
			all := &corev1.ConfigMapList{}
			if err := f.c.List(ctx, all, client.InNamespace(ns)); err != nil {
				t.Fatal(err)
			}
			for _, app := range []string{"a", "b", "c"} {
				some := &corev1.ConfigMapList{}
				if err := f.c.List(ctx, some, client.InNamespace(ns), client.MatchingLabels{"app": app}); err != nil {
					t.Fatal(err)
				}
				var want []corev1.ConfigMap
				for _, c := range all.Items {
					if c.Labels["app"] == app {
						want = append(want, c)
					}
				}
				if len(some.Items) != len(want) || len(want) > 0 && !reflect.DeepEqual(some.Items, want) {
					t.Fatalf("step %d, namespace %q, app=%s: List by labels gave %d ConfigMaps, filtering the List %d (or they differ)",
						step, ns, app, len(some.Items), len(want))
				}
			}
		}
	}
	for step := range 300 {
		ns, name, app := namespaces[rnd.IntN(2)], fmt.Sprintf("c%d", rnd.IntN(8)), string(rune('a'+rnd.IntN(3)))
		var err error
		switch rnd.IntN(5) {
		case 0:
			err = f.c.Create(ctx, cm(ns, name, app))
		case 1:
			cur := &unstructured.Unstructured{}
			cur.SetAPIVersion("v1")
			cur.SetKind("ConfigMap")
			if err = f.c.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, cur); err == nil {
				cur.SetLabels(map[string]string{"app": app})
				err = f.c.Update(ctx, cur)
			}
		case 2:
			patch := client.RawPatch(types.MergePatchType, []byte(fmt.Sprintf(`{"metadata":{"labels":{"app":%q}}}`, app)))
			err = f.c.Patch(ctx, cm(ns, name, ""), patch)
		case 3:
			err = f.c.Patch(ctx, cm(ns, name, app), client.Apply, client.FieldOwner("test"), client.ForceOwnership)
		case 4:
			err = f.c.Delete(ctx, cm(ns, name, ""))
		}
		if err != nil && !apierrors.IsNotFound(err) && !apierrors.IsAlreadyExists(err) {
			t.Fatalf("step %d: %v", step, err)
		}
		check(step)
	}
	if err := f.c.Delete(ctx, obj(t, "{apiVersion: v1, kind: Namespace, metadata: {name: other}}")); err != nil {
		t.Fatal(err)
	}
	namespaces = namespaces[:1]
	check(-1)
}

// TestNoOpWritesAreNotStored: an Update, a merge Patch or a server-side
// apply that changes nothing is not stored, as a real API server does not
// store it: the object keeps its resourceVersion (Landscaper's manifest
// deployer sends its update again in every job). A write that changes
// something still gets a new one.
func TestNoOpWritesAreNotStored(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	const manifest = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"default"},"data":{"a":"1"}}`
	if err := f.c.Patch(ctx, obj(t, manifest), client.Apply, client.FieldOwner("one")); err != nil {
		t.Fatal(err)
	}
	rv := f.get("v1", "ConfigMap", "default", "c").GetResourceVersion()
	same := func(what string) {
		t.Helper()
		if got := f.get("v1", "ConfigMap", "default", "c").GetResourceVersion(); got != rv {
			t.Errorf("after %s: resourceVersion %s, want %s (not stored)", what, got, rv)
		}
	}
	if err := f.c.Patch(ctx, obj(t, manifest), client.Apply, client.FieldOwner("one")); err != nil {
		t.Fatal(err)
	}
	same("the same apply")
	u := f.get("v1", "ConfigMap", "default", "c")
	if err := f.c.Update(ctx, u); err != nil {
		t.Fatal(err)
	}
	same("an unchanged update")
	if u.GetResourceVersion() != rv {
		t.Errorf("the object the update answered with: resourceVersion %s, want %s", u.GetResourceVersion(), rv)
	}
	cur := f.get("v1", "ConfigMap", "default", "c")
	if err := f.c.Patch(ctx, cur.DeepCopy(), client.MergeFrom(cur)); err != nil {
		t.Fatal(err)
	}
	same("an empty merge patch")
	_ = unstructured.SetNestedField(u.Object, "2", "data", "a")
	if err := f.c.Update(ctx, u); err != nil {
		t.Fatal(err)
	}
	if got := f.get("v1", "ConfigMap", "default", "c").GetResourceVersion(); got == rv {
		t.Errorf("a changing update kept resourceVersion %s", rv)
	}
}
