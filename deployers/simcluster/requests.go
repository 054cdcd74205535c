package simcluster

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	clientcmdlatest "k8s.io/client-go/tools/clientcmd/api/latest"
	clientcmdv1 "k8s.io/client-go/tools/clientcmd/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Request subresources a simulated cluster answers itself, as the API
// server (TokenRequest) and Gardener's API server (AdminKubeconfigRequest)
// do: they create nothing, so a cluster does not change.
const (
	// SubresourceToken is a ServiceAccount's TokenRequest subresource.
	SubresourceToken = "token"
	// SubresourceAdminKubeconfig is a Gardener Shoot's
	// AdminKubeconfigRequest subresource.
	SubresourceAdminKubeconfig = "adminkubeconfig"
)

// Issuer is the issuer of the service-account tokens of simulated
// clusters, and their default audience, as on most clusters.
const Issuer = "https://kubernetes.default.svc.cluster.local"

// ShootDomain is the domain of simulated Shoot clusters whose Shoot
// advertises no address and names no DNS domain: the admin kubeconfig of
// Shoot NAME in namespace garden-PROJECT names the server
// https://api.NAME.PROJECT.ShootDomain.
const ShootDomain = "shoots.simulated"

// Token and admin kubeconfig lifetimes: the API server's minimum and
// maximum of spec.expirationSeconds, its default, and
// gardener-apiserver's default cap of an admin kubeconfig's lifetime
// (--shoot-admin-kubeconfig-max-expiration).
const (
	minExpirationSeconds     = 600
	maxExpirationSeconds     = 1 << 32
	defaultExpirationSeconds = 3600
	maxAdminKubeconfig       = 24 * time.Hour
)

// shootGroupKind is the kind of Gardener's Shoots.
var shootGroupKind = schema.GroupKind{Group: "core.gardener.cloud", Kind: "Shoot"}

// requestClient is the client of a subresource of a simulated cluster: it
// answers TokenRequests and AdminKubeconfigRequests itself and leaves the
// others (scale, eviction, ...) to the fake client.
type requestClient struct {
	client.SubResourceClient
	cc   *clusterClient
	name string
}

// Create creates sub for obj: a token of a ServiceAccount, an admin
// kubeconfig of a Shoot, or what the fake client makes of other
// subresources.
func (rc *requestClient) Create(ctx context.Context, obj client.Object, sub client.Object, opts ...client.SubResourceCreateOption) error {
	switch rc.name {
	case SubresourceToken:
		return rc.cc.createToken(ctx, obj, sub)
	case SubresourceAdminKubeconfig:
		return rc.cc.createAdminKubeconfig(ctx, obj, sub)
	}
	return rc.SubResourceClient.Create(ctx, obj, sub, opts...)
}

// expirationSeconds checks a request's spec.expirationSeconds (nil: the
// default) as the API server validates TokenRequests.
func expirationSeconds(gk schema.GroupKind, name string, requested *int64) (int64, error) {
	if requested == nil {
		return defaultExpirationSeconds, nil
	}
	path := field.NewPath("spec", "expirationSeconds")
	switch {
	case *requested < minExpirationSeconds:
		return 0, apierrors.NewInvalid(gk, name, field.ErrorList{field.Invalid(path, *requested, "may not specify a duration less than 10 minutes")})
	case *requested > maxExpirationSeconds:
		return 0, apierrors.NewInvalid(gk, name, field.ErrorList{field.Invalid(path, *requested, "may not specify a duration larger than 2^32 seconds")})
	}
	return *requested, nil
}

// adminExpirationSeconds checks an AdminKubeconfigRequest's
// spec.expirationSeconds (nil: the default) as gardener-apiserver does
// (pkg/api/authentication/validation, ValidateKubeconfigRequest), whose
// error names no object.
func adminExpirationSeconds(requested *int64) (int64, error) {
	if requested == nil {
		return defaultExpirationSeconds, nil
	}
	path := field.NewPath("spec", "expirationSeconds")
	var errs field.ErrorList
	if *requested < minExpirationSeconds {
		errs = append(errs, field.Invalid(path, *requested, "may not specify a duration less than 10 minutes"))
	}
	if *requested > math.MaxUint32 {
		errs = append(errs, field.TooLong(path, *requested, math.MaxUint32))
	}
	if len(errs) > 0 {
		return 0, apierrors.NewInvalid(adminKubeconfigRequestKind, "", errs)
	}
	return *requested, nil
}

