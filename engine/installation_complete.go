package engine

import (
	"context"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
)

// complete is the Completing phase. The job fails if the spec changed during
// it (generation != observedGeneration): the exports could mix old and new.
// Otherwise the successors to trigger are recorded and it ends in Succeeded;
// the next reconcile triggers them.
func (c *installationController) complete(ctx context.Context, inst *lsv1alpha1.Installation) (lsv1alpha1.InstallationPhase, error) {
	if inst.Generation != inst.Status.ObservedGeneration {
		return "", terminalErrorf("SpecChanged",
			"the spec changed during the job (generation %d, observed %d): add a reconcile annotation to the root to start a new job",
			inst.Generation, inst.Status.ObservedGeneration)
	}
	deps, err := dependentsOf(ctx, c.cfg.Cluster, inst)
	if err != nil {
		return "", err
	}
	inst.Status.DependentsToTrigger = deps
	return lsv1alpha1.InstallationPhases.Succeeded, nil
}
