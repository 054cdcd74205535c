package deployers

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/lscli/lscli/deployers/deployer"
	"github.com/lscli/lscli/internal/ids"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/gardener/landscaper/apis/core/v1alpha1/targettypes"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/reconcile"
)

// epoch is where virtual time starts in tests.
var epoch = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// itemKey names the deploy item every test works on.
var itemKey = types.NamespacedName{Namespace: "example", Name: "item"}

// harness drives a Framework for one deploy item the way the engine would,
// and records the item's phases on the virtual clock.
type harness struct {
	t       *testing.T
	clock   *reconcile.VirtualClock
	cluster *fakecluster.Cluster
	f       *Framework
	// trace has one entry per phase change: "+3m0s Progressing".
	trace []string
	// changes counts writes to the cluster.
	changes int
}

// newHarness returns a harness whose framework serves every type with d,
// over a cluster with the default Context and the kubernetes-cluster Target
// example/cluster.
func newHarness(t *testing.T, d deployer.Deployer) *harness {
	t.Helper()
	h := &harness{t: t, clock: reconcile.NewVirtualClock(epoch)}
	h.cluster = fakecluster.New(fakecluster.Options{Now: h.clock.Now})
	h.f = &Framework{Client: h.cluster, Clock: h.clock, Fallback: d, IDs: &testIDs,
		Info: lsv1alpha1.DeployerInformation{Name: "test"}}
	h.cluster.Watch(h.record)
	ctx := context.Background()
	h.must(h.cluster.Create(ctx, &lsv1alpha1.Context{ObjectMeta: metav1.ObjectMeta{Namespace: "example", Name: "default"}}))
	h.must(h.cluster.Create(ctx, &lsv1alpha1.Target{ObjectMeta: metav1.ObjectMeta{Namespace: "example", Name: "cluster"},
		Spec: lsv1alpha1.TargetSpec{Type: targettypes.KubernetesClusterTargetType}}))
	return h
}

func (h *harness) must(err error) {
	h.t.Helper()
	if err != nil {
		h.t.Fatal(err)
	}
}

// record notes phase changes of the deploy item.
func (h *harness) record(ev fakecluster.Event) {
	h.changes++
	di, ok := ev.New.(*lsv1alpha1.DeployItem)
	if !ok {
		return
	}
	switch {
	case ev.Type == fakecluster.Deleted:
		h.trace = append(h.trace, fmt.Sprintf("+%s gone", h.clock.Now().Sub(epoch)))
	case ev.Type == fakecluster.Modified && ev.Old.(*lsv1alpha1.DeployItem).Status.Phase != di.Status.Phase:
		h.trace = append(h.trace, fmt.Sprintf("+%s %s", h.clock.Now().Sub(epoch), orNone(string(di.Status.Phase))))
	}
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// item is a deploy item of type typ with a mock-style config, targeting
// example/cluster, in a new job.
func item(typ lsv1alpha1.DeployItemType, mutate ...func(*lsv1alpha1.DeployItem)) *lsv1alpha1.DeployItem {
	di := &lsv1alpha1.DeployItem{
		ObjectMeta: metav1.ObjectMeta{Namespace: itemKey.Namespace, Name: itemKey.Name,
			Labels: map[string]string{lsv1alpha1.ExecutionManagedNameLabel: "app"}},
		Spec: lsv1alpha1.DeployItemSpec{Type: typ, Target: &lsv1alpha1.ObjectReference{Name: "cluster", Namespace: "example"},
			Configuration: &runtime.RawExtension{Raw: []byte(`{}`)}},
		Status: lsv1alpha1.DeployItemStatus{JobID: "job-1", JobIDGenerationTime: &metav1.Time{Time: epoch}},
	}
	for _, m := range mutate {
		m(di)
	}
	return di
}

// create stores di.
func (h *harness) create(di *lsv1alpha1.DeployItem) {
	h.t.Helper()
	h.must(h.cluster.Create(context.Background(), di))
}

// deleteItem marks the (finished) item for deletion and starts a new job,
// as the execution controller does.
func (h *harness) deleteItem(annotations ...string) {
	h.t.Helper()
	ctx := context.Background()
	di := h.get()
	for _, a := range annotations {
		metav1.SetMetaDataAnnotation(&di.ObjectMeta, a, "true")
	}
	controllerutil.AddFinalizer(di, lsv1alpha1.LandscaperFinalizer)
	h.must(h.cluster.Update(ctx, di))
	h.must(h.cluster.Delete(ctx, di))
	di = h.get()
	di.Status.JobID = "job-2"
	h.must(h.cluster.UpdateStatus(ctx, di))
}

// get reads the item.
func (h *harness) get() *lsv1alpha1.DeployItem {
	h.t.Helper()
	di := &lsv1alpha1.DeployItem{}
	h.must(h.cluster.Get(context.Background(), itemKey, di))
	return di
}

// run calls the framework as the engine would until it asks for nothing,
// asks only for a re-poll that changes nothing (a fixed point), or virtual
// time passes limit (zero: a day).
func (h *harness) run(limit time.Duration) {
	h.t.Helper()
	if limit == 0 {
		limit = 24 * time.Hour
	}
	for range 1000 {
		before := h.changes
		res, err := h.f.Reconciler().Reconcile(context.Background(), itemKey)
		if err != nil {
			h.t.Fatalf("Reconcile: %v", err)
		}
		idle := !res.Deadline && before == h.changes
		next := h.clock.Now().Add(res.RequeueAfter)
		if res.RequeueAfter == 0 || idle || next.Sub(epoch) > limit {
			return
		}
		h.clock.Set(next)
	}
	h.t.Fatal("Reconcile did not settle in 1000 calls")
}

// testIDs derives the test-reconcile job IDs of the harness.
var testIDs = ids.NewSource(1)
