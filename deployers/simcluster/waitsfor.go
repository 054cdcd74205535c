package simcluster

import (
	"context"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Wait is what the pods of a workload wait for (WaitsFor): an object they
// need that is missing, or a container that cannot start whatever exists.
// The zero Wait is nothing.
type Wait struct {
	// Missing is the first object the pods need that is missing, in the
	// words of Kubernetes' errors (`secret "NAME" not found`, or the key or
	// binding it lacks).
	Missing string
	// Reason is the kubelet's waiting reason of Container when its image
	// is what stops the pods (ReasonInvalidImageName), Message the
	// kubelet's message, Image the container's image.
	Reason, Container, Image, Message string
	// Outdated, for a StatefulSet with updateStrategy OnDelete, is how many
	// of its pods run an older revision than its template's (Revision),
	// which its controller replaces only when someone deletes them
	// (statefulset.go), of Replicas.
	Outdated, Replicas int32
	Revision           string
	// Claim, when the pods wait for a PersistentVolumeClaim that exists
	// but is not Bound, is its name, and ClaimPending why it stays
	// Pending (claimPending: its StorageClass does not exist, it waits for
	// its first consumer, a rule holds it), "" when that is not known.
	Claim, ClaimPending string
	// PodSecurity, when PodSecurity admission refuses the pods in their
	// namespace, is its reason (`violates PodSecurity "restricted:latest":
	// ...`, podsecurity.go).
	PodSecurity string
}

// WaitsFor says what the pods of workload ns/name of kind gvk, on the
// simulated cluster behind target, wait for (see prereqs.go): the first
// object they need that is missing, or the first container whose image
// the kubelet cannot parse, in the order the pods get to them; else, for a
// StatefulSet with updateStrategy OnDelete, how many of its pods run an
// older template (outdatedPods). It is the zero Wait when nothing stops
// them, and for an object that is not there or whose kind runs no pods. Hints use it to name why a workload never
// got ready: a simulated cluster keeps no pods to look at.
func (cs *Clusters) WaitsFor(ctx context.Context, target *lsv1alpha1.Target, gvk schema.GroupVersionKind, ns, name string) (Wait, error) {
	c, err := cs.ClusterFor(ctx, target)
	if err != nil {
		return Wait{}, err
	}
	c.set.mu.Lock()
	defer c.set.mu.Unlock()
	o, err := c.scheme.New(gvk)
	if err != nil {
		return Wait{}, nil
	}
	obj, ok := o.(client.Object)
	if !ok {
		return Wait{}, nil
	}
	if err := c.inner.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, obj); err != nil {
		if apierrors.IsNotFound(err) {
			return Wait{}, nil
		}
		return Wait{}, fmt.Errorf("simulated cluster %s: get %s %s/%s: %w", c.key, gvk.Kind, ns, name, err)
	}
	m, err := c.podsMissing(ctx, obj)
	if err != nil {
		return Wait{}, err
	}
	if m == nil {
		return outdatedPods(obj), nil
	}
	if m.podSecurity {
		return Wait{PodSecurity: m.why}, nil
	}
	if m.stall == stallImage {
		return Wait{Reason: m.reason(), Container: m.container, Image: m.image, Message: m.notFound()}, nil
	}
	if m.resource != "persistentvolumeclaim" || (m.why == "" && m.stall != stallBinding) {
		return Wait{Missing: m.notFound()}, nil
	}
	// The claim exists and is not Bound.
	w := Wait{Missing: m.why, Claim: m.name}
	if m.stall == stallBinding {
		w.Missing = fmt.Sprintf("persistentvolumeclaim %q is not bound", m.name)
	}
	pvc := &corev1.PersistentVolumeClaim{}
	if err := c.inner.Get(ctx, client.ObjectKey{Namespace: ns, Name: m.name}, pvc); err != nil {
		return Wait{}, fmt.Errorf("simulated cluster %s: get claim %s/%s: %w", c.key, ns, m.name, err)
	}
	if w.ClaimPending, err = c.claimPending(ctx, pvc); err != nil {
		return Wait{}, err
	}
	return w, nil
}

// outdatedPods is the Wait of a StatefulSet with updateStrategy OnDelete
// whose pods do not all run its update revision, the zero Wait for any
// other object.
func outdatedPods(obj client.Object) Wait {
	s, ok := obj.(*appsv1.StatefulSet)
	if !ok || s.Spec.UpdateStrategy.Type != appsv1.OnDeleteStatefulSetStrategyType || s.Status.ObservedGeneration != s.Generation {
		return Wait{}
	}
	r := replicas(s.Spec.Replicas)
	if s.Status.UpdatedReplicas >= r {
		return Wait{}
	}
	return Wait{Outdated: r - s.Status.UpdatedReplicas, Replicas: r, Revision: s.Status.UpdateRevision}
}
