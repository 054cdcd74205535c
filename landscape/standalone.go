package landscape

import (
	"context"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lscli/lscli/fakecluster"
)

// IsStandalone reports whether obj, of kind, is a stand-alone Execution or
// DeployItem: one that no Installation or Execution controls. lscli starts
// their jobs as it does the jobs of root installations (package
// engine/standalone).
func IsStandalone(kind string, obj metav1.Object) bool {
	return (kind == "Execution" || kind == "DeployItem") && metav1.GetControllerOf(obj) == nil
}

// Standalone returns every stand-alone Execution and DeployItem, Executions
// first, each sorted by namespace and name.
func Standalone(ctx context.Context, c *fakecluster.Cluster) ([]ObjectRef, error) {
	var out []ObjectRef
	execs := &lsv1alpha1.ExecutionList{}
	if err := c.List(ctx, execs, fakecluster.ListOptions{}); err != nil {
		return nil, err
	}
	for i := range execs.Items {
		if e := &execs.Items[i]; IsStandalone("Execution", e) {
			out = append(out, ObjectRef{Kind: "Execution", Namespace: e.Namespace, Name: e.Name})
		}
	}
	items := &lsv1alpha1.DeployItemList{}
	if err := c.List(ctx, items, fakecluster.ListOptions{}); err != nil {
		return nil, err
	}
	for i := range items.Items {
		if di := &items.Items[i]; IsStandalone("DeployItem", di) {
			out = append(out, ObjectRef{Kind: "DeployItem", Namespace: di.Namespace, Name: di.Name})
		}
	}
	return out, nil
}
