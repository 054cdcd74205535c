package dryrun

import (
	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// maxGenerateNamePrefix is how much of a template name Landscaper keeps for
// a subinstallation's generateName.
const maxGenerateNamePrefix = 52

// newSubinstallation returns the subinstallation the installation
// controller creates for tmpl as a child of parent.
func newSubinstallation(parent *lsv1alpha1.Installation, tmpl *lsv1alpha1.InstallationTemplate, bp lsv1alpha1.BlueprintDefinition, cd *lsv1alpha1.ComponentDescriptorDefinition) *lsv1alpha1.Installation {
	prefix := tmpl.Name
	if len(prefix) > maxGenerateNamePrefix {
		prefix = prefix[:maxGenerateNamePrefix]
	}
	inst := &lsv1alpha1.Installation{
		ObjectMeta: metav1.ObjectMeta{
			GenerateName:    prefix + "-",
			Namespace:       parent.Namespace,
			Labels:          map[string]string{lsv1alpha1.EncompassedByLabel: parent.Name},
			Annotations:     map[string]string{lsv1alpha1.SubinstallationNameAnnotation: tmpl.Name},
			OwnerReferences: []metav1.OwnerReference{controllerRef(parent, "Installation")},
		},
		Spec: lsv1alpha1.InstallationSpec{
			Context:             parent.Spec.Context,
			ComponentDescriptor: cd,
			Blueprint:           bp,
			Imports:             tmpl.Imports,
			ImportDataMappings:  tmpl.ImportDataMappings,
			Exports:             tmpl.Exports,
			ExportDataMappings:  tmpl.ExportDataMappings,
			Optimization:        tmpl.Optimization,
		},
	}
	lsv1alpha1.SetDefaults_Installation(inst)
	return inst
}

// controllerRef returns a controller owner reference to owner of kind.
func controllerRef(owner metav1.Object, kind string) metav1.OwnerReference {
	yes := true
	return metav1.OwnerReference{APIVersion: lsv1alpha1.SchemeGroupVersion.String(), Kind: kind,
		Name: owner.GetName(), UID: owner.GetUID(), Controller: &yes, BlockOwnerDeletion: &yes}
}
