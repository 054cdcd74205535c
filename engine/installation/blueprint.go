package installation

import (
	"context"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/landscaper/blueprint"
	"github.com/lscli/lscli/landscaper/components"
	"github.com/lscli/lscli/landscaper/dataflow"
)

// blueprintFor reads the blueprint of inst and its component versions (nil
// when it has none), as Landscaper does for every job: component versions
// from cfg.Components, the blueprint inline or, for spec.blueprint.ref,
// from the component version or cfg.Blueprints (see
// dataflow.InstallationBlueprint). Inline blueprints are parsed once per
// content, component blueprints once per registry. Errors are terminal and
// say what was looked for; the installation's status gets Landscaper's
// words for them (see dataflow.InstallationError).
func (c *Controller) blueprintFor(ctx context.Context, inst *lsv1alpha1.Installation) (*blueprint.Blueprint, *components.Tree, error) {
	bp, tree, err := dataflow.InstallationBlueprint(ctx, c.cfg.Cluster, inst,
		dataflow.Sources{Blueprints: c.cfg.Blueprints, Components: c.cfg.Components, Cache: &c.blueprints})
	return bp, tree, err
}
