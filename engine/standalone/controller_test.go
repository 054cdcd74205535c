package standalone_test

import (
	"context"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/engine/standalone"
	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/internal/ids"
	"github.com/lscli/lscli/reconcile"
)

func TestStartsJobs(t *testing.T) {
	ctx := context.Background()
	clock := reconcile.NewVirtualClock(reconcile.DefaultStartTime)
	c := fakecluster.New(fakecluster.Options{Now: clock.Now})
	ctl := standalone.New(standalone.Options{Cluster: c, Clock: clock, IDs: ids.NewSource(1)})
	annotated := map[string]string{lsv1alpha1.OperationAnnotation: string(lsv1alpha1.ReconcileOperation)}
	owner := metav1.OwnerReference{APIVersion: "landscaper.gardener.cloud/v1alpha1", Kind: "Execution", Name: "e", UID: "u", Controller: new(true)}
	items := []*lsv1alpha1.DeployItem{
		{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "alone", Annotations: annotated}},
		{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "owned", Annotations: annotated, OwnerReferences: []metav1.OwnerReference{owner}}},
		{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "running", Annotations: annotated},
			Status: lsv1alpha1.DeployItemStatus{JobID: "j2", JobIDFinished: "j1"}},
		{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "idle"}},
	}
	for _, di := range items {
		if err := c.Create(ctx, di); err != nil {
			t.Fatal(err)
		}
	}
	r := reconcile.AsReconciler(c, ctl.DeployItems())
	for _, di := range items {
		if _, err := r.Reconcile(ctx, types.NamespacedName{Namespace: "ns", Name: di.Name}); err != nil {
			t.Fatal(err)
		}
	}
	get := func(name string) *lsv1alpha1.DeployItem {
		di := &lsv1alpha1.DeployItem{}
		if err := c.Get(ctx, types.NamespacedName{Namespace: "ns", Name: name}, di); err != nil {
			t.Fatal(err)
		}
		return di
	}
	if di := get("alone"); di.Status.JobID == "" || di.Status.JobIDGenerationTime == nil || di.Annotations[lsv1alpha1.OperationAnnotation] != "" {
		t.Errorf("stand-alone item with the reconcile annotation: jobID %q, generation time %v, annotations %v; want a job started",
			di.Status.JobID, di.Status.JobIDGenerationTime, di.Annotations)
	}
	if di := get("owned"); di.Status.JobID != "" {
		t.Errorf("owned item: jobID %q, want none (its owner starts its jobs)", di.Status.JobID)
	}
	if di := get("running"); di.Status.JobID != "j2" || di.Annotations[lsv1alpha1.OperationAnnotation] == "" {
		t.Errorf("running item: jobID %q, annotations %v; want the annotation to wait", di.Status.JobID, di.Annotations)
	}
	if di := get("idle"); di.Status.JobID != "" {
		t.Errorf("item without annotation: jobID %q, want none", di.Status.JobID)
	}

	// The first deletion of a finished stand-alone object starts its
	// deletion job.
	idle := get("idle")
	idle.Finalizers = []string{lsv1alpha1.LandscaperFinalizer}
	if err := c.Update(ctx, idle); err != nil {
		t.Fatal(err)
	}
	if err := c.Delete(ctx, idle); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Reconcile(ctx, types.NamespacedName{Namespace: "ns", Name: "idle"}); err != nil {
		t.Fatal(err)
	}
	if di := get("idle"); di.Status.JobID == "" {
		t.Errorf("deleted stand-alone item: no job started")
	}
}
