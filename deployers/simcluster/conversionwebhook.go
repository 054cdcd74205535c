package simcluster

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/storage"
)

// conversionTimeout is the timeout kube-apiserver's conversion webhook
// client posts with (a conversion webhook has no timeoutSeconds).
const conversionTimeout = "30s"

// conversionWebhook is the conversion webhook the CRD name configures:
// its Service; ok false when it has none (a URL webhook is outside the
// cluster: taken as reachable).
func (c *Cluster) conversionWebhook(name string) (ref admissionregistrationv1.ServiceReference, ok bool) {
	set, has := c.crdSchemas[name]
	if !has || set.crd == nil {
		return ref, false
	}
	conv := set.crd.Spec.Conversion
	if conv == nil || conv.Strategy != apiextensionsv1.WebhookConverter || conv.Webhook == nil ||
		conv.Webhook.ClientConfig == nil || conv.Webhook.ClientConfig.Service == nil {
		return ref, false
	}
	s := conv.Webhook.ClientConfig.Service
	return admissionregistrationv1.ServiceReference{Namespace: s.Namespace, Name: s.Name, Path: s.Path, Port: s.Port}, true
}

// conversionURL is the address kube-apiserver posts a ConversionReview to
// for the webhook of Service ref, as its error names it.
func conversionURL(ref admissionregistrationv1.ServiceReference) string {
	port := int32(443)
	if ref.Port != nil {
		port = *ref.Port
	}
	path := ""
	if ref.Path != nil {
		path = *ref.Path
	}
	return "https://" + net.JoinHostPort(ref.Name+"."+ref.Namespace+".svc", strconv.Itoa(int(port))) + path + "?timeout=" + conversionTimeout
}

// conversionFailure is why kube-apiserver cannot convert a custom resource
// of kind gvk (the version asked for) by its CRD's webhook: the webhook's
// words (webhook_converter.go, "conversion webhook for GVK failed: ..."),
// with the reason the webhook could not be called that admission
// webhooks get (unreachable, webhookcall.go); nil when the kind needs no
// conversion, is converted by None, or the webhook can be called.
func (c *Cluster) conversionFailure(ctx context.Context, gvk schema.GroupVersionKind) (conversionRoute, error) {
	r, ok := c.routeOf(guessedResource(gvk))
	if !ok || !r.webhook {
		return r, nil
	}
	ref, ok := c.conversionWebhook(r.crd)
	if !ok {
		return r, nil
	}
	reason := c.unreachable(ctx, ref)
	if reason == nil {
		return r, nil
	}
	return r, &url.Error{Op: "Post", URL: conversionURL(ref), Err: reason}
}

// convertForWrite is the error kube-apiserver answers a create of a
// custom resource of kind gvk with when it must convert it to the storage
// version by a webhook it cannot call: the converter's error, status 500
// with no reason, as the storage's encoding returns it; nil when it can
// store it. The caller holds the lock.
func (c *Cluster) convertForWrite(ctx context.Context, gvk schema.GroupVersionKind) error {
	_, err := c.conversionFailure(ctx, gvk)
	if err == nil {
		return nil
	}
	return internalStatus(fmt.Sprintf("conversion webhook for %v failed: %v", gvk, err))
}

// internalStatus is the status kube-apiserver answers an error that is
// none (apierrors.FromObject's fallback): 500, no reason, its text.
func internalStatus(msg string) error {
	return &apierrors.StatusError{ErrStatus: metav1.Status{Status: metav1.StatusFailure, Code: http.StatusInternalServerError, Message: msg}}
}

// undecodable is why kube-apiserver cannot read the stored custom resource
// ns/name when it is asked for as kind gvk and must convert it from the
// storage version by a webhook it cannot call: the storage's undecodable
// object (k8s.io/apiserver pkg/storage/etcd3, corruptObjectError, at the
// object's revision), with the object's etcd key; nil when it can, or
// when nothing is stored under that name.
func (c *Cluster) undecodable(ctx context.Context, gvk schema.GroupVersionKind, ns, name string) (key string, err error) {
	r, err := c.conversionFailure(ctx, gvk)
	if err == nil {
		return "", nil
	}
	if !c.namespaced(gvk) {
		ns = ""
	}
	stored, getErr := c.tracker.ObjectTracker.Get(r.storedResource(), ns, name)
	if getErr != nil {
		return "", nil
	}
	m, accErr := meta.Accessor(stored)
	if accErr != nil {
		return "", nil
	}
	rev, _ := strconv.ParseInt(m.GetResourceVersion(), 10, 64)
	key = "/" + gvk.Group + "/" + c.served[gvk].plural + "/"
	if ns != "" {
		key += ns + "/"
	}
	return key + name, fmt.Errorf("object not decodable revision=%d: conversion webhook for %v failed: %v", rev, r.to, err)
}

