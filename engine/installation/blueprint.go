package installation

import (
	"context"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/landscaper/blueprint"
	"github.com/lscli/lscli/landscaper/components"
	"github.com/lscli/lscli/landscaper/dataflow"
)

// maxCachedBlueprints bounds the blueprint cache of an engine.
const maxCachedBlueprints = 1024

// blueprintFor reads the blueprint of inst and its component versions (nil
// when it has none), as Landscaper does for every job: component versions
// from cfg.Components, the blueprint inline or, for spec.blueprint.ref,
// from the component version or cfg.Blueprints (see
// dataflow.InstallationBlueprint). Errors are terminal and name the
// installation and what was looked for.
//
// Inline blueprints are parsed once per content: many installations share a
// blueprint and every job reads it twice (Init, Completing). Blueprints of
// component versions are cached by the registry. The result is shared, so
// nobody may change it.
func blueprintFor(ctx context.Context, cfg *Options, inst *lsv1alpha1.Installation) (*blueprint.Blueprint, *components.Tree, error) {
	src := dataflow.Sources{Blueprints: cfg.Blueprints, Components: cfg.Components}
	inline := inst.Spec.Blueprint.Inline
	if inline == nil || cfg.blueprints == nil {
		return dataflow.InstallationBlueprint(ctx, cfg.Cluster, inst, src)
	}
	tree, err := dataflow.ResolveComponents(ctx, cfg.Cluster, inst, cfg.Components)
	if err != nil {
		return nil, nil, err
	}
	key := string(inline.Filesystem.RawMessage)
	if bp, ok := cfg.blueprints[key]; ok {
		return bp, tree, nil
	}
	bp, err := blueprint.ForInstallation(inst, nil)
	if err != nil {
		return nil, nil, err
	}
	if len(cfg.blueprints) >= maxCachedBlueprints {
		clear(cfg.blueprints)
	}
	cfg.blueprints[key] = bp
	return bp, tree, nil
}