// adminKubeconfigRequestKind is the kind of Gardener's AdminKubeconfigRequests.
var adminKubeconfigRequestKind = schema.GroupKind{Group: "authentication.gardener.cloud", Kind: "AdminKubeconfigRequest"}

// createToken answers a TokenRequest for the ServiceAccount obj, as the
// API server does: the account must exist; the token is a JWT with the
// claims of a bound token, issued at the virtual now and derived from the
// seed, the cluster, the account's uid and the times, so the same
// simulation always gets the same token. Nothing is stored.
func (cc *clusterClient) createToken(ctx context.Context, obj client.Object, sub client.Object) error {
	defer cc.lock()()
	gvk, err := cc.begin(ctx, obj)
	if err != nil {
		return err
	}
	if gvk.GroupKind() != (schema.GroupKind{Kind: "ServiceAccount"}) {
		return apierrors.NewBadRequest(fmt.Sprintf("the token subresource belongs to ServiceAccounts, not to %s", gvk.Kind))
	}
	tr, ok := sub.(*authenticationv1.TokenRequest)
	if !ok {
		return apierrors.NewBadRequest(fmt.Sprintf("got %T, expected a TokenRequest", sub))
	}
	trKind := schema.GroupKind{Group: authenticationv1.GroupName, Kind: "TokenRequest"}
	seconds, err := expirationSeconds(trKind, obj.GetName(), tr.Spec.ExpirationSeconds)
	if err != nil {
		return err
	}
	sa := &corev1.ServiceAccount{}
	if err := cc.c.inner.Get(ctx, client.ObjectKeyFromObject(obj), sa); err != nil {
		return err
	}
	issued := cc.c.set.opts.Now().UTC().Truncate(time.Second)
	expires := issued.Add(time.Duration(seconds) * time.Second)
	audiences := tr.Spec.Audiences
	if len(audiences) == 0 {
		audiences = []string{Issuer}
	}
	claims := map[string]any{
		"aud": audiences,
		"exp": expires.Unix(),
		"iat": issued.Unix(),
		"iss": Issuer,
		"jti": cc.c.set.opts.IDs.UUID("token-request-id", cc.c.key, sa.Namespace, sa.Name, string(sa.UID), issued.Format(time.RFC3339)),
		"kubernetes.io": map[string]any{
			"namespace":      sa.Namespace,
			"serviceaccount": map[string]string{"name": sa.Name, "uid": string(sa.UID)},
		},
		"nbf": issued.Unix(),
		"sub": "system:serviceaccount:" + sa.Namespace + ":" + sa.Name,
	}
	token, err := cc.c.jwt(claims, "token-request", sa.Namespace, sa.Name, string(sa.UID), issued.Format(time.RFC3339), strconv.FormatInt(seconds, 10))
	if err != nil {
		return err
	}
	tr.Name, tr.Namespace = sa.Name, sa.Namespace
	tr.Spec.Audiences = audiences
	tr.Spec.ExpirationSeconds = &seconds
	tr.Status = authenticationv1.TokenRequestStatus{Token: token, ExpirationTimestamp: metav1.NewTime(expires)}
	return nil
}

// jwt returns a JWT with claims and a signature derived from the seed, the
// cluster and parts. It is not signed by any key.
func (c *Cluster) jwt(claims map[string]any, parts ...string) (string, error) {
	enc := base64.RawURLEncoding
	header, _ := json.Marshal(map[string]string{"alg": "RS256", "kid": "lscli-simulated"})
	body, err := json.Marshal(claims)
	if err != nil {
		return "", fmt.Errorf("simulated cluster %s: token claims: %w", c.key, err)
	}
	sig := sha256.Sum256([]byte(c.set.opts.IDs.UUID(append([]string{c.key}, parts...)...)))
	return enc.EncodeToString(header) + "." + enc.EncodeToString(body) + "." + enc.EncodeToString(sig[:]), nil
}

