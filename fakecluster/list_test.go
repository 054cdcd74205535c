package fakecluster

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
)

// listFixture creates two owners and installations spread over two
// namespaces, with labels and owner references.
func listFixture(t *testing.T) (*Cluster, *lsv1alpha1.Installation, *lsv1alpha1.Installation) {
	t.Helper()
	c, _ := newTestCluster(t)
	parent, other := inst("a", "parent"), inst("b", "other")
	mustCreate(t, c, parent, other)
	mustCreate(t, c,
		inst("b", "z", withLabels("app", "web", "tier", "front"), withOwners(parent)),
		inst("a", "y", withLabels("app", "web", "tier", "back"), withOwners(parent, other)),
		inst("a", "x", withLabels("app", "db"), withOwners(other)),
		&lsv1alpha1.Target{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "t", Labels: map[string]string{"app": "web"},
			OwnerReferences: ownerRefs(parent)}},
	)
	return c, parent, other
}

func names(list *lsv1alpha1.InstallationList) []string {
	out := make([]string, len(list.Items))
	for i, it := range list.Items {
		out[i] = it.Namespace + "/" + it.Name
	}
	return out
}

func TestList(t *testing.T) {
	c, parent, other := listFixture(t)
	sel := func(s string) labels.Selector {
		l, err := labels.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	tests := []struct {
		name string
		opts ListOptions
		want []string
	}{
		{name: "everything, sorted", want: []string{"a/parent", "a/x", "a/y", "b/other", "b/z"}},
		{name: "namespace", opts: ListOptions{Namespace: "b"}, want: []string{"b/other", "b/z"}},
		{name: "label equality", opts: ListOptions{LabelSelector: sel("app=web")}, want: []string{"a/y", "b/z"}},
		{name: "two requirements", opts: ListOptions{LabelSelector: sel("app=web,tier!=back")}, want: []string{"b/z"}},
		{name: "set-based only", opts: ListOptions{LabelSelector: sel("app in (web,db)")}, want: []string{"a/x", "a/y", "b/z"}},
		{name: "single-value in", opts: ListOptions{LabelSelector: sel("app in (db)")}, want: []string{"a/x"}},
		{name: "exists", opts: ListOptions{LabelSelector: sel("tier")}, want: []string{"a/y", "b/z"}},
		{name: "label and namespace", opts: ListOptions{Namespace: "a", LabelSelector: sel("app=web")}, want: []string{"a/y"}},
		{name: "owner", opts: ListOptions{OwnerUID: parent.UID}, want: []string{"a/y", "b/z"}},
		{name: "owner and label", opts: ListOptions{OwnerUID: other.UID, LabelSelector: sel("app=db")}, want: []string{"a/x"}},
		{name: "owner and namespace", opts: ListOptions{OwnerUID: parent.UID, Namespace: "b"}, want: []string{"b/z"}},
		{name: "unknown owner", opts: ListOptions{OwnerUID: "nope"}, want: []string{}},
		{name: "unknown label", opts: ListOptions{LabelSelector: sel("app=none")}, want: []string{}},
		{name: "nothing", opts: ListOptions{LabelSelector: labels.Nothing()}, want: []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var list lsv1alpha1.InstallationList
			if err := c.List(context.Background(), &list, tt.opts); err != nil {
				t.Fatalf("List() error = %v", err)
			}
			if got := names(&list); !slices.Equal(got, tt.want) {
				t.Errorf("List() = %v, want %v", got, tt.want)
			}
			if list.ResourceVersion != formatRV(c.ResourceVersion()) {
				t.Errorf("list resourceVersion = %q, want %d", list.ResourceVersion, c.ResourceVersion())
			}
		})
	}
}

