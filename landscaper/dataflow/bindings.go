package dataflow

import (
	"maps"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
)

// bindings returns the values every template execution of inst sees:
// imports, cd and components (the component descriptors, in schema v2 or
// v3alpha1, see templateComponents), blueprint and blueprintDef
// (spec.blueprint), and componentDescriptorDef (spec.componentDescriptor
// with the repository context it was resolved in; {} without one, as
// Landscaper's InjectComponentDescriptorRef sets an empty definition on an
// installation without a component before any execution renders).
func bindings(inst *lsv1alpha1.Installation, imps *Imports) (map[string]any, error) {
	cd, components, err := imps.components.Bindings()
	if err != nil {
		return nil, failWrap(inst, ReasonComponentDescriptor, err, "spec.componentDescriptor")
	}
	bpDef, err := blueprintValue(inst.Spec.Blueprint)
	if err != nil {
		return nil, err
	}
	values := map[string]any{
		"imports":      maps.Clone(imps.Values),
		"cd":           cd,
		"components":   components,
		"blueprint":    bpDef,
		"blueprintDef": bpDef,
	}
	values["componentDescriptorDef"] = map[string]any{}
	if inst.Spec.ComponentDescriptor != nil {
		def := effectiveRef(inst.Spec.ComponentDescriptor, imps.tree)
		if values["componentDescriptorDef"], err = genericOf(def); err != nil {
			return nil, err
		}
	}
	return values, nil
}
