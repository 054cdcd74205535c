package spiff

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/lscli/lscli/deployers/simcluster"
	"github.com/lscli/lscli/internal/ids"
	"github.com/lscli/lscli/landscaper/template/funcs"
)

// spiffTarget is a Target of the cluster https://main.example, as Spiff
// templates get it from their imports.
const spiffTarget = `{"metadata": {"name": "main", "namespace": "laas"}, "spec": {"type": "landscaper.gardener.cloud/kubernetes-cluster",
  "config": {"kubeconfig": "apiVersion: v1\nkind: Config\ncurrent-context: c\ncontexts: [{name: c, context: {cluster: c, user: u}}]\nclusters: [{name: c, cluster: {server: 'https://main.example'}}]\nusers: [{name: u, user: {token: t}}]\n"}}}`

// TestClusterKubeconfigFunctions: Spiff's getServiceAccountKubeconfig
// functions ask the simulated cluster, with Spiff's int64 numbers; a
// missing account fails as in GoTemplate; without clusters (a dry run) they
// say so.
func TestClusterKubeconfigFunctions(t *testing.T) {
	seed, err := simcluster.ParseSeed(simcluster.SeedConfig{Server: "https://main.example", Files: []string{"s.yaml"}},
		[]simcluster.SeedFile{{Name: "s.yaml", Data: []byte("apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: sidecar, namespace: default}\n")}})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	clusters := &funcs.Clusters{Context: context.Background(), Clients: simcluster.New(simcluster.Options{
		Now: func() time.Time { return now }, IDs: ids.NewSource(1), Seeds: []simcluster.Seed{seed}})}
	run := func(cl *funcs.Clusters, account string) (string, error) {
		res, err := Execute(Request{Name: "main", Functions: NewFunctions(nil, cl), Values: map[string]any{"target": mustJSON(t, spiffTarget)},
			Template: []byte(`{"kc": "(( getServiceAccountKubeconfigWithExpirationTimestamp(\"` + account + `\", \"default\", 3600, target) ))"}`)})
		if err != nil {
			return "", err
		}
		return string(res.Output), nil
	}
	out, err := run(clusters, "sidecar")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"expirationTimestamp: 1735693200", "expirationTimestampReadable: \"2025-01-01T01:00:00Z\"", "kubeconfig: YXBpVmVyc2lvbjog"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if _, err := run(clusters, "nobody"); err == nil || !strings.Contains(err.Error(), `token client: token request failed: serviceaccounts "nobody" not found`) {
		t.Errorf("missing account: %v", err)
	}
	if _, err := run(nil, "sidecar"); err == nil || !strings.Contains(err.Error(), funcs.ErrNoCluster.Error()) {
		t.Errorf("without clusters: %v", err)
	}
}

// mustJSON decodes a JSON value.
func mustJSON(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return v
}
