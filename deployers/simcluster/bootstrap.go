package simcluster

import (
	"context"
	"errors"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// systemNamespaces are the namespaces a new cluster has, as real objects.
var systemNamespaces = []string{metav1.NamespaceDefault, corev1.NamespaceNodeLease, metav1.NamespacePublic, metav1.NamespaceSystem}

// immortalNamespaces cannot be deleted: the API server's NamespaceLifecycle
// admission refuses it.
var immortalNamespaces = map[string]bool{metav1.NamespaceDefault: true, metav1.NamespaceSystem: true, metav1.NamespacePublic: true}

// bootstrap gives a new cluster what a real one has before anybody uses
// it: the system namespaces, and what the seeds that select it say exists.
func (c *Cluster) bootstrap(ctx context.Context) error {
	if err := c.createSystemNamespaces(ctx); err != nil {
		return err
	}
	return c.sowSeeds(ctx)
}

// createSystemNamespaces creates the system namespaces, except on the own
// API server, which does not keep namespaces.
func (c *Cluster) createSystemNamespaces(ctx context.Context) error {
	if c.own != nil {
		return nil
	}
	for _, name := range systemNamespaces {
		if err := c.createNamespace(ctx, name); err != nil {
			return err
		}
	}
	return nil
}

// upgrade brings a cluster saved by an older lscli up to date. Those kept
// the system namespaces implicit; an immortal namespace that is missing
// was never stored, so they are all created then.
func (c *Cluster) upgrade(ctx context.Context) error {
	if c.own != nil {
		return nil
	}
	err := c.inner.Get(ctx, client.ObjectKey{Name: metav1.NamespaceDefault}, &corev1.Namespace{})
	if !apierrors.IsNotFound(err) {
		return err
	}
	return c.createSystemNamespaces(ctx)
}

// createNamespace creates the Namespace name unless it exists.
func (c *Cluster) createNamespace(ctx context.Context, name string) error {
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}
	if err := c.inner.Create(ctx, ns); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("simulated cluster %s: create namespace %s: %w", c.key, name, err)
	}
	return nil
}

// checkDelete refuses what the API server's admission refuses to delete:
// the immortal namespaces.
func checkDelete(kind, name string) error {
	if kind == "Namespace" && immortalNamespaces[name] {
		return apierrors.NewForbidden(corev1.Resource("namespaces"), name, errors.New("this namespace may not be deleted"))
	}
	return nil
}
