package installation

import (
	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/landscaper/blueprint"
)

// maxCachedBlueprints bounds the blueprint cache of an engine.
const maxCachedBlueprints = 1024

// blueprintFor reads the blueprint of inst: inline, or spec.blueprint.ref
// resolved by cfg.Blueprints. The data flow of the blueprint (imports,
// templates, subinstallations, exports) is package dataflow. Errors are
// terminal and name the installation and what was looked for.
//
// Inline blueprints are parsed once per content: many installations share a
// blueprint and every job reads it twice (Init, Completing). The result is
// shared, so nobody may change it.
func blueprintFor(cfg *Options, inst *lsv1alpha1.Installation) (*blueprint.Blueprint, error) {
	inline := inst.Spec.Blueprint.Inline
	if inline == nil || cfg.blueprints == nil {
		return blueprint.ForInstallation(inst, cfg.Blueprints)
	}
	key := string(inline.Filesystem.RawMessage)
	if bp, ok := cfg.blueprints[key]; ok {
		return bp, nil
	}
	bp, err := blueprint.ForInstallation(inst, cfg.Blueprints)
	if err != nil {
		return nil, err
	}
	if len(cfg.blueprints) >= maxCachedBlueprints {
		clear(cfg.blueprints)
	}
	cfg.blueprints[key] = bp
	return bp, nil
}
