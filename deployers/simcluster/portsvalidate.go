package simcluster

import (
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// servicePortKey is how kube-apiserver shows a Service port that repeats
// another's protocol and number: its internal ServicePort with only those
// two set, rendered with the Go field names in that type's order (k8s.io/
// kubernetes pkg/apis/core ServicePort, which has no JSON tags).
type servicePortKey struct {
	Name        string
	Protocol    corev1.Protocol
	AppProtocol *string
	Port        int32
	TargetPort  int32
	NodePort    int32
}

// validateServicePorts checks a Service's ports as kube-apiserver's
// ValidateService does (k8s.io/kubernetes pkg/apis/core/validation,
// compared with a real one in portsvalidate_realcluster_test.go): a
// Service that is neither headless (clusterIP None) nor ExternalName needs
// at least one port; with more than one each needs a name; names are DNS
// labels and unique; numbers are valid ports; a target port a valid
// number or port name; no two ports share protocol and number. A chart that builds its ports from the user's configuration
// (Vector's from customConfig's addresses; none for a role it does not
// know) gets there. It runs after defaulting (protocol TCP). Other fields
// are not validated.
func validateServicePorts(s *corev1.Service) error {
	ports := field.NewPath("spec", "ports")
	var errs field.ErrorList
	if len(s.Spec.Ports) == 0 && s.Spec.ClusterIP != corev1.ClusterIPNone && s.Spec.Type != corev1.ServiceTypeExternalName {
		errs = append(errs, field.Required(ports, ""))
	}
	names := map[string]bool{}
	for i, p := range s.Spec.Ports {
		at := ports.Index(i)
		switch {
		case p.Name == "" && len(s.Spec.Ports) > 1:
			errs = append(errs, field.Required(at.Child("name"), ""))
		case p.Name != "":
			for _, msg := range validation.IsDNS1123Label(p.Name) {
				errs = append(errs, field.Invalid(at.Child("name"), p.Name, msg))
			}
			if names[p.Name] {
				errs = append(errs, field.Duplicate(at.Child("name"), p.Name))
			}
			names[p.Name] = true
		}
		for _, msg := range validation.IsValidPortNum(int(p.Port)) {
			errs = append(errs, field.Invalid(at.Child("port"), p.Port, msg))
		}
		if p.TargetPort.Type == intstr.String {
			for _, msg := range validation.IsValidPortName(p.TargetPort.StrVal) {
				errs = append(errs, field.Invalid(at.Child("targetPort"), p.TargetPort.StrVal, msg))
			}
		} else {
			for _, msg := range validation.IsValidPortNum(p.TargetPort.IntValue()) {
				errs = append(errs, field.Invalid(at.Child("targetPort"), p.TargetPort.IntValue(), msg))
			}
		}
	}
	seen := map[servicePortKey]bool{}
	for i, p := range s.Spec.Ports {
		key := servicePortKey{Protocol: p.Protocol, Port: p.Port}
		if seen[key] {
			errs = append(errs, field.Duplicate(ports.Index(i), key))
		}
		seen[key] = true
	}
	if len(errs) > 0 {
		return apierrors.NewInvalid(corev1.SchemeGroupVersion.WithKind("Service").GroupKind(), s.Name, errs)
	}
	return nil
}

// validateContainers checks the containers and init containers of a
// workload's pod template, or a Pod's, as kube-apiserver's pod spec
// validation does (validateContainerPorts in k8s.io/kubernetes
// pkg/apis/core/validation): of the ports, a name is an IANA service name
// (at most 15 characters: why charts such as Vector's cut the names they
// make from the user's configuration) and unique within its container, a
// containerPort is set and a valid port number; after each container's
// ports, its volume mounts (containerMountErrors), then its requests and
// limits (containerResourceErrors). obj of another
// kind is left alone. Other fields of the pod spec are not validated here.
func validateContainers(obj runtime.Object) error {
	var (
		gk   schema.GroupKind
		name string
		spec *corev1.PodSpec
		at   = field.NewPath("spec", "template", "spec")
	)
	switch o := obj.(type) {
	case *appsv1.Deployment:
		gk, name, spec = appsKind("Deployment"), o.Name, &o.Spec.Template.Spec
	case *appsv1.StatefulSet:
		gk, name, spec = appsKind("StatefulSet"), o.Name, &o.Spec.Template.Spec
	case *appsv1.DaemonSet:
		gk, name, spec = appsKind("DaemonSet"), o.Name, &o.Spec.Template.Spec
	case *appsv1.ReplicaSet:
		gk, name, spec = appsKind("ReplicaSet"), o.Name, &o.Spec.Template.Spec
	case *batchv1.Job:
		gk, name, spec = batchv1.SchemeGroupVersion.WithKind("Job").GroupKind(), o.Name, &o.Spec.Template.Spec
	case *batchv1.CronJob:
		gk, name, spec = batchv1.SchemeGroupVersion.WithKind("CronJob").GroupKind(), o.Name, &o.Spec.JobTemplate.Spec.Template.Spec
		at = field.NewPath("spec", "jobTemplate", "spec", "template", "spec")
	case *corev1.Pod:
		gk, name, spec, at = corev1.SchemeGroupVersion.WithKind("Pod").GroupKind(), o.Name, &o.Spec, field.NewPath("spec")
	default:
		return nil
	}
	var errs field.ErrorList
	vols := mountableVolumes(obj, spec)
	for i, c := range spec.Containers {
		errs = append(errs, containerPortErrors(c.Ports, at.Child("containers").Index(i).Child("ports"))...)
		errs = append(errs, containerMountErrors(c, vols, at.Child("containers").Index(i).Child("volumeMounts"))...)
		errs = append(errs, containerResourceErrors(c.Resources, at.Child("containers").Index(i).Child("resources"))...) // resourcesvalidate.go
	}
	for i, c := range spec.InitContainers {
		errs = append(errs, containerPortErrors(c.Ports, at.Child("initContainers").Index(i).Child("ports"))...)
		errs = append(errs, containerMountErrors(c, vols, at.Child("initContainers").Index(i).Child("volumeMounts"))...)
		errs = append(errs, containerResourceErrors(c.Resources, at.Child("initContainers").Index(i).Child("resources"))...)
	}
	if len(errs) > 0 {
		return apierrors.NewInvalid(gk, name, errs)
	}
	return nil
}

// containerPortErrors are the errors of one container's ports at fld.
func containerPortErrors(ports []corev1.ContainerPort, fld *field.Path) field.ErrorList {
	var errs field.ErrorList
	names := map[string]bool{}
	for i, p := range ports {
		at := fld.Index(i)
		if p.Name != "" {
			msgs := validation.IsValidPortName(p.Name)
			for _, msg := range msgs {
				errs = append(errs, field.Invalid(at.Child("name"), p.Name, msg))
			}
			if len(msgs) == 0 && names[p.Name] {
				errs = append(errs, field.Duplicate(at.Child("name"), p.Name))
			}
			names[p.Name] = true
		}
		if p.ContainerPort == 0 {
			errs = append(errs, field.Required(at.Child("containerPort"), ""))
		} else {
			for _, msg := range validation.IsValidPortNum(int(p.ContainerPort)) {
				errs = append(errs, field.Invalid(at.Child("containerPort"), p.ContainerPort, msg))
			}
		}
	}
	return errs
}