// convertForRead is the error kube-apiserver answers a read (or a
// delete, which reads it first) of the stored custom resource ns/name asked for as kind gvk with when it
// cannot convert it (see undecodable): an InternalError of the storage's
// corrupt object; nil when it can, or when nothing is stored under that
// name (the read answers). The caller holds the lock.
func (c *Cluster) convertForRead(ctx context.Context, gvk schema.GroupVersionKind, ns, name string) error {
	key, err := c.undecodable(ctx, gvk, ns, name)
	if err != nil {
		return apierrors.NewInternalError(storage.NewCorruptObjError(key, err))
	}
	return nil
}

// convertForUpdate is the error kube-apiserver answers a write over the
// object ns/name (an update, patch or apply) asked for as kind gvk with
// when it cannot convert the stored object (see undecodable): status 500
// with its text, as the update's read returns it; when none is stored (an
// apply that creates it), convertForWrite's. The caller holds the lock.
func (c *Cluster) convertForUpdate(ctx context.Context, gvk schema.GroupVersionKind, ns, name string) error {
	if _, err := c.undecodable(ctx, gvk, ns, name); err != nil {
		return internalStatus(err.Error())
	}
	if !c.namespaced(gvk) {
		ns = ""
	}
	r, ok := c.routeOf(guessedResource(gvk))
	if !ok {
		return nil
	}
	if _, err := c.tracker.ObjectTracker.Get(r.storedResource(), ns, name); apierrors.IsNotFound(err) {
		return c.convertForWrite(ctx, gvk)
	}
	return nil
}

// guessedResource is the resource the fake client keeps gvk's objects
// under.
func guessedResource(gvk schema.GroupVersionKind) schema.GroupVersionResource {
	gvr, _ := meta.UnsafeGuessKindToResource(gvk)
	return gvr
}

// convertForList is the error kube-apiserver answers a list of the custom
// resources of kind gvk in ns (all namespaces when empty) with when it
// must convert them from the storage version by a webhook it cannot call:
// every stored object of the list's scope is undecodable, and the storage
// aggregates them (k8s.io/apiserver pkg/storage/etcd3,
// aggregatedStorageError.NewAPIStatusError: 500 StorageReadError, the
// first error in the message, each as a cause); nil when it can, or when
// nothing is stored. The caller holds the lock.
func (c *Cluster) convertForList(ctx context.Context, gvk schema.GroupVersionKind, ns string) error {
	r, err := c.conversionFailure(ctx, gvk)
	if err == nil {
		return nil
	}
	if !c.namespaced(gvk) {
		ns = ""
	}
	list, listErr := c.tracker.ObjectTracker.List(r.storedResource(), r.to, ns)
	if listErr != nil {
		return nil // the list answers
	}
	items, _ := meta.ExtractList(list)
	plural := c.served[gvk].plural
	var errs []string
	var causes []metav1.StatusCause
	for _, it := range items {
		m, accErr := meta.Accessor(it)
		if accErr != nil {
			continue
		}
		rev, _ := strconv.ParseInt(m.GetResourceVersion(), 10, 64)
		key := "/registry/" + gvk.Group + "/" + plural + "/"
		if m.GetNamespace() != "" {
			key += m.GetNamespace() + "/"
		}
		key += m.GetName()
		msg := storage.NewCorruptObjError(key, fmt.Errorf("object not decodable revision=%d: conversion webhook for %v failed: %v", rev, r.to, err)).Error()
		errs = append(errs, msg)
		causes = append(causes, metav1.StatusCause{Type: metav1.CauseTypeUnexpectedServerResponse, Field: key, Message: msg})
	}
	if len(errs) == 0 {
		return nil
	}
	resource := schema.GroupResource{Group: gvk.Group, Resource: plural}
	message := fmt.Sprintf("failed to read one or more %s from the storage: %v", resource.String(), errs[0])
	if len(errs) > 1 {
		message = fmt.Sprintf("%s (and %d more)", message, len(errs)-1)
	}
	return &apierrors.StatusError{ErrStatus: metav1.Status{Status: metav1.StatusFailure, Code: http.StatusInternalServerError,
		Reason: metav1.StatusReasonStoreReadError, Message: message,
		Details: &metav1.StatusDetails{Group: gvk.Group, Kind: plural, Name: "list", Causes: causes}}}
}
