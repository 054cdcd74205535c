package fakecluster

import (
	"context"
	"slices"
	"testing"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestDelete(t *testing.T) {
	tests := []struct {
		name       string
		obj        *lsv1alpha1.Installation
		deletes    int
		wantExists bool
		wantEvents []string
	}{
		{name: "without finalizers removes", obj: inst("ns", "i"), deletes: 1,
			wantEvents: []string{"Deleted Installation ns/i 2"}},
		{name: "with finalizers marks", obj: inst("ns", "i", withFinalizer("f")), deletes: 1, wantExists: true,
			wantEvents: []string{"Modified Installation ns/i 2"}},
		{name: "second delete of a marked object is a no-op", obj: inst("ns", "i", withFinalizer("f")), deletes: 2,
			wantExists: true, wantEvents: []string{"Modified Installation ns/i 2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, clock := newTestCluster(t)
			mustCreate(t, c, tt.obj)
			rec := &recorder{}
			c.Watch(rec.watch)
			for range tt.deletes {
				clock.now = clock.now.Add(90 * time.Second)
				if err := c.Delete(context.Background(), inst("ns", "i")); err != nil {
					t.Fatalf("Delete() error = %v", err)
				}
			}
			got := &lsv1alpha1.Installation{}
			if exists(t, c, "ns", "i", got) != tt.wantExists {
				t.Fatalf("exists = %v, want %v", !tt.wantExists, tt.wantExists)
			}
			if want := epoch.Add(90 * time.Second); tt.wantExists &&
				(got.DeletionTimestamp == nil || !got.DeletionTimestamp.Time.Equal(want) || *got.DeletionGracePeriodSeconds != 0) {
				t.Errorf("deletionTimestamp = %v, want %v with grace period 0", got.DeletionTimestamp, want)
			}
			if s := rec.summary(); !slices.Equal(s, tt.wantEvents) {
				t.Errorf("events = %q, want %q", s, tt.wantEvents)
			}
		})
	}
}

func TestDeleteMissing(t *testing.T) {
	c, _ := newTestCluster(t)
	err := c.Delete(context.Background(), inst("ns", "i"))
	if !apierrors.IsNotFound(err) || err.Error() != `installations.landscaper.gardener.cloud "i" not found` {
		t.Errorf("Delete() error = %v, want NotFound", err)
	}
}

func TestRemoveLastFinalizer(t *testing.T) {
	ctx := context.Background()
	c, _ := newTestCluster(t)
	owner := inst("ns", "owner", withFinalizer("a"), withFinalizer("b"))
	mustCreate(t, c, owner)
	mustCreate(t, c, &lsv1alpha1.Execution{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "exec",
		OwnerReferences: ownerRefs(owner)}})
	rec := &recorder{}
	c.Watch(rec.watch)
	if err := c.Delete(ctx, owner); err != nil {
		t.Fatal(err)
	}
	for _, finalizers := range [][]string{{"b"}, nil} {
		obj := mustGet(t, c, "ns", "owner", &lsv1alpha1.Installation{})
		obj.Finalizers = finalizers
		if err := c.Update(ctx, obj); err != nil {
			t.Fatalf("Update(finalizers %v) error = %v", finalizers, err)
		}
	}
	want := []string{
		"Modified Installation ns/owner 3", // marked
		"Modified Installation ns/owner 4", // finalizer a removed
		"Deleted Installation ns/owner 5",  // last finalizer removed
		"Deleted Execution ns/exec 6",      // garbage collected
	}
	if s := rec.summary(); !slices.Equal(s, want) {
		t.Errorf("events = %q, want %q", s, want)
	}
	if exists(t, c, "ns", "owner", &lsv1alpha1.Installation{}) || exists(t, c, "ns", "exec", &lsv1alpha1.Execution{}) {
		t.Errorf("owner or dependent still exists")
	}
}

// gcTree is an Installation owning an Execution owning two DeployItems (one
// with a finalizer), and a DataObject owned by the Installation and by a
// second Installation.
func gcTree(t *testing.T, c *Cluster, instFinalizer bool) {
	t.Helper()
	root := inst("ns", "root")
	if instFinalizer {
		root.Finalizers = []string{"f"}
	}
	other := inst("ns", "other")
	mustCreate(t, c, root, other)
	exec := &lsv1alpha1.Execution{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "exec", OwnerReferences: ownerRefs(root)}}
	mustCreate(t, c, exec)
	mustCreate(t, c,
		&lsv1alpha1.DeployItem{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "di-plain", OwnerReferences: ownerRefs(exec)}},
		&lsv1alpha1.DeployItem{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "di-final", OwnerReferences: ownerRefs(exec),
			Finalizers: []string{"f"}}},
		&lsv1alpha1.DataObject{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "shared", OwnerReferences: ownerRefs(root, other)}},
		&lsv1alpha1.DataObject{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "mine", OwnerReferences: ownerRefs(root)}},
	)
}

func TestGarbageCollection(t *testing.T) {
	tests := []struct {
		name          string
		rootFinalizer bool
		delete        []Object
		wantEvents    []string
		wantLeft      []string
	}{
		{name: "cascade", delete: []Object{inst("ns", "root")},
			wantEvents: []string{
				"Deleted Installation ns/root 8",
				"Deleted DataObject ns/mine 9",
				"Deleted Execution ns/exec 10",
				"Modified DeployItem ns/di-final 11",
				"Deleted DeployItem ns/di-plain 12",
			},
			wantLeft: []string{"DataObject ns/shared", "DeployItem ns/di-final (deleting)", "Installation ns/other"}},
		{name: "owner with finalizer keeps its dependents", rootFinalizer: true, delete: []Object{inst("ns", "root")},
			wantEvents: []string{"Modified Installation ns/root 8"},
			wantLeft: []string{"DataObject ns/mine", "DataObject ns/shared", "DeployItem ns/di-final", "DeployItem ns/di-plain",
				"Execution ns/exec", "Installation ns/other", "Installation ns/root (deleting)"}},
		{name: "dependent goes with its last owner", delete: []Object{inst("ns", "other"), inst("ns", "root")},
			wantEvents: []string{
				"Deleted Installation ns/other 8",
				"Deleted Installation ns/root 9",
				"Deleted DataObject ns/mine 10",
				"Deleted DataObject ns/shared 11",
				"Deleted Execution ns/exec 12",
				"Modified DeployItem ns/di-final 13",
				"Deleted DeployItem ns/di-plain 14",
			},
			wantLeft: []string{"DeployItem ns/di-final (deleting)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _ := newTestCluster(t)
			gcTree(t, c, tt.rootFinalizer)
			rec := &recorder{}
			c.Watch(rec.watch)
			for _, obj := range tt.delete {
				if err := c.Delete(context.Background(), obj); err != nil {
					t.Fatal(err)
				}
			}
			if s := rec.summary(); !slices.Equal(s, tt.wantEvents) {
				t.Errorf("events =\n%q\nwant\n%q", s, tt.wantEvents)
			}
			if left := inventory(c); !slices.Equal(left, tt.wantLeft) {
				t.Errorf("objects left =\n%q\nwant\n%q", left, tt.wantLeft)
			}
		})
	}
}

// inventory lists every stored object as "Kind ns/name", marking those with
// a deletionTimestamp.
func inventory(c *Cluster) []string {
	var out []string
	for _, obj := range c.Objects() {
		s := obj.GetObjectKind().GroupVersionKind().Kind + " " + obj.GetNamespace() + "/" + obj.GetName()
		if obj.GetDeletionTimestamp() != nil {
			s += " (deleting)"
		}
		out = append(out, s)
	}
	return out
}
