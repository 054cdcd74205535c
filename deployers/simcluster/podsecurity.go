package simcluster

import (
	"context"
	"errors"
	"fmt"
	"reflect"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/pod-security-admission/api"
	"k8s.io/pod-security-admission/policy"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
)

// kube-apiserver's PodSecurity admission (k8s.io/pod-security-admission,
// on by default from Kubernetes 1.23) refuses to create a pod that
// violates the level its namespace enforces (label
// pod-security.kubernetes.io/enforce, with enforce-version). It judges
// pods only: a Deployment, StatefulSet, DaemonSet, ReplicaSet,
// ReplicationController or Job whose pod template violates the level is
// stored (with a warning, which Landscaper does not show), and its
// controller's pods are refused, as the pods of a workload whose
// ServiceAccount is missing are (stallNoPods). Pods that run are not
// looked at again when the namespace's labels change; a refused workload's
// controller retries, so a namespace whose level is relaxed lets its pods
// be created.

// podSecurityMinor is the first minor release of Kubernetes whose
// kube-apiserver enables PodSecurity admission by default.
const podSecurityMinor = 23

// podSecurityDefaults is kube-apiserver's policy for a namespace without
// labels: its default PodSecurityConfiguration (privileged, latest).
var podSecurityDefaults = api.Policy{
	Enforce: api.LevelVersion{Level: api.LevelPrivileged, Version: api.LatestVersion()},
	Audit:   api.LevelVersion{Level: api.LevelPrivileged, Version: api.LatestVersion()},
	Warn:    api.LevelVersion{Level: api.LevelPrivileged, Version: api.LatestVersion()},
}

// podSecurityRefusal returns what the pods of workload obj (pod spec
// spec) miss when PodSecurity admission refuses them in their namespace:
// a stallNoPods with podSecurity set and the plugin's reason as why, `violates
// PodSecurity "restricted:latest": ...`. It returns nil when they are
// admitted, when the cluster's Kubernetes version has no PodSecurity
// admission, and when their ServiceAccount is missing (ServiceAccount
// admission, a mutating plugin, refuses them first: findMissing).
func (c *Cluster) podSecurityRefusal(ctx context.Context, obj client.Object, spec *corev1.PodSpec) (*missingRef, error) {
	if sa := serviceAccountOf(spec); sa != "" {
		if ok, err := c.exists(ctx, &corev1.ServiceAccount{}, obj.GetNamespace(), sa); err != nil || !ok {
			return nil, err
		}
	}
	why, err := c.podSecurityViolation(ctx, obj.GetNamespace(), podMetaOf(obj), spec)
	if why == "" || err != nil {
		return nil, err
	}
	return &missingRef{stall: stallNoPods, podSecurity: true, why: why}, nil
}

// podSecurityViolation returns the reason PodSecurity admission refuses a
// pod with metadata meta and spec in namespace ns (`violates PodSecurity
// "LEVEL:VERSION": DETAIL`), or "" when it admits it. The namespace's
// labels give the policy as kube-apiserver reads them (api.PolicyToEvaluate:
// a label that does not parse counts as restricted, latest); "latest" is
// the newest policy of the cluster's Kubernetes version, as the plugin
// evaluates it with the server's emulation version.
func (c *Cluster) podSecurityViolation(ctx context.Context, ns string, meta *metav1.ObjectMeta, spec *corev1.PodSpec) (string, error) {
	if c.set.minor < podSecurityMinor || ns == "" {
		return "", nil
	}
	nsObj := &corev1.Namespace{}
	if err := c.inner.Get(ctx, client.ObjectKey{Name: ns}, nsObj); err != nil {
		if apierrors.IsNotFound(err) {
			return "", nil // the write fails on the missing namespace
		}
		return "", fmt.Errorf("simulated cluster %s: look up namespace %s: %w", c.key, ns, err)
	}
	p, _ := api.PolicyToEvaluate(nsObj.Labels, podSecurityDefaults)
	if p.Enforce.Level == api.LevelPrivileged {
		return "", nil
	}
	emulated := api.MajorMinorVersion(1, c.set.minor)
	evaluator, err := policy.NewEvaluator(policy.DefaultChecks(), &emulated)
	if err != nil {
		return "", fmt.Errorf("simulated cluster %s: PodSecurity checks: %w", c.key, err)
	}
	if meta == nil {
		meta = &metav1.ObjectMeta{}
	}
	result := policy.AggregateCheckResults(evaluator.EvaluatePod(p.Enforce, meta, spec))
	if result.Allowed {
		return "", nil
	}
	return fmt.Sprintf("violates PodSecurity %q: %s", p.Enforce.String(), result.ForbiddenDetail()), nil
}

