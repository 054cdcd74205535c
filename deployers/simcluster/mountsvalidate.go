package simcluster

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// supportedPropagations are the mount propagation modes kube-apiserver
// accepts, in the order its error lists them.
var supportedPropagations = []corev1.MountPropagationMode{
	corev1.MountPropagationBidirectional, corev1.MountPropagationHostToContainer, corev1.MountPropagationNone,
}

// mountableVolumes are the names of the volumes the containers of spec,
// obj's pod spec, may mount: its volumes and, of a StatefulSet, its
// volumeClaimTemplates (kube-apiserver accepts their mounts; the
// StatefulSet controller adds the claims as volumes to each Pod).
func mountableVolumes(obj runtime.Object, spec *corev1.PodSpec) map[string]bool {
	names := map[string]bool{}
	for _, v := range spec.Volumes {
		names[v.Name] = true
	}
	if s, ok := obj.(*appsv1.StatefulSet); ok {
		for _, t := range s.Spec.VolumeClaimTemplates {
			names[t.Name] = true
		}
	}
	return names
}

// containerMountErrors are the errors of container c's volume mounts at
// fld, among the mountable volumes names (mountableVolumes), as kube-apiserver's
// ValidateVolumeMounts (k8s.io/kubernetes pkg/apis/core/validation) gives
// them for each mount in turn: a name is set and names a volume of the
// pod, a mountPath is set and unique within the container, and a
// mountPropagation is one kube knows, Bidirectional only for a
// privileged container (Longhorn's longhorn-manager mounts
// /var/lib/longhorn so, and runs privileged). As kube-apiserver does, the
// propagation's errors name the field of the list, not of the mount
// (volumeMounts.mountPropagation). SubPaths, volumeDevices and
// recursiveReadOnly are not checked.
func containerMountErrors(c corev1.Container, names map[string]bool, fld *field.Path) field.ErrorList {
	var errs field.ErrorList
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