// createAdminKubeconfig answers an AdminKubeconfigRequest (unstructured,
// authentication.gardener.cloud/v1alpha1) for the Shoot obj, as
// gardener-apiserver does: the Shoot must exist (a cluster serves Shoots
// once a CRD for them exists, e.g. from a seed); status.kubeconfig is a
// kubeconfig of the Shoot's cluster, base64-encoded, and
// status.expirationTimestamp when it expires (spec.expirationSeconds from
// the virtual now, at most 24 hours). See ShootKubeconfig for what the
// kubeconfig holds. Nothing is stored.
func (cc *clusterClient) createAdminKubeconfig(ctx context.Context, obj client.Object, sub client.Object) error {
	defer cc.lock()()
	gvk, err := cc.begin(ctx, obj)
	if err != nil {
		return err
	}
	if gvk.GroupKind() != shootGroupKind {
		return apierrors.NewBadRequest(fmt.Sprintf("the adminkubeconfig subresource belongs to Shoots (%s), not to %s", shootGroupKind, gvk.GroupKind()))
	}
	req, ok := sub.(*unstructured.Unstructured)
	if !ok {
		return apierrors.NewBadRequest(fmt.Sprintf("got %T, expected an unstructured AdminKubeconfigRequest", sub))
	}
	var requested *int64
	if v, found, _ := unstructured.NestedFieldNoCopy(req.Object, "spec", "expirationSeconds"); found {
		n, ok := int64Of(v)
		if !ok {
			return apierrors.NewBadRequest(fmt.Sprintf("spec.expirationSeconds: want an integer, got %T", v))
		}
		requested = &n
	}
	seconds, err := adminExpirationSeconds(requested)
	if err != nil {
		return err
	}
	shoot := &unstructured.Unstructured{}
	shoot.SetGroupVersionKind(gvk)
	if err := cc.c.inner.Get(ctx, client.ObjectKeyFromObject(obj), shoot); err != nil {
		return err
	}
	issued := cc.c.set.opts.Now().UTC().Truncate(time.Second)
	lifetime := time.Duration(min(seconds, int64(maxAdminKubeconfig/time.Second))) * time.Second
	expires := issued.Add(lifetime)
	kubeconfig, err := cc.c.shootKubeconfig(shoot, issued, expires)
	if err != nil {
		return err
	}
	req.SetName(shoot.GetName())
	req.SetNamespace(shoot.GetNamespace())
	req.Object["status"] = map[string]any{
		"kubeconfig":          base64.StdEncoding.EncodeToString(kubeconfig),
		"expirationTimestamp": expires.Format(time.RFC3339),
	}
	return nil
}

// int64Of converts a number of an unstructured object.
func int64Of(v any) (int64, bool) {
	switch n := v.(type) {
	case int64:
		return n, true
	case int:
		return int64(n), true
	case int32:
		return int64(n), true
	case float64:
		if n != math.Trunc(n) {
			return 0, false
		}
		return int64(n), true
	}
	return 0, false
}

// ShootServers returns the servers of the Shoot's cluster, by address name,
// as its admin kubeconfig names them: those of status.advertisedAddresses
// that gardener-apiserver takes for the kube-apiserver (external, internal,
// wildcard-tls-seed-bound, unmanaged; pkg/apiserver/registry/core/shoot/
// storage/kubeconfig.go), as https:// and the URL's host, in their order.
// A Shoot that advertises no address at all has not been reconciled by a
// gardenlet, which no simulated cluster runs: it stands for one that has,
// with "external" at https://api.DOMAIN for spec.dns.domain, or
// https://api.NAME.PROJECT.ShootDomain, where PROJECT is the namespace
// without its "garden-" prefix. A Shoot whose addresses are all of other
// kinds has none (gardener-apiserver refuses its admin kubeconfig). A
// Target whose kubeconfig names one of these servers reaches the simulated
// cluster of that server.
func ShootServers(shoot *unstructured.Unstructured) ([]string, []string) {
	var names, servers []string
	addrs, _, _ := unstructured.NestedSlice(shoot.Object, "status", "advertisedAddresses")
	for _, a := range addrs {
		m, ok := a.(map[string]any)
		if !ok {
			continue
		}
		name, _ := m["name"].(string)
		raw, _ := m["url"].(string)
		if !kubeAPIServerAddress[name] {
			continue
		}
		if u, err := url.Parse(raw); err == nil && u.Host != "" {
			names, servers = append(names, name), append(servers, "https://"+u.Host)
		}
	}
	if len(addrs) > 0 {
		return names, servers
	}
	if domain, _, _ := unstructured.NestedString(shoot.Object, "spec", "dns", "domain"); domain != "" {
		return []string{"external"}, []string{"https://api." + domain}
	}
	return []string{"external"}, []string{"https://api." + shoot.GetName() + "." + shootProject(shoot.GetNamespace()) + "." + ShootDomain}
}