// podMetaOf returns the metadata of the pods workload obj makes: its pod
// template's, or a Pod's own.
func podMetaOf(obj client.Object) *metav1.ObjectMeta {
	switch o := obj.(type) {
	case *appsv1.Deployment:
		return &o.Spec.Template.ObjectMeta
	case *appsv1.StatefulSet:
		return &o.Spec.Template.ObjectMeta
	case *appsv1.DaemonSet:
		return &o.Spec.Template.ObjectMeta
	case *appsv1.ReplicaSet:
		return &o.Spec.Template.ObjectMeta
	case *corev1.ReplicationController:
		if o.Spec.Template != nil {
			return &o.Spec.Template.ObjectMeta
		}
	case *batchv1.Job:
		return &o.Spec.Template.ObjectMeta
	case *corev1.Pod:
		return &o.ObjectMeta
	}
	return nil
}

// admitPodSecurity refuses the creation of Pod pod (named name, or its
// generateName) in namespace ns that PodSecurity admission refuses, with
// the plugin's Forbidden error.
func (c *Cluster) admitPodSecurity(ctx context.Context, ns string, pod *corev1.Pod, name string) error {
	why, err := c.podSecurityViolation(ctx, ns, &pod.ObjectMeta, &pod.Spec)
	if why == "" || err != nil {
		return err
	}
	return apierrors.NewForbidden(corev1.Resource("pods"), name, errors.New(why))
}

var namespaceGVK = schema.GroupVersionKind{Version: "v1", Kind: "Namespace"}

// namespaceWritten lets the workloads of namespace ns be looked at again
// after a write of the Namespace (its PodSecurity labels may have
// changed), as the controllers of workloads whose pods were refused retry
// them: those whose pods are admitted now are handled as any change would
// (control). Workloads whose pods are refused stay as they are: those that
// wait keep waiting, and those whose pods run are left alone, as a
// stricter level refuses new pods only.
func (c *Cluster) namespaceWritten(ctx context.Context, gvk schema.GroupVersionKind, ns string) error {
	if gvk != namespaceGVK {
		return nil
	}
	for _, list := range consumerLists() {
		if err := c.inner.List(ctx, list, client.InNamespace(ns)); err != nil {
			return fmt.Errorf("simulated cluster %s: list %T: %w", c.key, list, err)
		}
		items, err := meta.ExtractList(list)
		if err != nil {
			return fmt.Errorf("simulated cluster %s: %w", c.key, err)
		}
		for _, it := range items {
			o, ok := it.(client.Object)
			if !ok {
				continue
			}
			spec, makesPods := podSpecOf(o)
			if !makesPods {
				continue
			}
			if m, err := c.podSecurityRefusal(ctx, o, spec); m != nil || err != nil {
				if err != nil {
					return err
				}
				continue
			}
			wgvk, err := apiutil.GVKForObject(o, c.scheme)
			if err != nil {
				return fmt.Errorf("simulated cluster %s: %w", c.key, err)
			}
			if err := c.control(ctx, objectRef{gvk: wgvk, namespace: ns, name: o.GetName()}); err != nil {
				return err
			}
		}
	}
	return nil
}

// admitNamespaceLabels refuses the write of a Namespace (old: the stored
// one, nil on create) whose PodSecurity labels do not parse, as
// PodSecurity admission's ValidateNamespace does: on create always, on an
// update when the labels' errors changed (a namespace stored with bad
// labels before the plugin was on can still be written). Status writes
// are not looked at.
func (c *Cluster) admitNamespaceLabels(old, obj runtime.Object, statusWrite bool) error {
	if statusWrite || c.own != nil || c.set.minor < podSecurityMinor {
		return nil
	}
	ns, ok := asNamespace(obj)
	if !ok {
		return nil
	}
	_, errs := api.PolicyToEvaluate(ns.Labels, podSecurityDefaults)
	if len(errs) == 0 {
		return nil
	}
	if prev, ok := asNamespace(old); ok {
		if _, oldErrs := api.PolicyToEvaluate(prev.Labels, podSecurityDefaults); len(oldErrs) > 0 && reflect.DeepEqual(errs, oldErrs) {
			return nil
		}
	}
	return apierrors.NewInvalid(corev1.SchemeGroupVersion.WithKind("Namespace").GroupKind(), ns.Name, errs)
}

// asNamespace returns obj as a Namespace, typed or unstructured.
func asNamespace(obj runtime.Object) (*corev1.Namespace, bool) {
	switch o := obj.(type) {
	case *corev1.Namespace:
		return o, true
	case *unstructured.Unstructured:
		if o.GroupVersionKind() != namespaceGVK {
			return nil, false
		}
		ns := &corev1.Namespace{}
		if runtime.DefaultUnstructuredConverter.FromUnstructured(o.Object, ns) != nil {
			return nil, false
		}
		return ns, true
	}
	return nil, false
}

// admitValidating runs the validating admission the simulated cluster
// has, in kube-apiserver's plugin order: PodSecurity's check of Namespace
// labels, then ValidatingAdmissionPolicies (admitByPolicies).
func (c *Cluster) admitValidating(old, obj runtime.Object, statusWrite bool) error {
	if err := c.admitNamespaceLabels(old, obj, statusWrite); err != nil {
		return err
	}
	return c.admitByPolicies(old, obj, statusWrite)
}
