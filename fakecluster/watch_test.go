package fakecluster

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

func TestWatchEvents(t *testing.T) {
	ctx := context.Background()
	c, _ := newTestCluster(t)
	rec := &recorder{}
	c.Watch(rec.watch)
	obj := inst("ns", "i", withFinalizer("f"))
	steps := []func() error{
		func() error { return c.Create(ctx, obj) },
		func() error { obj.Spec.Context = "x"; return c.Update(ctx, obj) },
		func() error { return c.Update(ctx, obj) }, // no-op
		func() error { obj.Status.JobID = "job"; return c.UpdateStatus(ctx, obj) },
		func() error { return c.Delete(ctx, obj) },
		func() error { return c.Delete(ctx, obj) }, // no-op
		func() error { _ = c.Get(ctx, Key(obj), obj); obj.Finalizers = nil; return c.Update(ctx, obj) },
	}
	for i, step := range steps {
		if err := step(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
	tests := []struct {
		typ            EventType
		oldRV, newRV   string
		newGen         int64
		newHasDeletion bool
	}{
		{typ: Added, newRV: "1", newGen: 1},
		{typ: Modified, oldRV: "1", newRV: "2", newGen: 2},
		{typ: Modified, oldRV: "2", newRV: "3", newGen: 2},
		// Marking it for deletion moves the generation on, once: the
		// second Delete changes nothing.
		{typ: Modified, oldRV: "3", newRV: "4", newGen: 3, newHasDeletion: true},
		{typ: Deleted, oldRV: "4", newRV: "5", newGen: 3, newHasDeletion: true},
	}
	if len(rec.events) != len(tests) {
		t.Fatalf("events = %q, want %d", rec.summary(), len(tests))
	}
	for i, tt := range tests {
		t.Run(fmt.Sprintf("%d %s", i, tt.typ), func(t *testing.T) {
			ev := rec.events[i]
			oldRV := ""
			if ev.Old != nil {
				oldRV = ev.Old.GetResourceVersion()
			}
			if ev.Type != tt.typ || ev.Kind != "Installation" || oldRV != tt.oldRV || ev.New.GetResourceVersion() != tt.newRV ||
				ev.New.GetGeneration() != tt.newGen || (ev.New.GetDeletionTimestamp() != nil) != tt.newHasDeletion {
				t.Errorf("event = %s %s old rv %q new rv %q gen %d deleting %v; want %+v", ev.Type, ev.Kind, oldRV,
					ev.New.GetResourceVersion(), ev.New.GetGeneration(), ev.New.GetDeletionTimestamp() != nil, tt)
			}
		})
	}
}

// TestWatchEventsAreStable checks that the objects of an event do not change
// when the object is written again later: the store never changes an object
// it has stored, so events can share them without copying.
func TestWatchEventsAreStable(t *testing.T) {
	ctx := context.Background()
	c, _ := newTestCluster(t)
	var events []Event
	c.Watch(func(ev Event) { events = append(events, ev) })
	mustCreate(t, c, inst("ns", "i", withLabels("app", "web")))
	got := mustGet(t, c, "ns", "i", &lsv1alpha1.Installation{})
	got.Labels["app"] = "api"
	if err := c.Update(ctx, got); err != nil {
		t.Fatal(err)
	}
	if len(events) != 2 {
		t.Fatalf("got %d events, want 2", len(events))
	}
	if l := events[0].New.GetLabels()["app"]; l != "web" {
		t.Errorf("the Added event's object changed to app=%s after a later update", l)
	}
	if o, n := events[1].Old.GetLabels()["app"], events[1].New.GetLabels()["app"]; o != "web" || n != "api" {
		t.Errorf("Modified event old/new = %s/%s, want web/api", o, n)
	}
	var list lsv1alpha1.InstallationList
	if err := c.List(ctx, &list, ListOptions{LabelSelector: labels.SelectorFromSet(labels.Set{"app": "api"})}); err != nil || len(list.Items) != 1 {
		t.Errorf("label index: %d items, error %v", len(list.Items), err)
	}
}

func TestWatcherCanUseTheCluster(t *testing.T) {
	ctx := context.Background()
	c, _ := newTestCluster(t)
	var log []string
	// The first watcher reads the object and, for each new Installation,
	// creates an Execution: a write from inside a watcher.
	c.Watch(func(ev Event) {
		got := &lsv1alpha1.Installation{}
		if ev.Kind == "Installation" {
			log = append(log, fmt.Sprintf("A %s %s exists=%v", ev.Type, ev.New.GetName(),
				exists(t, c, ev.New.GetNamespace(), ev.New.GetName(), got)))
		} else {
			log = append(log, fmt.Sprintf("A %s %s %s", ev.Type, ev.Kind, ev.New.GetName()))
		}
		if ev.Type == Added && ev.Kind == "Installation" {
			mustCreate(t, c, &lsv1alpha1.Execution{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: ev.New.GetName()}})
		}
	})
	c.Watch(func(ev Event) { log = append(log, fmt.Sprintf("B %s %s %s", ev.Type, ev.Kind, ev.New.GetName())) })
	mustCreate(t, c, inst("ns", "i"))
	if err := c.Delete(ctx, inst("ns", "i")); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"A Added i exists=true",
		"B Added Installation i",
		"A Added Execution i",
		"B Added Execution i",
		"A Deleted i exists=false",
		"B Deleted Installation i",
	}
	if !slices.Equal(log, want) {
		t.Errorf("log =\n%q\nwant\n%q", log, want)
	}
}

func TestWatchConcurrentWrites(t *testing.T) {
	c, _ := newTestCluster(t)
	var mu sync.Mutex
	counts := map[EventType]int{}
	c.Watch(func(ev Event) {
		var list lsv1alpha1.InstallationList
		_ = c.List(context.Background(), &list, ListOptions{Namespace: ev.New.GetNamespace()})
		mu.Lock()
		counts[ev.Type]++
		mu.Unlock()
	})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 20 {
				obj := inst(fmt.Sprintf("ns%d", g), fmt.Sprintf("i%d", i))
				if err := c.Create(context.Background(), obj); err != nil {
					t.Error(err)
					return
				}
				if err := c.Delete(context.Background(), obj); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	if counts[Added] != 160 || counts[Deleted] != 160 || c.ResourceVersion() != 320 {
		t.Errorf("events %v, resourceVersion %d; want 160 Added, 160 Deleted, rv 320", counts, c.ResourceVersion())
	}
}