// kubeAPIServerAddress are the names of the advertised addresses of a
// Shoot that gardener-apiserver puts into its admin kubeconfig.
var kubeAPIServerAddress = map[string]bool{"external": true, "internal": true, "wildcard-tls-seed-bound": true, "unmanaged": true}

// shootProject is the Gardener project of a Shoot's namespace:
// garden-PROJECT, or garden for the garden namespace.
func shootProject(namespace string) string {
	if p, ok := strings.CutPrefix(namespace, "garden-"); ok && p != "" {
		return p
	}
	return namespace
}

// shootKubeconfig is the admin kubeconfig of shoot, laid out as
// gardener-apiserver's (pkg/utils/secrets/control_plane.go,
// generateKubeconfig): one cluster and context per server (ShootServers),
// in their order, named NAMESPACE--NAME-ADDRESS, with the simulated
// clusters' CA (CACertificate; none for wildcard-tls-seed-bound); the
// current context and the one user are named after the first. The user
// has a token derived from the seed and the times, where Gardener gives a
// client certificate (a simulated cluster checks neither). A Shoot with
// addresses of which none is the kube-apiserver's is refused as
// gardener-apiserver refuses it.
func (c *Cluster) shootKubeconfig(shoot *unstructured.Unstructured, issued, expires time.Time) ([]byte, error) {
	names, servers := ShootServers(shoot)
	if len(servers) == 0 {
		addrs, _, _ := unstructured.NestedSlice(shoot.Object, "status", "advertisedAddresses")
		return nil, apierrors.NewInvalid(adminKubeconfigRequestKind, shoot.GetName(), field.ErrorList{field.Invalid(field.NewPath("status", "status"),
			addrs, "no suitable advertised address for kube-apiserver found in .status.advertisedAddresses")})
	}
	base := shoot.GetNamespace() + "--" + shoot.GetName()
	user := base + "-" + names[0]
	token, err := c.jwt(map[string]any{
		"iss": "gardener",
		"sub": "system:admin",
		"aud": []string{shootProject(shoot.GetNamespace()) + "--" + shoot.GetName()},
		"iat": issued.Unix(),
		"exp": expires.Unix(),
	}, "admin-kubeconfig", shoot.GetNamespace(), shoot.GetName(), string(shoot.GetUID()), issued.Format(time.RFC3339), expires.Format(time.RFC3339))
	if err != nil {
		return nil, err
	}
	kc := clientcmdv1.Config{CurrentContext: user, AuthInfos: []clientcmdv1.NamedAuthInfo{{Name: user, AuthInfo: clientcmdv1.AuthInfo{Token: token}}}}
	for i, server := range servers {
		name := base + "-" + names[i]
		cluster := clientcmdv1.Cluster{Server: server}
		if names[i] != "wildcard-tls-seed-bound" {
			cluster.CertificateAuthorityData = CACertificate
		}
		kc.Clusters = append(kc.Clusters, clientcmdv1.NamedCluster{Name: name, Cluster: cluster})
		kc.Contexts = append(kc.Contexts, clientcmdv1.NamedContext{Name: name, Context: clientcmdv1.Context{Cluster: name, AuthInfo: user}})
	}
	out, err := runtime.Encode(clientcmdlatest.Codec, &kc)
	if err != nil {
		return nil, fmt.Errorf("simulated cluster %s: admin kubeconfig of shoot %s/%s: %w", c.key, shoot.GetNamespace(), shoot.GetName(), err)
	}
	return out, nil
}
