package fakecluster

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	k8stypes "k8s.io/apimachinery/pkg/types"
)

// persistFixture fills a cluster with several kinds, a deletion mark and a
// removed object, so that resourceVersions have gaps.
func persistFixture(t *testing.T) *Cluster {
	t.Helper()
	ctx := context.Background()
	c, _ := newTestCluster(t)
	root := inst("ns", "root", withLabels("app", "web"), withFinalizer("f"))
	mustCreate(t, c, inst("b", "z"), root, inst("ns", "gone"))
	mustCreate(t, c,
		&lsv1alpha1.Execution{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "exec", OwnerReferences: ownerRefs(root)}},
		&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "s"}, Data: map[string][]byte{"k": []byte("v")}},
		&lsv1alpha1.Target{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "t"}},
		&lsv1alpha1.DataObject{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "do"}, Data: lsv1alpha1.NewAnyJSON([]byte(`{"a":1}`))},
		&lsv1alpha1.Context{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "default"}},
	)
	if err := c.Delete(ctx, inst("ns", "gone")); err != nil {
		t.Fatal(err)
	}
	if err := c.Delete(ctx, root); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestObjectsRestoreRoundTrip(t *testing.T) {
	ctx := context.Background()
	src := persistFixture(t)
	objs := src.Objects()
	wantOrder := []string{"Context ns/default", "DataObject ns/do", "Execution ns/exec", "Installation b/z",
		"Installation ns/root (deleting)", "Secret ns/s", "Target a/t"}
	if got := inventory(src); !slices.Equal(got, wantOrder) {
		t.Fatalf("Objects() =\n%q\nwant\n%q", got, wantOrder)
	}
	dst, _ := newTestCluster(t)
	rec := &recorder{}
	dst.Watch(rec.watch)
	if err := dst.Restore(objs); err != nil {
		t.Fatalf("Restore() error = %v", err)
	}
	if !reflect.DeepEqual(dst.Objects(), objs) {
		t.Errorf("Objects() after Restore differ from the saved objects")
	}
	if dst.ResourceVersion() != src.ResourceVersion() || len(rec.events) != 0 {
		t.Errorf("resourceVersion %d (want %d), events %q (want none)", dst.ResourceVersion(), src.ResourceVersion(), rec.summary())
	}
	// Indexes are rebuilt: a label list works and removing the root
	// collects its Execution.
	var list lsv1alpha1.InstallationList
	if err := dst.List(ctx, &list, ListOptions{LabelSelector: labels.SelectorFromSet(labels.Set{"app": "web"})}); err != nil || len(list.Items) != 1 {
		t.Fatalf("label list: %d items, error %v", len(list.Items), err)
	}
	root := list.Items[0]
	root.Finalizers = nil
	if err := dst.Update(ctx, &root); err != nil {
		t.Fatal(err)
	}
	if exists(t, dst, "ns", "exec", &lsv1alpha1.Execution{}) {
		t.Errorf("execution survived its owner's removal after Restore")
	}
	if want := src.ResourceVersion() + 2; dst.ResourceVersion() != want {
		t.Errorf("resourceVersion = %d, want %d (counter continues after the restored maximum)", dst.ResourceVersion(), want)
	}
}

func TestRestoreFillsMissingFields(t *testing.T) {
	c, _ := newTestCluster(t)
	objs := []Object{
		&lsv1alpha1.Installation{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "a", ResourceVersion: "7", UID: "u1", Generation: 3}},
		&lsv1alpha1.Installation{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "b"}},
	}
	if err := c.Restore(objs); err != nil {
		t.Fatal(err)
	}
	a := mustGet(t, c, "ns", "a", &lsv1alpha1.Installation{})
	b := mustGet(t, c, "ns", "b", &lsv1alpha1.Installation{})
	if a.ResourceVersion != "7" || a.UID != "u1" || a.Generation != 3 || a.Kind != "Installation" {
		t.Errorf("a = rv %s uid %s gen %d kind %q; want it as loaded, with its kind", a.ResourceVersion, a.UID, a.Generation, a.Kind)
	}
	if b.ResourceVersion != "8" || b.UID == "" {
		t.Errorf("b = rv %s uid %q; want rv 8 and a new uid", b.ResourceVersion, b.UID)
	}
}

