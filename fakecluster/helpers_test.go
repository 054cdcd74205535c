package fakecluster

import (
	"context"
	"fmt"
	"testing"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/lscli/lscli/internal/ids"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// epoch is the fixed instant test clocks start at.
var epoch = time.Date(2006, 1, 2, 15, 4, 5, 0, time.UTC)

// testClock is a settable clock.
type testClock struct{ now time.Time }

func (c *testClock) Now() time.Time { return c.now }

// newTestCluster returns a cluster with a test clock at epoch and a fixed seed.
func newTestCluster(t testing.TB) (*Cluster, *testClock) {
	t.Helper()
	clock := &testClock{now: epoch}
	return New(Options{Now: clock.Now, IDs: ids.NewSource(7)}), clock
}

// recorder collects watch events.
type recorder struct{ events []Event }

func (r *recorder) watch(ev Event) { r.events = append(r.events, ev) }

// summary renders the events as "Type Kind ns/name rv" lines.
func (r *recorder) summary() []string {
	out := make([]string, len(r.events))
	for i, ev := range r.events {
		out[i] = fmt.Sprintf("%s %s %s/%s %s", ev.Type, ev.Kind, ev.New.GetNamespace(), ev.New.GetName(), ev.New.GetResourceVersion())
	}
	return out
}

type instOpt func(*lsv1alpha1.Installation)

func inst(ns, name string, opts ...instOpt) *lsv1alpha1.Installation {
	i := &lsv1alpha1.Installation{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	for _, o := range opts {
		o(i)
	}
	return i
}

func withLabels(kv ...string) instOpt {
	return func(i *lsv1alpha1.Installation) {
		i.Labels = map[string]string{}
		for j := 0; j+1 < len(kv); j += 2 {
			i.Labels[kv[j]] = kv[j+1]
		}
	}
}

func withOwners(owners ...Object) instOpt {
	return func(i *lsv1alpha1.Installation) { i.OwnerReferences = ownerRefs(owners...) }
}

func withFinalizer(f string) instOpt {
	return func(i *lsv1alpha1.Installation) { i.Finalizers = append(i.Finalizers, f) }
}

func ownerRefs(owners ...Object) []metav1.OwnerReference {
	refs := make([]metav1.OwnerReference, len(owners))
	for i, o := range owners {
		gvk := o.GetObjectKind().GroupVersionKind()
		refs[i] = metav1.OwnerReference{APIVersion: gvk.GroupVersion().String(), Kind: gvk.Kind, Name: o.GetName(), UID: o.GetUID()}
	}
	return refs
}

func mustCreate(t testing.TB, c *Cluster, objs ...Object) {
	t.Helper()
	for _, o := range objs {
		if err := c.Create(context.Background(), o); err != nil {
			t.Fatalf("create %s/%s: %v", o.GetNamespace(), o.GetName(), err)
		}
	}
}

// exists reports whether an object of obj's type named ns/name is stored;
// obj receives it.
func exists(t testing.TB, c *Cluster, ns, name string, obj Object) bool {
	t.Helper()
	err := c.Get(context.Background(), types.NamespacedName{Namespace: ns, Name: name}, obj)
	switch {
	case err == nil:
		return true
	case apierrors.IsNotFound(err):
		return false
	default:
		t.Fatalf("get %s/%s: %v", ns, name, err)
		return false
	}
}

func mustGet[T Object](t testing.TB, c *Cluster, ns, name string, obj T) T {
	t.Helper()
	if !exists(t, c, ns, name, obj) {
		t.Fatalf("get %s/%s: not found", ns, name)
	}
	return obj
}
