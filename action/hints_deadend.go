package action

import (
	"context"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/fakecluster"
)

// Deletions that fail the same way on every retry.
//
// A deploy item's deletion that no retry can get past (its Target is gone,
// or helm stops its uninstall at a pre-delete hook the API server rejects)
// leaves a root DeleteFailed; the generic hint "retry its deletion with
// lscli trigger" would send the user round in circles. These hints say so
// and name the way out, the delete-without-uninstall annotation, and they
// mark the root (RootState.RetryFails) so that the generic hint is left out.
// hintsIn collects them for an installation's tree, in its walk.

// deletionDeadEnds are the deletionDeadEnd hints of dis, whose deletion
// the user runs as root.
func deletionDeadEnds(dis []lsv1alpha1.DeployItem, root string) []string {
	var hints []string
	for i := range dis {
		if h := deletionDeadEnd(&dis[i], root); h != "" {
			hints = append(hints, h)
		}
	}
	return hints
}

// deletionDeadEnd is the hint for di when its deletion failed in a way that
// every retry repeats, "" otherwise: its Target does not exist (Landscaper's
// deployer library: NoTargetFound, pkg/deployer/lib/controller.go), or a
// chart's pre-delete hook is invalid as rendered (preDeleteHookHint). root
// is lscli's argument for the object whose deletion the user runs: an
// installation's name, "deployitem NAME" or "execution NAME".
func deletionDeadEnd(di *lsv1alpha1.DeployItem, root string) string {
	if di.Status.Phase != lsv1alpha1.DeployItemPhases.DeleteFailed {
		return ""
	}
	if le := di.Status.LastError; le != nil && le.Reason == "NoTargetFound" && di.Spec.Target != nil {
		ns := di.Spec.Target.Namespace
		if ns == "" {
			ns = di.Namespace
		}
		hint := fmt.Sprintf("DeployItem %s/%s: its Target %s/%s does not exist, so no deployer can uninstall what it "+
			"deployed and every retry fails the same way until the Target exists again: with the Target back, 'lscli trigger %s' "+
			"uninstalls it", di.Namespace, di.Name, ns, di.Spec.Target.Name, root)
		if withoutExecution(di) {
			// Only an Execution's deletion lets its items go without their
			// deployer (skipUninstall, pkg/landscaper/execution); the deployer
			// library fails an item without its Target before it reads the
			// annotation (pkg/deployer/lib/controller.go).
			return hint + fmt.Sprintf(", or with the Target back %s delete it without uninstalling; a deploy item without an "+
				"Execution cannot be deleted without uninstalling while its Target is missing, as its deployer fails it first",
				withoutUninstall(root))
		}
		return hint + fmt.Sprintf("; or %s delete it without uninstalling (what it deployed stays on the cluster)", withoutUninstall(root))
	}
	return preDeleteHookHint(di, root)
}

// withoutExecution reports whether di is a deploy item without an Execution.
func withoutExecution(di *lsv1alpha1.DeployItem) bool {
	return di.Labels[lsv1alpha1.ExecutionManagedByLabel] == ""
}

// withoutUninstall is the way out of a deletion that fails on every retry:
// the commands that delete root with the delete-without-uninstall
// annotation.
func withoutUninstall(root string) string {
	return fmt.Sprintf("'lscli delete %s --without-uninstall' and then 'lscli trigger %s'", root, root)
}

// standaloneDeadEnds are the deletionDeadEnd and finalizerDeadEnd hints
// of a stand-alone DeployItem, or of the deploy items of a stand-alone
// Execution, whose deletion the user runs as root; sims (may be nil)
// answers questions about the simulated clusters.
func standaloneDeadEnds(ctx context.Context, c *fakecluster.Cluster, sims SimulatedClusters, obj fakecluster.Object) ([]string, error) {
	var dis []lsv1alpha1.DeployItem
	var root string
	switch o := obj.(type) {
	case *lsv1alpha1.DeployItem:
		dis, root = []lsv1alpha1.DeployItem{*o}, "deployitem "+o.Name
	case *lsv1alpha1.Execution:
		if o.DeletionTimestamp == nil {
			return nil, nil
		}
		items, err := itemsOf(ctx, c, o)
		if err != nil {
			return nil, err
		}
		dis, root = items, "execution "+o.Name
	default:
		return nil, nil
	}
	held, err := finalizerDeadEnds(ctx, c, sims, dis, root) // hints_finalizer.go
	if err != nil {
		return nil, err
	}
	return append(deletionDeadEnds(dis, root), held...), nil
}
