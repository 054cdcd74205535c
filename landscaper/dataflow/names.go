package dataflow

import (
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/gardener/landscaper/apis/core/v1alpha1/helper"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// IsRoot reports whether inst is a root installation: one without an
// owner reference to an Installation, as Landscaper's IsRootInstallation
// decides (a controller reference or not; the encompassed-by label does not
// count).
func IsRoot(inst *lsv1alpha1.Installation) bool {
	return ParentRef(inst) == nil
}

// ParentName returns the name of the installation that inst is a
// subinstallation of (see ParentRef), or "" for a root.
func ParentName(inst *lsv1alpha1.Installation) string {
	if ref := ParentRef(inst); ref != nil {
		return ref.Name
	}
	return ""
}

// ParentRef returns the owner reference of inst to its parent, nil for a
// root: the first owner reference of kind Installation of Landscaper's API
// group, as Landscaper's GetParentInstallationName takes it. It points into
// inst: do not change it.
func ParentRef(inst *lsv1alpha1.Installation) *metav1.OwnerReference {
	refs := inst.OwnerReferences
	for i := range refs {
		if refs[i].Kind == "Installation" && isLandscaperGroup(refs[i].APIVersion) {
			return &refs[i]
		}
	}
	return nil
}

// isLandscaperGroup reports whether apiVersion, "<group>/<version>", is of
// Landscaper's API group (controller-utils' OwnerOfGVK compares the group
// only; an apiVersion that does not parse matches nothing).
func isLandscaperGroup(apiVersion string) bool {
	group, version, ok := strings.Cut(apiVersion, "/")
	return ok && group == lsv1alpha1.SchemeGroupVersion.Group && !strings.Contains(version, "/")
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
