package funcs

import (
	"encoding/base64"
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
)

const oidcTestKubeconfig = `apiVersion: v1
kind: Config
current-context: shoot
contexts:
- name: shoot
  context: {cluster: shoot, user: admin}
- name: other
  context: {cluster: other, user: other}
clusters:
- name: shoot
  cluster: {server: "https://api.shoot.example.com", certificate-authority-data: Y2E=}
- name: other
  cluster: {server: "https://other.example.com"}
users:
- name: admin
  user: {token: secret-token}
- name: other
  user: {token: other-token}
`

func oidcTarget(kubeconfig any) map[string]any {
	return map[string]any{
		"metadata": map[string]any{"name": "shoot-cluster", "namespace": "laas"},
		"spec": map[string]any{
			"type":   "landscaper.gardener.cloud/kubernetes-cluster",
			"config": map[string]any{"kubeconfig": kubeconfig},
		},
	}
}

// TestOIDCKubeconfig checks getOidcKubeconfig as Landscaper's
// BuildOIDCKubeconfig builds it: the current context and its cluster only,
// the user replaced by kubectl's oidc-login, base64-encoded.
func TestOIDCKubeconfig(t *testing.T) {
	out, err := OIDCKubeconfig(nil, "https://issuer.example.com", "laas", oidcTarget(oidcTestKubeconfig))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := base64.StdEncoding.DecodeString(out)
	if err != nil {
		t.Fatal(err)
	}
	kc := string(raw)
	for _, want := range []string{"server: https://api.shoot.example.com", "certificate-authority-data: Y2E=",
		"current-context: shoot", "command: kubectl", "- oidc-login", "- --oidc-issuer-url=https://issuer.example.com",
		"- --oidc-client-id=laas", "- --grant-type=auto", "name: admin"} {
		if !strings.Contains(kc, want) {
			t.Errorf("kubeconfig lacks %q:\n%s", want, kc)
		}
	}
	for _, unwanted := range []string{"other", "secret-token"} {
		if strings.Contains(kc, unwanted) {
			t.Errorf("kubeconfig has %q:\n%s", unwanted, kc)
		}
	}
}

func TestOIDCKubeconfigErrors(t *testing.T) {
	secretRef := oidcTarget(nil)
	secretRef["spec"] = map[string]any{"type": "landscaper.gardener.cloud/kubernetes-cluster", "secretRef": map[string]any{"name": "kc", "key": "kubeconfig"}}
	for _, tc := range []struct {
		name string
		args []any
		want string
	}{
		{"arity", []any{"a", "b"}, "expects 3 arguments: issuer url, client id, and target"},
		{"issuer", []any{1, "b", oidcTarget(oidcTestKubeconfig)}, "expects a string as 1st argument, namely the issuer url"},
		{"client", []any{"a", nil, oidcTarget(oidcTestKubeconfig)}, "expects a string as 2nd argument, namely the client id"},
		{"bad kubeconfig", []any{"a", "b", oidcTarget("current-context: [")}, "failed to load config"},
		{"no current context", []any{"a", "b", oidcTarget("apiVersion: v1\nkind: Config\n")}, `current context "" not found`},
		{"secretRef without reader", []any{"a", "b", secretRef}, "could not resolve target: target shoot-cluster: a secretRef cannot be read here"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := OIDCKubeconfig(nil, tc.args...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
	resolved := func(*lsv1alpha1.Target) ([]byte, error) {
		return []byte(`{"kubeconfig": "apiVersion: v1\nkind: Config\ncurrent-context: c\ncontexts: [{name: c, context: {cluster: c, user: u}}]\nclusters: [{name: c, cluster: {server: 'https://from.secret'}}]\n"}`), nil
	}
	out, err := OIDCKubeconfig(resolved, "a", "b", secretRef)
	if err != nil {
		t.Fatal(err)
	}
	if raw, _ := base64.StdEncoding.DecodeString(out); !strings.Contains(string(raw), "https://from.secret") {
		t.Fatalf("resolver not used:\n%s", raw)
	}
}