func TestListUsesIndexes(t *testing.T) {
	c, parent, _ := listFixture(t)
	for i := range 50 {
		mustCreate(t, c, inst("a", "filler-"+strings.Repeat("f", i+1), withLabels("app", "filler")))
	}
	gk := lsv1alpha1.SchemeGroupVersion.WithKind("Installation").GroupKind()
	tests := []struct {
		name string
		opts ListOptions
		max  int
	}{
		{name: "owner", opts: ListOptions{OwnerUID: parent.UID}, max: 2},
		{name: "label equality", opts: ListOptions{LabelSelector: labels.SelectorFromSet(labels.Set{"app": "web"})}, max: 2},
		{name: "smaller of owner and label", opts: ListOptions{OwnerUID: parent.UID,
			LabelSelector: labels.SelectorFromSet(labels.Set{"app": "filler"})}, max: 2},
		{name: "namespace", opts: ListOptions{Namespace: "b"}, max: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c.mu.Lock()
			n := len(c.store.candidates(gk, tt.opts))
			c.mu.Unlock()
			if n > tt.max {
				t.Errorf("List visits %d objects, want at most %d", n, tt.max)
			}
		})
	}
}

func TestListKeepsIndexesCurrent(t *testing.T) {
	ctx := context.Background()
	c, parent, other := listFixture(t)
	y := mustGet(t, c, "a", "y", &lsv1alpha1.Installation{})
	y.Labels = map[string]string{"app": "db"}
	y.OwnerReferences = ownerRefs(other)
	if err := c.Update(ctx, y); err != nil {
		t.Fatal(err)
	}
	if err := c.Delete(ctx, inst("b", "z")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		opts ListOptions
		want []string
	}{
		{name: "old label", opts: ListOptions{LabelSelector: labels.SelectorFromSet(labels.Set{"app": "web"})}, want: []string{}},
		{name: "new label", opts: ListOptions{LabelSelector: labels.SelectorFromSet(labels.Set{"app": "db"})}, want: []string{"a/x", "a/y"}},
		{name: "old owner", opts: ListOptions{OwnerUID: parent.UID}, want: []string{}},
		{name: "new owner", opts: ListOptions{OwnerUID: other.UID}, want: []string{"a/x", "a/y"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var list lsv1alpha1.InstallationList
			if err := c.List(ctx, &list, tt.opts); err != nil {
				t.Fatal(err)
			}
			if got := names(&list); !slices.Equal(got, tt.want) {
				t.Errorf("List() = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestLabelIndexFollowsSelectedKeys: the label index holds the label keys
// a List has selected by, of the kinds it listed, from the objects stored
// before that List and after it, kept current through updates and deletes.
func TestLabelIndexFollowsSelectedKeys(t *testing.T) {
	ctx := context.Background()
	c, _, _ := listFixture(t)
	list := func(key, value string) []string {
		t.Helper()
		var l lsv1alpha1.InstallationList
		if err := c.List(ctx, &l, ListOptions{LabelSelector: labels.SelectorFromSet(labels.Set{key: value})}); err != nil {
			t.Fatal(err)
		}
		return names(&l)
	}
	indexedKeys := func() []string {
		c.mu.Lock()
		defer c.mu.Unlock()
		var out []string
		for lk, set := range c.store.labels {
			if set.len() > 0 {
				out = append(out, lk.gk.Kind+" "+lk.key+"="+lk.value)
			}
		}
		slices.Sort(out)
		return out
	}
	if got := indexedKeys(); len(got) != 0 {
		t.Fatalf("label index before any List by label = %v, want empty", got)
	}
	if got, want := list("app", "web"), []string{"a/y", "b/z"}; !slices.Equal(got, want) {
		t.Errorf("app=web = %v, want %v", got, want)
	}
	y := mustGet(t, c, "a", "y", &lsv1alpha1.Installation{})
	y.Labels = map[string]string{"app": "db", "tier": "back"}
	if err := c.Update(ctx, y); err != nil {
		t.Fatal(err)
	}
	if err := c.Delete(ctx, inst("b", "z")); err != nil {
		t.Fatal(err)
	}
	mustCreate(t, c, inst("a", "w", withLabels("app", "web", "tier", "front")))
	if got, want := list("app", "web"), []string{"a/w"}; !slices.Equal(got, want) {
		t.Errorf("app=web after the changes = %v, want %v", got, want)
	}
	if got, want := list("app", "db"), []string{"a/x", "a/y"}; !slices.Equal(got, want) {
		t.Errorf("app=db after the changes = %v, want %v", got, want)
	}
	want := []string{"Installation app=db", "Installation app=web"}
	if got := indexedKeys(); !slices.Equal(got, want) {
		t.Errorf("label index = %v, want %v (the Target's labels and tier were never selected by)", got, want)
	}
	if got, want := list("tier", "front"), []string{"a/w"}; !slices.Equal(got, want) {
		t.Errorf("tier=front = %v, want %v", got, want)
	}
	want = []string{"Installation app=db", "Installation app=web", "Installation tier=back", "Installation tier=front"}
	if got := indexedKeys(); !slices.Equal(got, want) {
		t.Errorf("label index after selecting by tier = %v, want %v", got, want)
	}
	f := c.Fork()
	mustCreate(t, f, inst("a", "v", withLabels("app", "web")))
	f.mu.Lock()
	n := len(f.store.candidates(lsv1alpha1.SchemeGroupVersion.WithKind("Installation").GroupKind(),
		ListOptions{LabelSelector: labels.SelectorFromSet(labels.Set{"app": "web"})}))
	f.mu.Unlock()
	if n != 2 {
		t.Errorf("a fork's List by app=web visits %d objects, want the 2 the fork's index names", n)
	}
}

func TestListOtherKinds(t *testing.T) {
	c, parent, _ := listFixture(t)
	mustCreate(t, c, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "a"}})
	tests := []struct {
		name string
		list ObjectList
		opts ListOptions
		want int
	}{
		{name: "targets by owner", list: &lsv1alpha1.TargetList{}, opts: ListOptions{OwnerUID: parent.UID}, want: 1},
		{name: "no secrets", list: &corev1.SecretList{}, want: 0},
		{name: "namespaces ignore the namespace option", list: &corev1.NamespaceList{}, opts: ListOptions{Namespace: "x"}, want: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := c.List(context.Background(), tt.list, tt.opts); err != nil {
				t.Fatal(err)
			}
			if got := len(mustItems(t, tt.list)); got != tt.want {
				t.Errorf("List() returned %d items, want %d", got, tt.want)
			}
		})
	}
}

func TestReadErrors(t *testing.T) {
	c, _ := newTestCluster(t)
	ctx := context.Background()
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	tests := []struct {
		name    string
		read    func() error
		errText string
	}{
		{name: "get missing", read: func() error {
			return c.Get(ctx, types.NamespacedName{Namespace: "ns", Name: "app"}, &lsv1alpha1.Installation{})
		}, errText: `installations.landscaper.gardener.cloud "app" not found`},
		{name: "get unregistered type", read: func() error {
			return c.Get(ctx, types.NamespacedName{Namespace: "ns", Name: "app"}, &unregistered{})
		}, errText: "no kind is registered"},
		{name: "list of a non-list type", read: func() error {
			return c.List(ctx, &metav1.Status{}, ListOptions{})
		}, errText: "not a typed list"},
		{name: "cancelled context", read: func() error {
			return c.Get(cancelled, types.NamespacedName{Namespace: "ns", Name: "app"}, &lsv1alpha1.Installation{})
		}, errText: "context canceled"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.read()
			if err == nil || !strings.Contains(err.Error(), tt.errText) {
				t.Fatalf("error = %v, want one containing %q", err, tt.errText)
			}
		})
	}
	if err := c.Get(ctx, types.NamespacedName{Namespace: "ns", Name: "app"}, &lsv1alpha1.Installation{}); !apierrors.IsNotFound(err) {
		t.Errorf("Get() error = %v, want NotFound", err)
	}
}

func TestReadsReturnCopies(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name   string
		mutate func(t *testing.T, c *Cluster, created *lsv1alpha1.Installation)
	}{
		{name: "object given to Create", mutate: func(t *testing.T, c *Cluster, created *lsv1alpha1.Installation) {
			created.Labels["app"] = "changed"
			created.Spec.Context = "changed"
		}},
		{name: "object from Get", mutate: func(t *testing.T, c *Cluster, _ *lsv1alpha1.Installation) {
			got := mustGet(t, c, "ns", "app", &lsv1alpha1.Installation{})
			got.Labels["app"] = "changed"
			got.Spec.Context = "changed"
		}},
		{name: "items from List", mutate: func(t *testing.T, c *Cluster, _ *lsv1alpha1.Installation) {
			var list lsv1alpha1.InstallationList
			if err := c.List(ctx, &list, ListOptions{}); err != nil {
				t.Fatal(err)
			}
			list.Items[0].Labels["app"] = "changed"
			list.Items[0].Spec.Context = "changed"
		}},
		{name: "objects from Objects", mutate: func(t *testing.T, c *Cluster, _ *lsv1alpha1.Installation) {
			got := c.Objects()[0].(*lsv1alpha1.Installation)
			got.Labels["app"] = "changed"
			got.Spec.Context = "changed"
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _ := newTestCluster(t)
			created := inst("ns", "app", withLabels("app", "web"))
			created.Spec.Context = "default"
			mustCreate(t, c, created)
			tt.mutate(t, c, created)
			got := mustGet(t, c, "ns", "app", &lsv1alpha1.Installation{})
			if got.Labels["app"] != "web" || got.Spec.Context != "default" {
				t.Errorf("stored object changed: labels %v, context %q", got.Labels, got.Spec.Context)
			}
			var list lsv1alpha1.InstallationList
			if err := c.List(ctx, &list, ListOptions{LabelSelector: labels.SelectorFromSet(labels.Set{"app": "web"})}); err != nil || len(list.Items) != 1 {
				t.Errorf("label index changed: %d items, error %v", len(list.Items), err)
			}
		})
	}
}

func mustItems(t *testing.T, list ObjectList) []Object {
	t.Helper()
	switch l := list.(type) {
	case *lsv1alpha1.TargetList:
		return toObjects(l.Items)
	case *corev1.SecretList:
		return toObjects(l.Items)
	case *corev1.NamespaceList:
		return toObjects(l.Items)
	}
	t.Fatalf("unexpected list type %T", list)
	return nil
}

func toObjects[T any, PT interface {
	*T
	Object
}](items []T) []Object {
	out := make([]Object, len(items))
	for i := range items {
		out[i] = PT(&items[i])
	}
	return out
}

// TestSelectIsList: Select gives the objects List gives, in List's order:
// copies that share nothing with the store, or with shared the stored
// objects themselves; a type that is not the list's kind is an error.
func TestSelectIsList(t *testing.T) {
	ctx := context.Background()
	c, _, _ := listFixture(t)
	sel := labels.SelectorFromSet(labels.Set{"app": "web"})
	opts := ListOptions{LabelSelector: sel}
	want := &lsv1alpha1.InstallationList{}
	if err := c.List(ctx, want, opts); err != nil {
		t.Fatal(err)
	}
	for _, shared := range []bool{false, true} {
		got, err := Select[*lsv1alpha1.Installation](ctx, c, &lsv1alpha1.InstallationList{}, opts, shared)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want.Items) {
			t.Fatalf("shared %v: %d objects, List gives %d", shared, len(got), len(want.Items))
		}
		for i, obj := range got {
			if !reflect.DeepEqual(*obj, want.Items[i]) {
				t.Errorf("shared %v, %d: %s/%s, List gives %s/%s", shared, i, obj.Namespace, obj.Name, want.Items[i].Namespace, want.Items[i].Name)
			}
			stored := &lsv1alpha1.Installation{}
			if err := c.GetUnsafe(ctx, types.NamespacedName{Namespace: obj.Namespace, Name: obj.Name}, stored); err != nil {
				t.Fatal(err)
			}
			if same := sameMap(obj.Labels, stored.Labels); same != shared {
				t.Errorf("shared %v, %s: shares its labels with the store: %v", shared, obj.Name, same)
			}
		}
	}
	if _, err := Select[*lsv1alpha1.Target](ctx, c, &lsv1alpha1.InstallationList{}, opts, true); err == nil {
		t.Error("selecting Targets from an InstallationList: no error")
	}
}

// sameMap reports whether a and b are the same map (not only equal ones).
func sameMap(a, b map[string]string) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}
