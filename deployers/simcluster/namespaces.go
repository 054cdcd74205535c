package simcluster

import (
	"context"
	"fmt"
	"slices"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// A Namespace is deleted as the namespace controller deletes it: its
// objects are deleted first; while some of them stay (held by finalizers),
// the Namespace stays too, with a deletionTimestamp and status.phase
// Terminating, and new objects in it are forbidden (NamespaceLifecycle
// admission). When the last of them is gone, so is the Namespace. The
// Namespace keeps the finalizer "kubernetes" in metadata.finalizers (the
// API server keeps it in spec.finalizers, which the fake client behind a
// simulated cluster does not honour) while it waits; an update that drops
// it does not end the wait.

// deleteNamespace deletes the objects in ns and then the Namespace, or marks
// it Terminating while objects stay. The caller holds the lock.
func (c *Cluster) deleteNamespace(ctx context.Context, obj client.Object, opts ...client.DeleteOption) error {
	if c.own != nil { // the simulation's own API server does not keep namespaces
		return c.inner.Delete(ctx, obj, opts...)
	}
	name := obj.GetName()
	nsObj := &corev1.Namespace{}
	if err := c.inner.Get(ctx, client.ObjectKey{Name: name}, nsObj); err != nil {
		return err
	}
	if err := c.emptyNamespace(ctx, name); err != nil {
		return err
	}
	left, err := c.namespaceContent(ctx, name)
	if err != nil {
		return err
	}
	if left > 0 && nsObj.DeletionTimestamp == nil {
		if !slices.Contains(nsObj.Finalizers, string(corev1.FinalizerKubernetes)) {
			nsObj.Finalizers = append(nsObj.Finalizers, string(corev1.FinalizerKubernetes))
		}
		if err := c.inner.Update(ctx, nsObj); err != nil {
			return fmt.Errorf("mark namespace %s terminating: %w", name, err)
		}
		nsObj.Status.Phase = corev1.NamespaceTerminating
		if err := c.inner.Status().Update(ctx, nsObj); err != nil {
			return fmt.Errorf("mark namespace %s terminating: %w", name, err)
		}
	}
	return c.inner.Delete(ctx, obj, opts...)
}

// namespaceContent counts the objects in ns.
func (c *Cluster) namespaceContent(ctx context.Context, ns string) (int, error) {
	n := 0
	for _, gvk := range c.tracker.kinds {
		if !c.namespaced(gvk) {
			continue
		}
		list := &unstructured.UnstructuredList{}
		list.SetGroupVersionKind(gvk.GroupVersion().WithKind(gvk.Kind + "List"))
		if err := c.inner.List(ctx, list, client.InNamespace(ns)); err != nil {
			return 0, fmt.Errorf("list %s in namespace %s: %w", gvk.Kind, ns, err)
		}
		n += len(list.Items)
	}
	return n, nil
}

// terminating returns the Namespace ns when it is being deleted, else nil.
func (c *Cluster) terminating(ctx context.Context, ns string) (*corev1.Namespace, error) {
	if ns == "" || c.own != nil {
		return nil, nil
	}
	nsObj := &corev1.Namespace{}
	if err := c.inner.Get(ctx, client.ObjectKey{Name: ns}, nsObj); err != nil {
		return nil, client.IgnoreNotFound(err)
	}
	if nsObj.DeletionTimestamp == nil {
		return nil, nil
	}
	return nsObj, nil
}

// forbidTerminating forbids creating obj of kind gvk in a terminating
// Namespace, in the NamespaceLifecycle admission's words.
func (c *Cluster) forbidTerminating(ctx context.Context, gvk schema.GroupVersionKind, ns, name string) error {
	nsObj, err := c.terminating(ctx, ns)
	if err != nil || nsObj == nil {
		return err
	}
	gr := schema.GroupResource{Group: gvk.Group, Resource: gvk.Kind}
	if m, err := c.mapper.RESTMapping(gvk.GroupKind(), gvk.Version); err == nil {
		gr = m.Resource.GroupResource()
	}
	return apierrors.NewForbidden(gr, name, fmt.Errorf("unable to create new content in namespace %s because it is being terminated", ns))
}

// finishNamespace removes the Namespace ns once it is terminating and empty.
// The caller holds the lock.
func (c *Cluster) finishNamespace(ctx context.Context, ns string) error {
	nsObj, err := c.terminating(ctx, ns)
	if err != nil || nsObj == nil {
		return err
	}
	left, err := c.namespaceContent(ctx, ns)
	if err != nil || left > 0 {
		return err
	}
	nsObj.Finalizers = slices.DeleteFunc(nsObj.Finalizers, func(f string) bool { return f == string(corev1.FinalizerKubernetes) })
	if err := c.inner.Update(ctx, nsObj); client.IgnoreNotFound(err) != nil {
		return fmt.Errorf("remove namespace %s: %w", ns, err)
	}
	return nil
}

// keepNamespaceFinalizer puts the finalizer "kubernetes" back on an update
// of a terminating Namespace that has objects left.
func (c *Cluster) keepNamespaceFinalizer(ctx context.Context, gvk schema.GroupVersionKind, obj client.Object) error {
	if gvk.GroupKind() != (schema.GroupKind{Kind: "Namespace"}) {
		return nil
	}
	nsObj, err := c.terminating(ctx, obj.GetName())
	if err != nil || nsObj == nil || !slices.Contains(nsObj.Finalizers, string(corev1.FinalizerKubernetes)) {
		return err
	}
	if left, err := c.namespaceContent(ctx, obj.GetName()); err != nil || left == 0 {
		return err
	}
	if fs := obj.GetFinalizers(); !slices.Contains(fs, string(corev1.FinalizerKubernetes)) {
		obj.SetFinalizers(append(fs, string(corev1.FinalizerKubernetes)))
	}
	return nil
}
