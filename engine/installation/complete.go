package installation

import (
	"context"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/landscaper/dataflow"
	"github.com/lscli/lscli/reconcile"
)

// opComplete is the operation of Landscaper's Completing errors.
const opComplete = "handlePhaseCompleting"

// complete is the Completing phase, in Landscaper's order: stale objects of
// the installation's own context are deleted (an error there is retried);
// Landscaper's init runs again (see prerequisites), where now everything is
// fatal, an unfinished predecessor included; the job fails if the imports
// changed during it (their hash is not the one Init recorded) or the spec
// did (generation != observedGeneration); then the exports are constructed
// (exportExecutions, exportDataMappings, validated against the blueprint)
// and written into its context, and it ends in Succeeded. The successors to
// trigger are recorded when the job finishes (see Controller.finishing).
func (c *Controller) complete(ctx context.Context, inst *lsv1alpha1.Installation) (lsv1alpha1.InstallationPhase, error) {
	cl := c.cfg.Cluster
	if err := dataflow.CleanupContext(ctx, cl, inst); err != nil {
		return "", reconcile.Wrap(err, opComplete, "CleanupContext")
	}
	bp, _, imps, err := c.prerequisites(ctx, inst, true)
	if err != nil {
		return "", err
	}
	if imps.Hash != inst.Status.ImportsHash {
		return "", reconcile.Fatal(reconcile.NewError(opComplete, "CheckImportsHash", "imports have changed"))
	}
	if inst.Generation != inst.Status.ObservedGeneration {
		return "", reconcile.Fatal(reconcile.NewError(opComplete, "CheckObservedGeneration", "installation spec has been changed",
			lsv1alpha1.ErrorForInfoOnly))
	}
	exps, err := dataflow.ConstructExports(ctx, cl, inst, bp, imps)
	if err != nil {
		return "", reconcile.Fatal(reconcile.Wrap(err, opComplete, "ConstructExports"))
	}
	if err := dataflow.WriteExports(ctx, cl, inst, exps); err != nil {
		c.writeFailed(inst, err)
		return "", reconcile.Fatal(reconcile.Wrap(err, opComplete, "CreateOrUpdateExports"))
	}
	c.setCondition(inst, lsv1alpha1.CreateExportsCondition, lsv1alpha1.ConditionTrue,
		"DataObjectsCreated", "DataObjects successfully created")
	return lsv1alpha1.InstallationPhases.Succeeded, nil
}
