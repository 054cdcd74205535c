package dataflow

import (
	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	lshelper "github.com/gardener/landscaper/apis/core/v1alpha1/helper"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lscli/lscli/landscaper/blueprint"
	"github.com/lscli/lscli/landscaper/components"
)

// maxGenerateNamePrefix is how much of a template name Landscaper keeps for a
// subinstallation's generateName.
const maxGenerateNamePrefix = 52

// NewSubinstallation returns the subinstallation Landscaper creates for tmpl
// as a child of parent (createOrUpdateNewInstallation): generateName from
// the template name, the encompassed-by label, the subinstallation-name
// annotation and, when parent has it, cache-helm-charts, Landscaper's
// finalizer, a controller reference to parent, and the spec of
// SubinstallationSpec.
func NewSubinstallation(parent *lsv1alpha1.Installation, tmpl *lsv1alpha1.InstallationTemplate, spec lsv1alpha1.InstallationSpec) *lsv1alpha1.Installation {
	prefix := tmpl.Name
	if len(prefix) > maxGenerateNamePrefix {
		prefix = prefix[:maxGenerateNamePrefix]
	}
	ann := map[string]string{lsv1alpha1.SubinstallationNameAnnotation: tmpl.Name}
	if lshelper.HasCacheHelmChartsAnnotation(&parent.ObjectMeta) {
		ann[lsv1alpha1.CacheHelmChartsAnnotation] = "true"
	}
	return &lsv1alpha1.Installation{
		ObjectMeta: metav1.ObjectMeta{
			GenerateName:    prefix + "-",
			Namespace:       parent.Namespace,
			Labels:          map[string]string{lsv1alpha1.EncompassedByLabel: parent.Name},
			Annotations:     ann,
			OwnerReferences: []metav1.OwnerReference{ControllerRef(parent, "Installation")},
			Finalizers:      []string{lsv1alpha1.LandscaperFinalizer},
		},
		Spec: spec,
	}
}

// SubinstallationSpec is the spec of the subinstallation of tmpl: the
// template's imports, exports and mappings, the parent's context, and the
// template's blueprint (inline, a cd:// resource of the parent's component
// versions tree, a file of the parent's blueprint bp, or a reference
// resolved by r) with its component descriptor.
func SubinstallationSpec(parent *lsv1alpha1.Installation, bp *blueprint.Blueprint, tree *components.Tree, tmpl *lsv1alpha1.InstallationTemplate, r blueprint.Resolver) (lsv1alpha1.InstallationSpec, error) {
	spec := lsv1alpha1.InstallationSpec{
		Context:            parent.Spec.Context,
		Imports:            tmpl.Imports,
		ImportDataMappings: tmpl.ImportDataMappings,
		Exports:            tmpl.Exports,
		ExportDataMappings: tmpl.ExportDataMappings,
		Optimization:       tmpl.Optimization,
	}
	def, cd, err := SubinstallationBlueprint(parent, bp, tree, tmpl, r)
	if err != nil {
		return spec, err
	}
	spec.Blueprint = *def
	spec.ComponentDescriptor = cd
	return spec, nil
}

// ControllerRef returns a controller owner reference to owner, a Landscaper
// object of kind.
func ControllerRef(owner metav1.Object, kind string) metav1.OwnerReference {
	yes := true
	return metav1.OwnerReference{
		APIVersion:         lsv1alpha1.SchemeGroupVersion.String(),
		Kind:               kind,
		Name:               owner.GetName(),
		UID:                owner.GetUID(),
		Controller:         &yes,
		BlockOwnerDeletion: &yes,
	}
}
