package action_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lscli/lscli/action"
)

// readAll runs the reading actions and returns what they found as JSON.
func readAll(t *testing.T, cfg *action.Configuration) map[string]string {
	t.Helper()
	ctx := context.Background()
	out := map[string]string{}
	add := func(name string, v any, err error) {
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		out[name] = string(b)
	}
	get := action.NewGet(cfg)
	objs, err := get.Run(ctx, nil)
	add("get", objs, err)
	objs, err = get.Run(ctx, []string{"di"})
	add("get di", objs, err)
	objs, err = action.NewTree(cfg).Run(ctx, "b")
	add("tree b", objs, err)
	objs, err = action.NewTree(cfg).Run(ctx, "")
	add("tree", objs, err)
	ev := action.NewEvents(cfg)
	ev.Name = "a"
	events, err := ev.Run(ctx)
	add("events a", events, err)
	all, err := get.Run(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range all {
		kind := o.GetObjectKind().GroupVersionKind().Kind
		d, err := action.NewDescribe(cfg).Run(ctx, kind, o.GetName())
		add("describe "+kind+" "+o.GetName(), d, err)
	}
	return out
}

// TestReadingAFileLoadMustRead: the reading actions give the same answers
// from a state file in another JSON layout (which only a full load reads)
// as from the file Save wrote (which they read lazily).
func TestReadingAFileLoadMustRead(t *testing.T) {
	cfg := actionConfigFixture(t)
	a := action.NewReconcile(cfg)
	target := filepath.Join(t.TempDir(), "target.yaml")
	if err := os.WriteFile(target, []byte(`apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Target
metadata: {name: cluster, namespace: test}
spec: {type: landscaper.gardener.cloud/kubernetes-cluster, config: {kubeconfig: x}}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	a.Paths = []string{landscapeFile(t, "a", "{}"), landscapeFile(t, "b", "{phase: Failed}"), target}
	if _, err := a.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	lazy := readAll(t, cfg)
	if !strings.Contains(lazy["tree b"], `"name":"b"`) || !strings.Contains(lazy["get di"], "DeployItem") ||
		lazy["describe Target cluster"] == "" ||
		strings.Contains(lazy["tree b"], `"name":"a"`) {
		t.Fatalf("unexpected answers: %v", lazy)
	}

	path := filepath.Join(cfg.StatePath, "state.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.ReplaceAll(string(data), "\n", "\n  ")), 0o600); err != nil {
		t.Fatal(err)
	}
	whole := readAll(t, cfg)
	for name, want := range lazy {
		if whole[name] != want {
			t.Errorf("%s from a hand-laid-out file:\n%s\nfrom Save's layout:\n%s", name, whole[name], want)
		}
	}
}
