package action_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/lscli/lscli/action"
	"github.com/lscli/lscli/deployers"
)

// objectsFile writes a landscape of stand-alone objects and returns its path:
// a Target, a DataObject held by a finalizer, a Secret, a TargetSync, a mock
// DeployItem, a fake one whose deletion fails, and an Execution.
func objectsFile(t *testing.T) string {
	t.Helper()
	doc := `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Target
metadata: {name: cluster, namespace: test}
spec: {type: landscaper.gardener.cloud/kubernetes-cluster}
---
apiVersion: landscaper.gardener.cloud/v1alpha1
kind: DataObject
metadata: {name: held, namespace: test, finalizers: [example.com/keep]}
data: 1
---
apiVersion: v1
kind: Secret
metadata: {name: s, namespace: test}
stringData: {a: b}
---
apiVersion: landscaper.gardener.cloud/v1alpha1
kind: TargetSync
metadata: {name: sync, namespace: test}
spec: {sourceNamespace: garden, secretNameExpression: ".*", secretRef: {name: kc, key: kubeconfig}}
---
apiVersion: landscaper.gardener.cloud/v1alpha1
kind: DeployItem
metadata: {name: item, namespace: test}
spec:
  type: landscaper.gardener.cloud/mock
  config: {apiVersion: mock.deployer.landscaper.gardener.cloud/v1alpha1, kind: ProviderConfiguration, export: {a: 1}}
---
apiVersion: landscaper.gardener.cloud/v1alpha1
kind: DeployItem
metadata: {name: sticky, namespace: test}
spec:
  type: example.com/sticky
  config: {}
---
apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Execution
metadata: {name: exec, namespace: test}
spec:
  deployItems:
  - name: a
    type: landscaper.gardener.cloud/mock
    config: {apiVersion: mock.deployer.landscaper.gardener.cloud/v1alpha1, kind: ProviderConfiguration}
`
	p := filepath.Join(t.TempDir(), "objects.yaml")
	if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestDeleteExitCodes deletes objects of every kind from a saved landscape.
func TestDeleteExitCodes(t *testing.T) {
	ctx := context.Background()
	cfg := actionConfigFixture(t)
	rules, err := deployers.CompileRules([]deployers.RuleConfig{{Match: deployers.MatchConfig{Name: "sticky"},
		Delete: deployers.StepConfig{Fail: "volume is still attached"}}})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Deployers.Rules = rules
	rec := action.NewReconcile(cfg)
	rec.Paths = []string{objectsFile(t)}
	res, err := rec.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.ExitCode(); got != action.ExitOK || len(res.Assessment.Roots) != 3 {
		t.Fatalf("reconcile: exit code %d, objects %+v; want %d and three stand-alone objects", got, res.Assessment.Roots, action.ExitOK)
	}
	tests := []struct {
		kind, name       string
		withoutUninstall bool
		want             int
		outcome          action.Outcome
	}{
		{kind: "target", name: "cluster", want: action.ExitOK, outcome: action.OutcomeGone},
		{kind: "tgs", name: "sync", want: action.ExitOK, outcome: action.OutcomeGone},
		{kind: "secret", name: "s", want: action.ExitOK, outcome: action.OutcomeGone},
		{kind: "do", name: "held", want: action.ExitUnfinished, outcome: action.OutcomeUnfinished},
		{kind: "di", name: "item", want: action.ExitOK, outcome: action.OutcomeGone},
		{kind: "di", name: "sticky", want: action.ExitFailed, outcome: action.OutcomeFailed},
		{kind: "execution", name: "exec", withoutUninstall: true, want: action.ExitOK, outcome: action.OutcomeGone},
	}
	for _, tt := range tests {
		del := action.NewDelete(cfg)
		del.Kind, del.Name, del.WithoutUninstall = tt.kind, tt.name, tt.withoutUninstall
		res, err := del.Run(ctx)
		if err != nil {
			t.Fatalf("delete %s %s: %v", tt.kind, tt.name, err)
		}
		if got := res.ExitCode(); got != tt.want || res.Assessment.Roots[0].Outcome != tt.outcome {
			t.Errorf("delete %s %s: exit code %d, objects %+v; want %d, %s", tt.kind, tt.name, got, res.Assessment.Roots, tt.want, tt.outcome)
		}
	}
	for _, tt := range []struct{ kind, name string }{
		{"gadget", "x"}, {"target", "nosuch"}, {"installation", "nosuch"},
	} {
		del := action.NewDelete(cfg)
		del.Kind, del.Name = tt.kind, tt.name
		if _, err := del.Run(ctx); action.ExitCodeOf(err) != action.ExitInvalid {
			t.Errorf("delete %s %s: %v, want exit %d", tt.kind, tt.name, err, action.ExitInvalid)
		}
	}
	del := action.NewDelete(cfg)
	del.Kind, del.Name, del.WithoutUninstall = "do", "held", true
	if _, err := del.Run(ctx); action.ExitCodeOf(err) != action.ExitInvalid {
		t.Errorf("delete --without-uninstall of a DataObject: %v, want exit %d", err, action.ExitInvalid)
	}
}

// TestStandaloneExitCodes triggers stand-alone objects.
func TestStandaloneExitCodes(t *testing.T) {
	ctx := context.Background()
	cfg := actionConfigFixture(t)
	rec := action.NewReconcile(cfg)
	rec.Paths = []string{objectsFile(t)}
	if _, err := rec.Run(ctx); err != nil {
		t.Fatal(err)
	}
	tr := action.NewTrigger(cfg)
	tr.Kind, tr.Name = "deployitem", "item"
	res, err := tr.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.ExitCode(); got != action.ExitOK || res.Assessment.Roots[0].Kind != "DeployItem" {
		t.Errorf("trigger deployitem: exit code %d, objects %+v; want %d", got, res.Assessment.Roots, action.ExitOK)
	}
	owned := action.NewTrigger(cfg)
	owned.Kind = "di"
	for _, o := range res.Objects {
		if o.GetObjectKind().GroupVersionKind().Kind == "DeployItem" && o.GetName() != "item" && o.GetName() != "sticky" {
			owned.Name = o.GetName()
		}
	}
	if _, err := owned.Run(ctx); action.ExitCodeOf(err) != action.ExitInvalid {
		t.Errorf("trigger of a controlled deploy item: %v, want exit %d", err, action.ExitInvalid)
	}
}
