package simcluster

import (
	storagev1 "k8s.io/api/storage/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// immutableCSIDriver is ValidateCSIDriverUpdate's part on what may not
// change (pkg/apis/storage/validation of Kubernetes v1.37): attachRequired,
// under the path kube-apiserver spells spec.attachedRequired, and
// volumeLifecycleModes. A CSI driver's install files that change
// attachRequired between releases fail to update on a real cluster; the
// object must be deleted first.
func immutableCSIDriver(d, old *storagev1.CSIDriver) field.ErrorList {
	errs := immutable(nil, d.Spec.AttachRequired, old.Spec.AttachRequired, specPath.Child("attachedRequired"))
	return immutable(errs, d.Spec.VolumeLifecycleModes, old.Spec.VolumeLifecycleModes, specPath.Child("volumeLifecycleModes"))
}
