package simcluster

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// supportedPropagations are the mount propagation modes kube-apiserver
// accepts, in the order its error lists them.
var supportedPropagations = []corev1.MountPropagationMode{
	corev1.MountPropagationBidirectional, corev1.MountPropagationHostToContainer, corev1.MountPropagationNone,
}

// containerMountErrors are the errors of container c's volume mounts at
// fld, among the volumes of its pod spec, as kube-apiserver's
// ValidateVolumeMounts (k8s.io/kubernetes pkg/apis/core/validation) gives
// them for each mount in turn: a name is set and names a volume of the
// pod, a mountPath is set and unique within the container, and a
// mountPropagation is one kube knows, Bidirectional only for a
// privileged container (Longhorn's longhorn-manager mounts
// /var/lib/longhorn so, and runs privileged). As kube-apiserver does, the
// propagation's errors name the field of the list, not of the mount
// (volumeMounts.mountPropagation). SubPaths, volumeDevices and
// recursiveReadOnly are not checked.
func containerMountErrors(c corev1.Container, volumes []corev1.Volume, fld *field.Path) field.ErrorList {
	var errs field.ErrorList
	names := map[string]bool{}
	for _, v := range volumes {
		names[v.Name] = true
	}
	paths := map[string]bool{}
	privileged := c.SecurityContext != nil && c.SecurityContext.Privileged != nil && *c.SecurityContext.Privileged
	for i, m := range c.VolumeMounts {
		at := fld.Index(i)
		if m.Name == "" {
			errs = append(errs, field.Required(at.Child("name"), ""))
		}
		if !names[m.Name] {
			errs = append(errs, field.NotFound(at.Child("name"), m.Name))
		}
		if m.MountPath == "" {
			errs = append(errs, field.Required(at.Child("mountPath"), ""))
		}
		if paths[m.MountPath] {
			errs = append(errs, field.Invalid(at.Child("mountPath"), m.MountPath, "must be unique"))
		}
		paths[m.MountPath] = true
		errs = append(errs, propagationErrors(m.MountPropagation, privileged, fld.Child("mountPropagation"))...)
	}
	return errs
}

// propagationErrors are the errors of one mount's propagation p at fld.
func propagationErrors(p *corev1.MountPropagationMode, privileged bool, fld *field.Path) field.ErrorList {
	if p == nil {
		return nil
	}
	var errs field.ErrorList
	known := false
	for _, s := range supportedPropagations {
		known = known || *p == s
	}
	if !known {
		errs = append(errs, field.NotSupported(fld, *p, supportedPropagations))
	}
	if *p == corev1.MountPropagationBidirectional && !privileged {
		errs = append(errs, field.Forbidden(fld, "Bidirectional mount propagation is available only to privileged containers"))
	}
	return errs
}
