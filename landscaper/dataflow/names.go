package dataflow

import (
	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/gardener/landscaper/apis/core/v1alpha1/helper"
	"github.com/lscli/lscli/fakecluster"
)

// IsRoot reports whether inst is a root installation: one that no other
// installation controls.
func IsRoot(inst *lsv1alpha1.Installation) bool {
	owner := fakecluster.ControllerOf(inst)
	return owner == nil || owner.Kind != "Installation"
}

// ParentName returns the name of the installation that inst is a
// subinstallation of (its controller owner of kind Installation, or its
// label landscaper.gardener.cloud/encompassed-by), or "" for a root.
func ParentName(inst *lsv1alpha1.Installation) string {
	if owner := fakecluster.ControllerOf(inst); owner != nil && owner.Kind == "Installation" {
		return owner.Name
	}
	for _, ref := range inst.OwnerReferences {
		if ref.Kind == "Installation" {
			return ref.Name
		}
	}
	return inst.Labels[lsv1alpha1.EncompassedByLabel]
}

// ContextOf returns the data context inst imports from and exports to: ""
// for a root installation, "Inst.<parent>" for a subinstallation.
func ContextOf(inst *lsv1alpha1.Installation) string {
	parent := ParentName(inst)
	if parent == "" {
		return ""
	}
	return helper.DataObjectSourceFromInstallationName(parent)
}

// OwnContext returns the context inst writes its imports into and its
// subinstallations import from and export to: "Inst.<name>".
func OwnContext(inst *lsv1alpha1.Installation) string {
	return helper.DataObjectSourceFromInstallation(inst)
}

// ObjectName returns the name of the DataObject or Target of key in context.
func ObjectName(context, key string) string {
	return helper.GenerateDataObjectName(context, key)
}

// instName is "<namespace>/<name>" of inst, for messages.
func instName(inst *lsv1alpha1.Installation) string {
	return inst.Namespace + "/" + inst.Name
}
