package engine

import (
	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/engine/blueprint"
)

// blueprintFor reads the blueprint of inst: inline, or spec.blueprint.ref
// resolved by cfg.Blueprints. The data flow of the blueprint (imports,
// templates, subinstallations, exports) is package dataflow. Errors are
// terminal and name the installation and what was looked for.
func blueprintFor(cfg *Config, inst *lsv1alpha1.Installation) (*blueprint.Blueprint, error) {
	return blueprint.ForInstallation(inst, cfg.Blueprints)
}