func TestRestoreErrors(t *testing.T) {
	named := func(ns, name, rv, uid string) Object {
		return &lsv1alpha1.Installation{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, ResourceVersion: rv, UID: k8stypes.UID(uid)}}
	}
	tests := []struct {
		name    string
		seed    bool
		objs    []Object
		errText string
	}{
		{name: "duplicate object", objs: []Object{named("ns", "a", "1", "u1"), named("ns", "a", "2", "u2")},
			errText: "restore object 1: Installation ns/a: duplicate object"},
		{name: "duplicate uid", objs: []Object{named("ns", "a", "1", "u1"), named("ns", "b", "2", "u1")},
			errText: "Installation ns/b: uid u1 is also the uid of Installation ns/a"},
		{name: "no namespace", objs: []Object{named("", "a", "1", "u1")}, errText: "name and namespace are required"},
		{name: "bad resourceVersion", objs: []Object{named("ns", "a", "x", "u1")}, errText: `resourceVersion "x" is not a decimal number`},
		{name: "unregistered type", objs: []Object{&unregistered{}}, errText: "no kind is registered"},
		// The first object that fails is reported, with the check that
		// comes first for it: the duplicate before its resourceVersion,
		// a missing name before an earlier object's duplicate uid.
		{name: "duplicate with a bad resourceVersion", objs: []Object{named("ns", "a", "1", "u1"), named("ns", "a", "x", "u2")},
			errText: "restore object 1: Installation ns/a: duplicate object"},
		{name: "bad resourceVersion before a duplicate", objs: []Object{named("ns", "a", "x", "u1"), named("ns", "a", "1", "u2")},
			errText: `restore object 0: Installation ns/a: resourceVersion "x" is not a decimal number`},
		{name: "duplicate uid before no name", objs: []Object{named("ns", "a", "1", "u1"), named("ns", "b", "2", "u1"), named("ns", "", "3", "u3")},
			errText: "restore object 1: Installation ns/b: uid u1"},
		{name: "no name before a duplicate uid", objs: []Object{named("ns", "a", "1", "u1"), named("ns", "", "3", "u3"), named("ns", "b", "2", "u1")},
			errText: "restore object 1: Installation ns/: name and namespace are required"},
		{name: "cluster not empty", seed: true, objs: nil, errText: "restore: cluster is not empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _ := newTestCluster(t)
			if tt.seed {
				mustCreate(t, c, inst("ns", "x"))
			}
			err := c.Restore(tt.objs)
			if err == nil || !strings.Contains(err.Error(), tt.errText) {
				t.Fatalf("Restore() error = %v, want one containing %q", err, tt.errText)
			}
			if !tt.seed && len(c.Objects()) != 0 {
				t.Errorf("cluster holds %d objects after a failed Restore, want 0", len(c.Objects()))
			}
		})
	}
}

func TestRestoreOwnedIsRestore(t *testing.T) {
	objs := persistFixture(t).Objects()
	copied, _ := newTestCluster(t)
	if err := copied.Restore(objs); err != nil {
		t.Fatal(err)
	}
	owned, _ := newTestCluster(t)
	if err := owned.RestoreOwned(persistFixture(t).Objects()); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(owned.Objects(), copied.Objects()) || owned.ResourceVersion() != copied.ResourceVersion() {
		t.Error("RestoreOwned stored other objects than Restore")
	}
	// Restore keeps copies: changing what it was given changes nothing.
	objs[0].SetLabels(map[string]string{"changed": "yes"})
	if reflect.DeepEqual(copied.Objects()[0].GetLabels(), objs[0].GetLabels()) {
		t.Error("Restore stored the objects it was given, not copies")
	}
}

func TestSharedObjectsAreObjects(t *testing.T) {
	c := persistFixture(t)
	shared, copies := c.SharedObjects(), c.Objects()
	if !reflect.DeepEqual(shared, copies) {
		t.Fatal("SharedObjects differs from Objects")
	}
	if again := c.SharedObjects(); again[0] != shared[0] || c.Objects()[0] == copies[0] {
		t.Error("SharedObjects should give the stored objects, Objects new copies")
	}
}
