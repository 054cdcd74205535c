package funcs_test

import (
	"context"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/lscli/lscli/deployers/simcluster"
	"github.com/lscli/lscli/internal/ids"
	"github.com/lscli/lscli/landscaper/template/funcs"
)

var kubeconfigsNow = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

const saTargetKubeconfig = `apiVersion: v1
kind: Config
current-context: main
contexts:
- name: main
  context: {cluster: main, user: admin}
- name: other
  context: {cluster: other, user: other}
clusters:
- name: main
  cluster: {server: "https://main.example:6443", certificate-authority-data: Y2E=}
- name: other
  cluster: {server: "https://other.example"}
users:
- name: admin
  user: {token: admin-token}
- name: other
  user: {token: other-token}
`

func kubeconfigTarget(kubeconfig string) map[string]any {
	return map[string]any{
		"metadata": map[string]any{"name": "main", "namespace": "laas"},
		"spec": map[string]any{
			"type":   "landscaper.gardener.cloud/kubernetes-cluster",
			"config": map[string]any{"kubeconfig": kubeconfig},
		},
	}
}

// newSimulated returns the simulated clusters, seeded: ServiceAccount
// ls-system/sidecar on https://main.example:6443, Shoot garden-dev/app on
// https://garden.example.
func newSimulated(t *testing.T) *funcs.Clusters {
	t.Helper()
	main, err := simcluster.ParseSeed(simcluster.SeedConfig{Server: "https://main.example:6443", Files: []string{"main.yaml"}},
		[]simcluster.SeedFile{{Name: "main.yaml", Data: []byte(`apiVersion: v1
kind: Namespace
metadata: {name: ls-system}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: sidecar, namespace: ls-system}
`)}})
	if err != nil {
		t.Fatal(err)
	}
	garden, err := simcluster.ParseSeed(simcluster.SeedConfig{Server: "https://garden.example", Files: []string{"garden.yaml"}},
		[]simcluster.SeedFile{{Name: "garden.yaml", Data: []byte(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: shoots.core.gardener.cloud}
spec:
  group: core.gardener.cloud
  scope: Namespaced
  names: {kind: Shoot, plural: shoots, singular: shoot, listKind: ShootList}
  versions:
  - {name: v1beta1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}
---
apiVersion: v1
kind: Namespace
metadata: {name: garden-dev}
---
apiVersion: core.gardener.cloud/v1beta1
kind: Shoot
metadata: {name: app, namespace: garden-dev}
spec: {dns: {domain: app.dev.example.com}}
`)}})
	if err != nil {
		t.Fatal(err)
	}
	clusters := simcluster.New(simcluster.Options{Now: func() time.Time { return kubeconfigsNow }, IDs: ids.NewSource(7),
		Seeds: []simcluster.Seed{main, garden}})
	return &funcs.Clusters{Context: context.Background(), Clients: clusters}
}

// TestServiceAccountKubeconfig: the Target's current context and its
// cluster, the token of the account as the only user, named after it;
// with the expiration, Landscaper's map.
func TestServiceAccountKubeconfig(t *testing.T) {
	cl := newSimulated(t)
	out, err := cl.ServiceAccountKubeconfig(false, "sidecar", "ls-system", 3600, kubeconfigTarget(saTargetKubeconfig))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := base64.StdEncoding.DecodeString(out.(string))
	if err != nil {
		t.Fatal(err)
	}
	kc, err := clientcmd.Load(raw)
	if err != nil {
		t.Fatal(err)
	}
	if len(kc.Clusters) != 1 || kc.Clusters["main"].Server != "https://main.example:6443" || string(kc.Clusters["main"].CertificateAuthorityData) != "ca" {
		t.Errorf("clusters: %s", raw)
	}
	if len(kc.AuthInfos) != 1 || kc.AuthInfos["sidecar"] == nil || kc.AuthInfos["sidecar"].Token == "" || kc.Contexts["main"].AuthInfo != "sidecar" {
		t.Errorf("users: %s", raw)
	}
	withExp, err := cl.ServiceAccountKubeconfig(true, "sidecar", "ls-system", 7200.0, kubeconfigTarget(saTargetKubeconfig))
	if err != nil {
		t.Fatal(err)
	}
	m := withExp.(map[string]any)
	if m["kubeconfig"] == "" || m["expirationTimestamp"] != kubeconfigsNow.Add(2*time.Hour).Unix() ||
		m["expirationTimestampReadable"] != "2025-03-01T14:00:00Z" {
		t.Errorf("with expiration: %v", m)
	}
}

// TestShootAdminKubeconfig: what the garden cluster answers, the Shoot's
// server from its DNS domain.
func TestShootAdminKubeconfig(t *testing.T) {
	cl := newSimulated(t)
	garden := kubeconfigTarget(strings.ReplaceAll(saTargetKubeconfig, "https://main.example:6443", "https://garden.example"))
	out, err := cl.ShootAdminKubeconfig(true, "app", "garden-dev", int64(1800), garden)
	if err != nil {
		t.Fatal(err)
	}
	m := out.(map[string]any)
	raw, err := base64.StdEncoding.DecodeString(m["kubeconfig"].(string))
	if err != nil {
		t.Fatal(err)
	}
	kc, err := clientcmd.Load(raw)
	if err != nil {
		t.Fatal(err)
	}
	if c := kc.Clusters[kc.Contexts[kc.CurrentContext].Cluster]; c == nil || c.Server != "https://api.app.dev.example.com" {
		t.Errorf("kubeconfig: %s", raw)
	}
	if m["expirationTimestampReadable"] != "2025-03-01T12:30:00Z" {
		t.Errorf("expiration: %v", m)
	}
	_, servers := simcluster.ShootServers(&unstructured.Unstructured{Object: map[string]any{
		"metadata": map[string]any{"name": "app", "namespace": "garden-dev"}, "spec": map[string]any{"dns": map[string]any{"domain": "app.dev.example.com"}}}})
	if servers[0] != "https://api.app.dev.example.com" {
		t.Errorf("ShootServers = %v", servers)
	}
}

// TestKubeconfigErrors: Landscaper's argument checks and messages, the
// API server's NotFound wrapped as Landscaper wraps it, and ErrNoCluster
// without clusters.
func TestKubeconfigErrors(t *testing.T) {
	cl := newSimulated(t)
	target := kubeconfigTarget(saTargetKubeconfig)
	for _, tc := range []struct {
		name  string
		shoot bool
		args  []any
		want  string
	}{
		{"arity", false, []any{"a"}, "templating function getServiceAccountToken expects 4 arguments: service account name, service account namespace, expiration seconds, and target"},
		{"name", false, []any{1, "ns", 3600, target}, "expects a string as 1st argument, namely the service account name"},
		{"namespace", false, []any{"a", nil, 3600, target}, "expects a string as 2nd argument, namely the service account namespace"},
		{"seconds", false, []any{"a", "ns", "3600", target}, "expects an integer as 3rd argument, namely the expiration seconds: unsupported type string"},
		{"target", false, []any{"a", "ns", 3600, "cluster"}, "expects a target object as 4th argument: error during unmarshaling"},
		{"missing account", false, []any{"nobody", "ls-system", 3600, target}, `token client: token request failed: serviceaccounts "nobody" not found`},
		{"short lifetime", false, []any{"sidecar", "ls-system", 60, target}, "token client: token request failed: TokenRequest.authentication.k8s.io \"sidecar\" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes"},
		{"no kubeconfig", false, []any{"sidecar", "ls-system", 3600, kubeconfigTarget("")}, "token client: unable to get rest config"},
		// A placeholder (the landscaper-examples' target.yaml as shipped)
		// reaches a simulated cluster in the deployers; the message says
		// what the function needs instead.
		{"placeholder", false, []any{"sidecar", "ls-system", 3600, kubeconfigTarget("apiVersion: v1\nkind: Config\n...\n")},
			"token client: unable to get rest config: invalid configuration: no configuration has been provided, try setting KUBERNETES_MASTER environment variable " +
				"(lscli: the kubeconfig of Target laas/main names no server; lscli's deployers reach a simulated cluster with it, but the function makes its kubeconfig " +
				"from the Target's current context and its cluster: give the Target a kubeconfig whose current context names a server, e.g. https://my-cluster.example:6443, " +
				"and lscli asks that server's simulated cluster)"},
		{"shoot placeholder", true, []any{"app", "garden-dev", 3600, kubeconfigTarget("dummy")}, "shoot client: unable to get rest config: "},
		{"shoot arity", true, []any{"a"}, "templating function getShootAdminKubeconfig expects 4 arguments: shoot name, shoot namespace, expiration seconds, and target for garden project "},
		{"shoot name", true, []any{true, "ns", 3600, target}, "expects a string as 1st argument, namely the shoot name"},
		{"no shoots served", true, []any{"app", "garden-dev", 3600, target}, `shoot client: admin kubeconfig request failed: no matches for kind "Shoot" in version "core.gardener.cloud/v1beta1" (lscli: the cluster behind the Target serves no Shoots, as a garden cluster does with Gardener's CustomResourceDefinition shoots.core.gardener.cloud: for a simulated cluster, seed it with simulatedCluster.seeds)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			if tc.shoot {
				_, err = cl.ShootAdminKubeconfig(false, tc.args...)
			} else {
				_, err = cl.ServiceAccountKubeconfig(false, tc.args...)
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
	_, err := (&funcs.Clusters{}).ServiceAccountKubeconfig(false, "sidecar", "ls-system", 3600, target)
	if !errors.Is(err, funcs.ErrNoCluster) {
		t.Errorf("without clusters: %v", err)
	}
}

// TestKubeconfigTargetContentYAML: a Target whose resolved content is YAML
// (a secretRef's Secret holding `kubeconfig: |`). Landscaper's shoot client
// decodes it as YAML (#1257), its token client as JSON only.
func TestKubeconfigTargetContentYAML(t *testing.T) {
	cl := newSimulated(t)
	gardenKubeconfig := strings.ReplaceAll(saTargetKubeconfig, "https://main.example:6443", "https://garden.example")
	yamlContent := func(kubeconfig string) funcs.TargetResolver {
		return func(*lsv1alpha1.Target) ([]byte, error) {
			return []byte("kubeconfig: |\n  " + strings.ReplaceAll(strings.TrimSpace(kubeconfig), "\n", "\n  ") + "\n"), nil
		}
	}
	cl.Resolve = yamlContent(gardenKubeconfig)
	if _, err := cl.ShootAdminKubeconfig(false, "app", "garden-dev", 1800, kubeconfigTarget(gardenKubeconfig)); err != nil {
		t.Errorf("shoot client, YAML content: %v", err)
	}
	cl.Resolve = yamlContent(saTargetKubeconfig)
	_, err := cl.ServiceAccountKubeconfig(false, "sidecar", "ls-system", 3600, kubeconfigTarget(saTargetKubeconfig))
	if err == nil || !strings.Contains(err.Error(), "token client: failed to unmarshal target config: ") {
		t.Errorf("token client, YAML content: %v", err)
	}
	// A target config without kubeconfig (an oidcConfig): Landscaper's
	// text ends with its %w of a nil error.
	cl.Resolve = func(*lsv1alpha1.Target) ([]byte, error) {
		return []byte(`{"oidcConfig": {"server": "https://x"}}`), nil
	}
	_, err = cl.ServiceAccountKubeconfig(false, "sidecar", "ls-system", 3600, kubeconfigTarget(saTargetKubeconfig))
	if want := "token client: target config contains no kubeconfig: %!w(<nil>)"; err == nil || err.Error() != want {
		t.Errorf("no kubeconfig: %v, want %q", err, want)
	}
}
