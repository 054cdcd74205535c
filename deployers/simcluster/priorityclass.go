package simcluster

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	corev1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// kube-apiserver's Priority admission plugin (plugin/pkg/admission/priority
// of Kubernetes v1.37) resolves a pod's priorityClassName when the pod is
// created and refuses the pod when no PriorityClass of that name exists
// (the two system classes always do). A workload's template is not looked
// at: the Deployment, DaemonSet, ... is stored, and its controller's pods
// are refused (FailedCreate), as those of a workload whose ServiceAccount
// is missing (stallNoPods), until the class is created. Argo Workflows'
// install.yaml creates the PriorityClass its workflow-controller uses; an
// install that leaves cluster-scoped objects out (a Landscaper item with
// policy ignore on them) leaves the controller without pods.

// systemPriorityClasses are the classes kube-apiserver creates itself
// (scheduling.SystemPriorityClasses).
var systemPriorityClasses = map[string]bool{"system-node-critical": true, "system-cluster-critical": true}

// priorityClassGVK is the kind whose creation lets refused pods be
// created (priorityClassWritten).
var priorityClassGVK = schedulingv1.SchemeGroupVersion.WithKind("PriorityClass")

// missingPriorityClass is the plugin's reason for a pod whose
// priorityClassName names no PriorityClass.
func missingPriorityClass(name string) string {
	return fmt.Sprintf("no PriorityClass with name %s was found", name)
}

// priorityClassRefusal returns what the pods of workload obj (pod spec
// spec) miss when the Priority admission plugin refuses them: a
// stallNoPods naming the class, with the plugin's reason as why. It
// returns nil when the class exists or is a system class, and when their
// ServiceAccount is missing (ServiceAccount admission, earlier in the
// chain, refuses them first: findMissing).
func (c *Cluster) priorityClassRefusal(ctx context.Context, obj client.Object, spec *corev1.PodSpec) (*missingRef, error) {
	name := spec.PriorityClassName
	if name == "" || systemPriorityClasses[name] {
		return nil, nil
	}
	if sa := serviceAccountOf(spec); sa != "" {
		if ok, err := c.exists(ctx, &corev1.ServiceAccount{}, obj.GetNamespace(), sa); err != nil || !ok {
			return nil, err
		}
	}
	ok, err := c.exists(ctx, &schedulingv1.PriorityClass{}, "", name)
	if err != nil || ok {
		return nil, err
	}
	return &missingRef{stall: stallNoPods, resource: "priorityclass", name: name, why: missingPriorityClass(name)}, nil
}

// admitPriorityClass refuses the creation of Pod pod (named name, or its
// generateName) whose PriorityClass does not exist, with the plugin's
// Forbidden error.
func (c *Cluster) admitPriorityClass(ctx context.Context, pod *corev1.Pod, name string) error {
	m, err := c.priorityClassRefusal(ctx, pod, &pod.Spec)
	if m == nil || err != nil {
		return err
	}
	return apierrors.NewForbidden(corev1.Resource("pods"), name, errors.New(m.why))
}

// priorityClassWritten lets the workloads of every namespace that wait
// for an object be looked at again after a PriorityClass was written, as
// their controllers retry the pods the plugin refused.
func (c *Cluster) priorityClassWritten(ctx context.Context, gvk schema.GroupVersionKind, name string) error {
	if gvk != priorityClassGVK || len(c.waiting) == 0 {
		return nil
	}
	seen := map[string]bool{}
	for ref := range c.waiting {
		seen[ref.namespace] = true
	}
	for _, ns := range slices.Sorted(maps.Keys(seen)) {
		if err := c.recheck(ctx, gvk, ns, name); err != nil {
			return err
		}
	}
	return nil
}

// immutablePriorityClass is ValidatePriorityClassUpdate's part on what may
// not change (pkg/apis/scheduling/validation): value, and
// preemptionPolicy. A release that raises its PriorityClass's value
// fails to update on a real cluster; the class must be deleted first.
func immutablePriorityClass(pc, old *schedulingv1.PriorityClass) field.ErrorList {
	var errs field.ErrorList
	if pc.Value != old.Value {
		errs = append(errs, field.Forbidden(field.NewPath("value"), "may not be changed in an update."))
	}
	return immutable(errs, pc.PreemptionPolicy, old.PreemptionPolicy, field.NewPath("preemptionPolicy"))
}
