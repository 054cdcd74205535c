package readiness

import (
	"context"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/cli-utils/pkg/kstatus/status"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// CheckDefault is Landscaper's default readiness check of the managed
// objects refs, in order: each must exist and pass Object. With
// failOnMissingObject false only the kinds Object has rules for are read.
func CheckDefault(ctx context.Context, c client.Client, refs []lsv1alpha1.TypedObjectReference, failOnMissingObject bool) error {
	return checkDefault(ctx, c, refs, failOnMissingObject, Object)
}

// checkDefault reads each relevant object and applies rule to it.
func checkDefault(ctx context.Context, c client.Client, refs []lsv1alpha1.TypedObjectReference, failOnMissing bool,
	rule func(*unstructured.Unstructured) error) error {
	for _, ref := range refs {
		u := objectFor(ref)
		if !failOnMissing && !HasRules(u) {
			continue
		}
		if err := c.Get(ctx, client.ObjectKeyFromObject(u), u); err != nil {
			return notReady(u, fmt.Errorf("unable to get %s %s/%s: %w", u.GroupVersionKind(), u.GetName(), u.GetNamespace(), err))
		}
		if err := rule(u); err != nil {
			return notReady(u, err)
		}
	}
	return nil
}

// HasRules reports whether Object has rules for u's kind (Pod, Deployment,
// ReplicaSet, StatefulSet, DaemonSet, ReplicationController).
func HasRules(u *unstructured.Unstructured) bool {
	switch u.GroupVersionKind().GroupKind().String() {
	case "Pod", "Deployment.apps", "ReplicaSet.apps", "StatefulSet.apps", "DaemonSet.apps", "ReplicationController":
		return true
	}
	return false
}

// Object applies Landscaper's readiness rule for u's kind and returns why u
// is not ready, or nil. Kinds without rules are ready.
func Object(u *unstructured.Unstructured) error {
	switch u.GroupVersionKind().GroupKind().String() {
	case "Pod":
		return typed(u, &corev1.Pod{}, checkPod)
	case "Deployment.apps":
		return typed(u, &appsv1.Deployment{}, checkDeployment)
	case "ReplicaSet.apps":
		return typed(u, &appsv1.ReplicaSet{}, checkReplicaSet)
	case "StatefulSet.apps":
		return typed(u, &appsv1.StatefulSet{}, checkStatefulSet)
	case "DaemonSet.apps":
		return typed(u, &appsv1.DaemonSet{}, checkDaemonSet)
	case "ReplicationController":
		return typed(u, &corev1.ReplicationController{}, checkReplicationController)
	}
	return nil
}

// typed converts u into obj and runs check on it.
func typed[T any](u *unstructured.Unstructured, obj *T, check func(*T) error) error {
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, obj); err != nil {
		return fmt.Errorf("unable to convert %s: %w", u.GroupVersionKind().Kind, err)
	}
	return check(obj)
}

// KStatus is the opt-in rule: u is ready when kstatus computes Current.
// u must hold int64 numbers (decode with utilyaml.NewYAMLOrJSONDecoder into
// *unstructured.Unstructured, or read it from a client), not float64.
func KStatus(u *unstructured.Unstructured) error {
	res, err := status.Compute(u)
	if err != nil {
		return fmt.Errorf("unable to compute status: %w", err)
	}
	if res.Status != status.CurrentStatus {
		return fmt.Errorf("status %s: %s", res.Status, res.Message)
	}
	return nil
}
