package simcluster

import (
	"context"
	"fmt"
	"path"
	"sort"

	dockerref "github.com/distribution/reference"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Many install files take their webhook's serving certificate from
// cert-manager: Cluster API's core-components.yaml (and every provider's
// components) has an Issuer selfsigned-issuer and a Certificate
// serving-cert whose spec.secretName the controller Deployment mounts
// without optional. On a real cluster where cert-manager runs, its
// controller issues the Certificate at once and the Deployment starts; a
// simulated cluster runs no cert-manager, and the Deployment would wait for
// the Secret until the item's timeout. So while a Deployment of the
// cluster runs cert-manager's controller (an image whose repository ends
// in cert-manager-controller, with a ready replica), each cert-manager.io
// Certificate whose issuer (issuerRef, kind Issuer in the Certificate's
// namespace unless ClusterIssuer, group cert-manager.io) exists is taken
// to be issued: its Secret spec.secretName is created, unless it exists,
// as cert-manager writes it (type kubernetes.io/tls, keys ca.crt, tls.crt
// and tls.key, empty here; the annotations cert-manager.io/certificate-name,
// issuer-name, issuer-kind and issuer-group; label
// controller.cert-manager.io/fao), annotated with writtenByAnnotation.
// Without cert-manager's controller nothing is issued, as on a real cluster.
// The Certificate's status (its Ready condition) is not written.

// certificateGVK is cert-manager's Certificate, the one version it serves.
var certificateGVK = schema.GroupVersionKind{Group: "cert-manager.io", Version: "v1", Kind: "Certificate"}

// certManagerIssuerKinds are the issuer kinds of cert-manager's own group.
var certManagerIssuerKinds = map[string]bool{"Issuer": true, "ClusterIssuer": true}

// certManagerControllerImage is the last path element of the repository of
// cert-manager's controller image (quay.io/jetstack/cert-manager-controller).
const certManagerControllerImage = "cert-manager-controller"

// certManagerWritten issues the Certificates a write of gvk may let
// cert-manager issue: the Certificate itself, those of a written Issuer or
// ClusterIssuer, all once the Deployment of cert-manager's controller runs.
func (c *Cluster) certManagerWritten(ctx context.Context, gvk schema.GroupVersionKind, ns, name string) error {
	switch {
	case gvk.GroupKind() == certificateGVK.GroupKind(),
		gvk.Group == certificateGVK.Group && certManagerIssuerKinds[gvk.Kind],
		gvk.Group == "apps" && gvk.Kind == "Deployment":
	default:
		return nil
	}
	if !c.serves(certificateGVK) {
		return nil
	}
	running, err := c.certManagerRuns(ctx)
	if err != nil || !running {
		return err
	}
	list := &unstructured.UnstructuredList{}
	list.SetGroupVersionKind(certificateGVK.GroupVersion().WithKind(certificateGVK.Kind + "List"))
	opts := []client.ListOption{}
	if gvk.GroupKind() == certificateGVK.GroupKind() {
		opts = append(opts, client.InNamespace(ns))
	}
	if err := c.inner.List(ctx, list, opts...); err != nil {
		return fmt.Errorf("simulated cluster %s: cert-manager: list Certificates: %w", c.key, err)
	}
	sort.Slice(list.Items, func(i, j int) bool {
		return list.Items[i].GetNamespace()+"/"+list.Items[i].GetName() < list.Items[j].GetNamespace()+"/"+list.Items[j].GetName()
	})
	for i := range list.Items {
		crt := &list.Items[i]
		if gvk.GroupKind() == certificateGVK.GroupKind() && crt.GetName() != name {
			continue
		}
		if err := c.issueCertificate(ctx, crt); err != nil {
			return err
		}
	}
	return nil
}

// certManagerRuns reports whether a Deployment of the cluster runs
// cert-manager's controller with a ready replica.
func (c *Cluster) certManagerRuns(ctx context.Context) (bool, error) {
	var deps appsv1.DeploymentList
	if err := c.inner.List(ctx, &deps); err != nil {
		return false, fmt.Errorf("simulated cluster %s: cert-manager: list Deployments: %w", c.key, err)
	}
	for i := range deps.Items {
		d := &deps.Items[i]
		if d.Status.ReadyReplicas == 0 || d.DeletionTimestamp != nil {
			continue
		}
		for _, ct := range d.Spec.Template.Spec.Containers {
			if imageRepositoryBase(ct.Image) == certManagerControllerImage {
				return true, nil
			}
		}
	}
	return false, nil
}

// imageRepositoryBase is the last path element of image's repository,
// without tag or digest, as the kubelet parses it; "" for an image it
// cannot parse.
func imageRepositoryBase(image string) string {
	named, err := dockerref.ParseNormalizedNamed(image)
	if err != nil {
		return ""
	}
	return path.Base(dockerref.Path(named))
}

// issueCertificate writes the Secret of crt, as cert-manager's controller
// does once crt's issuer exists; nothing when the issuer is missing, of
// another group, or the Secret exists.
func (c *Cluster) issueCertificate(ctx context.Context, crt *unstructured.Unstructured) error {
	if crt.GetDeletionTimestamp() != nil {
		return nil
	}
	secretName, _, _ := unstructured.NestedString(crt.Object, "spec", "secretName")
	issuer, _, _ := unstructured.NestedString(crt.Object, "spec", "issuerRef", "name")
	kind, _, _ := unstructured.NestedString(crt.Object, "spec", "issuerRef", "kind")
	group, _, _ := unstructured.NestedString(crt.Object, "spec", "issuerRef", "group")
	if kind == "" {
		kind = "Issuer"
	}
	if group == "" {
		group = certificateGVK.Group
	}
	if secretName == "" || issuer == "" || group != certificateGVK.Group || !certManagerIssuerKinds[kind] {
		return nil
	}
	issuerGVK := schema.GroupVersionKind{Group: group, Version: "v1", Kind: kind}
	if !c.serves(issuerGVK) {
		return nil
	}
	iss := &unstructured.Unstructured{}
	iss.SetGroupVersionKind(issuerGVK)
	key := client.ObjectKey{Name: issuer}
	if kind == "Issuer" {
		key.Namespace = crt.GetNamespace()
	}
	switch err := c.inner.Get(ctx, key, iss); {
	case apierrors.IsNotFound(err):
		return nil // cert-manager waits for it: the Certificate stays not ready
	case err != nil:
		return fmt.Errorf("simulated cluster %s: cert-manager: get %s %s: %w", c.key, kind, issuer, err)
	}
	ns := crt.GetNamespace()
	gvk := schema.GroupVersionKind{Version: "v1", Kind: "Secret"}
	sec := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: ns,
			Name:      secretName,
			Labels:    map[string]string{"controller.cert-manager.io/fao": "true"},
			Annotations: map[string]string{
				"cert-manager.io/certificate-name": crt.GetName(),
				"cert-manager.io/issuer-name":      issuer,
				"cert-manager.io/issuer-kind":      kind,
				"cert-manager.io/issuer-group":     group,
				writtenByAnnotation:                "cert-manager Certificate " + ns + "/" + crt.GetName(),
			},
		},
		Type: corev1.SecretTypeTLS,
		Data: map[string][]byte{"ca.crt": {}, corev1.TLSCertKey: {}, corev1.TLSPrivateKeyKey: {}},
	}
	created, err := c.createAsController(ctx, gvk, sec) // jobwrites.go
	if err != nil {
		return fmt.Errorf("simulated cluster %s: cert-manager issues Certificate %s/%s into Secret %s: %w", c.key, ns, crt.GetName(), secretName, err)
	}
	if !created {
		return nil
	}
	return c.afterWrite(ctx, gvk, ns, secretName)
}
