package fakecluster_test

import (
	"context"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lscli/lscli/fakecluster"
)

// A watcher sees every change in order; deleting an object with finalizers
// only marks it, and removing the last finalizer removes it and its
// dependents.
func ExampleCluster_Watch() {
	ctx := context.Background()
	c := fakecluster.New(fakecluster.Options{})
	c.Watch(func(ev fakecluster.Event) {
		fmt.Println(ev.Type, ev.Kind, ev.New.GetName(), "rv", ev.New.GetResourceVersion())
	})

	inst := &lsv1alpha1.Installation{ObjectMeta: metav1.ObjectMeta{
		Namespace: "default", GenerateName: "app-", Finalizers: []string{"landscaper.gardener.cloud/finalizer"}}}
	_ = c.Create(ctx, inst)
	exec := &lsv1alpha1.Execution{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "app",
		OwnerReferences: []metav1.OwnerReference{{APIVersion: "landscaper.gardener.cloud/v1alpha1",
			Kind: "Installation", Name: inst.Name, UID: inst.UID}}}}
	_ = c.Create(ctx, exec)

	_ = c.Delete(ctx, inst)
	_ = c.Get(ctx, fakecluster.Key(inst), inst)
	inst.Finalizers = nil
	_ = c.Update(ctx, inst)
	fmt.Println("objects left:", len(c.Objects()))
	// Output:
	// Added Installation app-x9mzf rv 1
	// Added Execution app rv 2
	// Modified Installation app-x9mzf rv 3
	// Deleted Installation app-x9mzf rv 4
	// Deleted Execution app rv 5
	// objects left: 0
}
