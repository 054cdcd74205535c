package simcluster

import (
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// CACertificate is the certificate of the simulated clusters' certificate
// authority, what service-account token Secrets get as ca.crt. Nobody
// holds its key: it signs nothing.
//
//go:embed ca.crt
var CACertificate []byte

// tokenController is Kubernetes' legacy service-account token controller
// for the kinds it watches: a Secret of type
// kubernetes.io/service-account-token whose ServiceAccount exists gets
// data.token, data["ca.crt"] and data.namespace (and the annotation with
// the account's uid); deleting a ServiceAccount deletes its token Secrets.
// A token Secret whose account does not exist (yet) waits for it; the real
// controller deletes such a Secret.
func (c *Cluster) tokenController(ctx context.Context, gvk schema.GroupVersionKind, ns, name string, deleted bool) error {
	switch {
	case gvk.GroupKind() == schema.GroupKind{Kind: "Secret"} && !deleted:
		if !c.maybeTokenSecret(ns, name) {
			return nil
		}
		sec := &corev1.Secret{}
		if err := c.inner.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, sec); err != nil {
			return client.IgnoreNotFound(err)
		}
		return c.fillToken(ctx, sec)
	case gvk.GroupKind() == schema.GroupKind{Kind: "ServiceAccount"}:
		return c.syncAccountTokens(ctx, ns, name, deleted)
	}
	return nil
}

// syncAccountTokens fills (or, when the account was deleted, deletes) the
// token Secrets of the ServiceAccount ns/name.
func (c *Cluster) syncAccountTokens(ctx context.Context, ns, name string, deleted bool) error {
	if deleted { // a ServiceAccount with finalizers is not gone yet
		err := c.inner.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, &corev1.ServiceAccount{})
		if !apierrors.IsNotFound(err) {
			return err
		}
	}
	secrets, err := c.tokenSecrets(ctx, ns)
	if err != nil {
		return err
	}
	for _, sec := range secrets {
		if sec.Type != corev1.SecretTypeServiceAccountToken || sec.Annotations[corev1.ServiceAccountNameKey] != name {
			continue
		}
		var err error
		if deleted {
			err = client.IgnoreNotFound(c.inner.Delete(ctx, sec))
		} else {
			err = c.fillToken(ctx, sec)
		}
		if err != nil {
			return fmt.Errorf("simulated cluster %s: token secret %s/%s: %w", c.key, ns, sec.Name, err)
		}
	}
	return nil
}

// maybeTokenSecret reports whether the Secret ns/name may be a
// service-account token: the tracker's index says so, or the store keeps
// none (the simulation's own API server).
func (c *Cluster) maybeTokenSecret(ns, name string) bool {
	return c.tracker.tokenSecrets == nil || c.tracker.tokenSecrets[ns][name]
}

// tokenSecrets returns the service-account token Secrets in ns, sorted by
// name: those the tracker's index names, or on a store that keeps no index
// every Secret of ns (the caller checks the type).
func (c *Cluster) tokenSecrets(ctx context.Context, ns string) ([]*corev1.Secret, error) {
	if c.tracker.tokenSecrets == nil {
		list := &corev1.SecretList{}
		if err := c.inner.List(ctx, list, client.InNamespace(ns)); err != nil {
			return nil, fmt.Errorf("simulated cluster %s: list secrets in %s: %w", c.key, ns, err)
		}
		out := make([]*corev1.Secret, len(list.Items))
		for i := range list.Items {
			out[i] = &list.Items[i]
		}
		return out, nil
	}
	names := slices.Sorted(maps.Keys(c.tracker.tokenSecrets[ns]))
	out := make([]*corev1.Secret, 0, len(names))
	for _, name := range names {
		sec := &corev1.Secret{}
		switch err := c.inner.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, sec); {
		case apierrors.IsNotFound(err):
			continue
		case err != nil:
			return nil, fmt.Errorf("simulated cluster %s: get secret %s/%s: %w", c.key, ns, name, err)
		}
		out = append(out, sec)
	}
	return out, nil
}

// fillToken puts what is missing into the token Secret sec.
func (c *Cluster) fillToken(ctx context.Context, sec *corev1.Secret) error {
	if sec.Type != corev1.SecretTypeServiceAccountToken || sec.DeletionTimestamp != nil || sec.Annotations[corev1.ServiceAccountNameKey] == "" {
		return nil
	}
	sa := &corev1.ServiceAccount{}
	err := c.inner.Get(ctx, client.ObjectKey{Namespace: sec.Namespace, Name: sec.Annotations[corev1.ServiceAccountNameKey]}, sa)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if uid := sec.Annotations[corev1.ServiceAccountUIDKey]; uid != "" && uid != string(sa.UID) {
		return nil // a token of an earlier account of that name
	}
	if bytes.Equal(sec.Data[corev1.ServiceAccountRootCAKey], CACertificate) &&
		len(sec.Data[corev1.ServiceAccountNamespaceKey]) > 0 && len(sec.Data[corev1.ServiceAccountTokenKey]) > 0 {
		return nil
	}
	if sec.Data == nil {
		sec.Data = map[string][]byte{}
	}
	sec.Data[corev1.ServiceAccountRootCAKey] = CACertificate
	if len(sec.Data[corev1.ServiceAccountNamespaceKey]) == 0 {
		sec.Data[corev1.ServiceAccountNamespaceKey] = []byte(sec.Namespace)
	}
	if len(sec.Data[corev1.ServiceAccountTokenKey]) == 0 {
		sec.Data[corev1.ServiceAccountTokenKey] = c.token(sa, sec)
	}
	sec.Annotations[corev1.ServiceAccountUIDKey] = string(sa.UID)
	return c.inner.Update(ctx, sec, client.FieldOwner(controllerManager))
}

// token is a legacy service-account token: a JWT with the claims the real
// controller puts in, and a signature derived from the seed, so the same
// simulation always gets the same token. It is not signed by any key.
func (c *Cluster) token(sa *corev1.ServiceAccount, sec *corev1.Secret) []byte {
	enc := base64.RawURLEncoding
	header, _ := json.Marshal(map[string]string{"alg": "RS256", "kid": "lscli-simulated"})
	claims, _ := json.Marshal(map[string]string{
		"iss":                                    "kubernetes/serviceaccount",
		"kubernetes.io/serviceaccount/namespace": sa.Namespace,
		"kubernetes.io/serviceaccount/secret.name":          sec.Name,
		"kubernetes.io/serviceaccount/service-account.name": sa.Name,
		"kubernetes.io/serviceaccount/service-account.uid":  string(sa.UID),
		"sub": "system:serviceaccount:" + sa.Namespace + ":" + sa.Name,
	})
	sig := sha256.Sum256([]byte(c.set.opts.IDs.UUID("token", c.key, sec.Namespace, sec.Name, string(sa.UID))))
	return []byte(enc.EncodeToString(header) + "." + enc.EncodeToString(claims) + "." + enc.EncodeToString(sig[:]))
}
