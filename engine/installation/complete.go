package installation

import (
	"context"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/landscaper/dataflow"
	"github.com/lscli/lscli/reconcile"
)

// complete is the Completing phase. The job fails if the spec changed during
// it (generation != observedGeneration) or the imports did (their hash is not
// the one Init recorded): the exports could mix old and new. Otherwise stale
// objects of the installation's own context are deleted, the exports are
// constructed (exportExecutions, exportDataMappings, validated against the
// blueprint) and written into its context, the successors to trigger are
// recorded, and it ends in Succeeded; the next reconcile triggers them.
func (c *Controller) complete(ctx context.Context, inst *lsv1alpha1.Installation) (lsv1alpha1.InstallationPhase, error) {
	if inst.Generation != inst.Status.ObservedGeneration {
		return "", reconcile.TerminalErrorf("SpecChanged",
			"the spec changed during the job (generation %d, observed %d): add a reconcile annotation to the root to start a new job",
			inst.Generation, inst.Status.ObservedGeneration)
	}
	cl := c.cfg.Cluster
	bp, tree, err := c.blueprintFor(ctx, inst)
	if err != nil {
		return "", err
	}
	imps, err := dataflow.ResolveImports(ctx, cl, inst, bp, tree)
	if err != nil {
		return "", err
	}
	if imps.Hash != inst.Status.ImportsHash {
		return "", reconcile.TerminalErrorf("ImportsChanged",
			"the imports changed during the job: add a reconcile annotation to the root to start a new job")
	}
	if err := dataflow.CleanupContext(ctx, cl, inst); err != nil {
		return "", err
	}
	exps, err := dataflow.ConstructExports(ctx, cl, inst, bp, imps)
	if err != nil {
		return "", err
	}
	if err := dataflow.WriteExports(ctx, cl, inst, exps); err != nil {
		return "", err
	}
	deps, err := dependentsOf(ctx, cl, inst)
	if err != nil {
		return "", err
	}
	inst.Status.DependentsToTrigger = deps
	return lsv1alpha1.InstallationPhases.Succeeded, nil
}
