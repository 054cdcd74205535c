package simcluster

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/tools/clientcmd"
)

const shootCRDManifest = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: shoots.core.gardener.cloud
spec:
  group: core.gardener.cloud
  scope: Namespaced
  names: {kind: Shoot, plural: shoots, singular: shoot, listKind: ShootList}
  versions:
  - name: v1beta1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
`

// tokenRequest asks for a token of default/name with seconds (0: none given).
func (f *fixture) tokenRequest(name string, seconds int64) (*authenticationv1.TokenRequest, error) {
	tr := &authenticationv1.TokenRequest{}
	if seconds != 0 {
		tr.Spec.ExpirationSeconds = &seconds
	}
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name}}
	return tr, f.c.SubResource(SubresourceToken).Create(context.Background(), sa, tr)
}

// TestTokenRequest: a token of an existing ServiceAccount, valid from the
// virtual now for the requested seconds, the same for the same request at
// the same time, another later; nothing is stored.
func TestTokenRequest(t *testing.T) {
	f := newFixture(t)
	f.create("apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: deployer, namespace: default}\n")
	changes := f.clusters.Changes()
	tr, err := f.tokenRequest("deployer", 7200)
	if err != nil {
		t.Fatal(err)
	}
	if want := epoch.Add(2 * time.Hour); !tr.Status.ExpirationTimestamp.Time.Equal(want) {
		t.Errorf("expiration = %v, want %v", tr.Status.ExpirationTimestamp, want)
	}
	parts := strings.Split(tr.Status.Token, ".")
	if len(parts) != 3 {
		t.Fatalf("token %q is no JWT", tr.Status.Token)
	}
	body, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	var claims map[string]any
	if err := json.Unmarshal(body, &claims); err != nil {
		t.Fatal(err)
	}
	if claims["sub"] != "system:serviceaccount:default:deployer" || claims["exp"] != float64(epoch.Add(2*time.Hour).Unix()) {
		t.Errorf("claims = %v", claims)
	}
	again, err := f.tokenRequest("deployer", 7200)
	if err != nil || again.Status.Token != tr.Status.Token {
		t.Errorf("the same request at the same time: %v, token changed: %v", err, again.Status.Token != tr.Status.Token)
	}
	f.clock.Step(time.Minute)
	later, err := f.tokenRequest("deployer", 0)
	if err != nil {
		t.Fatal(err)
	}
	if later.Status.Token == tr.Status.Token || !later.Status.ExpirationTimestamp.Time.Equal(epoch.Add(time.Minute+time.Hour)) {
		t.Errorf("a later request with the default lifetime: %v, %v", later.Status.ExpirationTimestamp, later.Status.Token == tr.Status.Token)
	}
	if f.clusters.Changes() != changes {
		t.Error("a token request changed the cluster")
	}
}

// TestTokenRequestErrors: a missing ServiceAccount is NotFound, a lifetime
// under 10 minutes Invalid, as the API server answers.
func TestTokenRequestErrors(t *testing.T) {
	f := newFixture(t)
	_, err := f.tokenRequest("missing", 3600)
	if !apierrors.IsNotFound(err) || err.Error() != `serviceaccounts "missing" not found` {
		t.Errorf("missing account: %v", err)
	}
	f.create("apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: deployer, namespace: default}\n")
	_, err = f.tokenRequest("deployer", 60)
	if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), "may not specify a duration less than 10 minutes") {
		t.Errorf("short lifetime: %v", err)
	}
}

// adminKubeconfig asks for the admin kubeconfig of Shoot garden-dev/name.
func (f *fixture) adminKubeconfig(name string, seconds int64) (*unstructured.Unstructured, error) {
	shoot := &unstructured.Unstructured{}
	shoot.SetAPIVersion("core.gardener.cloud/v1beta1")
	shoot.SetKind("Shoot")
	shoot.SetNamespace("garden-dev")
	shoot.SetName(name)
	req := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "authentication.gardener.cloud/v1alpha1", "kind": "AdminKubeconfigRequest",
		"spec": map[string]any{"expirationSeconds": seconds},
	}}
	return req, f.c.SubResource(SubresourceAdminKubeconfig).Create(context.Background(), shoot, req)
}

// TestAdminKubeconfig: a Shoot's admin kubeconfig names its advertised
// addresses of the kube-apiserver, in their order, the first one current,
// as gardener-apiserver's does; without any address its DNS domain, else
// the documented simulated name; it expires after the requested seconds,
// at most a day. A Shoot whose addresses are all of other kinds, and a
// lifetime under ten minutes, are refused with gardener-apiserver's words.
func TestAdminKubeconfig(t *testing.T) {
	f := newFixture(t)
	if _, err := f.adminKubeconfig("app", 3600); !meta.IsNoMatchError(err) {
		t.Errorf("without a Shoot CRD: %v, want a NoKindMatchError", err)
	}
	f.create(shootCRDManifest, "apiVersion: v1\nkind: Namespace\nmetadata: {name: garden-dev}\n",
		"apiVersion: core.gardener.cloud/v1beta1\nkind: Shoot\nmetadata: {name: app, namespace: garden-dev}\n",
		"apiVersion: core.gardener.cloud/v1beta1\nkind: Shoot\nmetadata: {name: dns, namespace: garden-dev}\nspec: {dns: {domain: dns.dev.example.com}}\n")
	shoot := f.get("core.gardener.cloud/v1beta1", "Shoot", "garden-dev", "app")
	if err := unstructured.SetNestedSlice(shoot.Object, []any{
		map[string]any{"name": "service-account-issuer", "url": "https://issuer.example.com/projects/dev/shoots/app/issuer"},
		map[string]any{"name": "internal", "url": "https://api.app.internal.example.com/"},
		map[string]any{"name": "external", "url": "https://api.app.example.com"},
		map[string]any{"name": "wildcard-tls-seed-bound", "url": "https://api-app.ingress.seed.example.com"},
	}, "status", "advertisedAddresses"); err != nil {
		t.Fatal(err)
	}
	if err := f.c.Status().Update(context.Background(), shoot); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, server, current string
		seconds               int64
		lifetime              time.Duration
		clusters              int
	}{
		{"app", "https://api.app.internal.example.com", "garden-dev--app-internal", 3600, time.Hour, 3},
		{"dns", "https://api.dns.dev.example.com", "garden-dev--dns-external", 7 * 86400, 24 * time.Hour, 1},
	} {
		req, err := f.adminKubeconfig(tc.name, tc.seconds)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		b64, _, _ := unstructured.NestedString(req.Object, "status", "kubeconfig")
		raw, err := base64.StdEncoding.DecodeString(b64)
		if err != nil {
			t.Fatal(err)
		}
		if got := serverOf(raw); got != tc.server {
			t.Errorf("%s: server = %q, want %q", tc.name, got, tc.server)
		}
		kc, err := clientcmd.Load(raw)
		if err != nil {
			t.Fatal(err)
		}
		if kc.CurrentContext != tc.current || kc.AuthInfos[tc.current].Token == "" || len(kc.Clusters) != tc.clusters ||
			len(kc.AuthInfos) != 1 || kc.Contexts[tc.current].AuthInfo != tc.current {
			t.Errorf("%s: kubeconfig:\n%s", tc.name, raw)
		}
		if wc := kc.Clusters["garden-dev--app-wildcard-tls-seed-bound"]; tc.name == "app" && (wc == nil || len(wc.CertificateAuthorityData) != 0) {
			t.Errorf("the wildcard-tls-seed-bound cluster %+v, want one without a CA, as Gardener's", wc)
		}
		exp, _, _ := unstructured.NestedString(req.Object, "status", "expirationTimestamp")
		if want := epoch.Add(tc.lifetime).Format(time.RFC3339); exp != want {
			t.Errorf("%s: expirationTimestamp = %s, want %s", tc.name, exp, want)
		}
	}
	_, servers := ShootServers(&unstructured.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": "x", "namespace": "garden-p"}}})
	if len(servers) != 1 || servers[0] != "https://api.x.p.shoots.simulated" {
		t.Errorf("default server = %v", servers)
	}
	if _, err := f.adminKubeconfig("missing", 3600); !apierrors.IsNotFound(err) || !strings.Contains(err.Error(), `"missing" not found`) {
		t.Errorf("missing shoot: %v", err)
	}
	want := `AdminKubeconfigRequest.authentication.gardener.cloud "" is invalid: spec.expirationSeconds: Invalid value: 10: may not specify a duration less than 10 minutes`
	if _, err := f.adminKubeconfig("app", 10); !apierrors.IsInvalid(err) || err.Error() != want {
		t.Errorf("short lifetime: %v, want %s", err, want)
	}
	if err := unstructured.SetNestedSlice(shoot.Object, []any{
		map[string]any{"name": "service-account-issuer", "url": "https://issuer.example.com"},
	}, "status", "advertisedAddresses"); err != nil {
		t.Fatal(err)
	}
	shoot.SetResourceVersion("")
	if err := f.c.Status().Update(context.Background(), shoot); err != nil {
		t.Fatal(err)
	}
	if _, err := f.adminKubeconfig("app", 3600); !apierrors.IsInvalid(err) ||
		!strings.Contains(err.Error(), "no suitable advertised address for kube-apiserver found in .status.advertisedAddresses") {
		t.Errorf("no kube-apiserver address: %v", err)
	}
}
