package engine_test

import (
	"context"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/deployers"
	"github.com/lscli/lscli/deployers/deployer"
	"github.com/lscli/lscli/engine"
	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/reconcile"
)

// newTestEngine returns an engine with the mock deployer and a default Context
// in namespace "test".
func newTestEngine(t *testing.T) *engine.Engine {
	t.Helper()
	cfg, err := engine.NewConfig(nil, reconcile.DefaultSeed, false, reconcile.DefaultStartTime)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Deployer = (&deployers.Framework{Client: cfg.Cluster, Clock: cfg.Clock,
		Deployers: map[lsv1alpha1.DeployItemType]deployer.Deployer{deployers.MockType: deployers.Mock{}}}).Reconciler()
	e := engine.New(cfg)
	create(t, cfg.Cluster, &lsv1alpha1.Context{ObjectMeta: metav1.ObjectMeta{Name: "default", Namespace: "test"}})
	return e
}

func create(t *testing.T, c *fakecluster.Cluster, obj fakecluster.Object) {
	t.Helper()
	if err := c.Create(context.Background(), obj); err != nil {
		t.Fatal(err)
	}
}

// rootInstallation returns a root installation with the reconcile annotation
// whose blueprint renders one mock deploy item per config.
func rootInstallation(name string, configs ...string) *lsv1alpha1.Installation {
	tmpl := "deployItems:\n"
	for i, c := range configs {
		tmpl += "- name: item-" + string(rune('a'+i)) + "\n  type: landscaper.gardener.cloud/mock\n  config: " + c + "\n"
	}
	bp := "apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Blueprint\ndeployExecutions:\n- name: main\n  type: GoTemplate\n  template: |\n"
	for _, line := range splitLines(tmpl) {
		bp += "    " + line + "\n"
	}
	fsJSON := map[string]string{"blueprint.yaml": bp}
	raw := mustJSON(fsJSON)
	return &lsv1alpha1.Installation{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "test",
			Annotations: map[string]string{lsv1alpha1.OperationAnnotation: string(lsv1alpha1.ReconcileOperation)}},
		Spec: lsv1alpha1.InstallationSpec{Context: "default",
			Blueprint: lsv1alpha1.BlueprintDefinition{Inline: &lsv1alpha1.InlineBlueprint{Filesystem: lsv1alpha1.NewAnyJSON(raw)}}},
	}
}

func TestSimpleLandscapeSucceeds(t *testing.T) {
	e := newTestEngine(t)
	c := e.Config().Cluster
	create(t, c, rootInstallation("demo", `{export: {greeting: hello}}`, `{}`))
	res, err := e.Run(context.Background(), reconcile.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Reason != reconcile.StopQuiet {
		t.Errorf("stop reason = %s, want quiet", res.Reason)
	}
	inst := &lsv1alpha1.Installation{}
	if err := c.Get(context.Background(), types.NamespacedName{Namespace: "test", Name: "demo"}, inst); err != nil {
		t.Fatal(err)
	}
	if inst.Status.InstallationPhase != lsv1alpha1.InstallationPhases.Succeeded || inst.Status.JobID == "" ||
		inst.Status.JobID != inst.Status.JobIDFinished {
		t.Fatalf("installation status = %+v", inst.Status)
	}
	if _, ok := inst.Annotations[lsv1alpha1.OperationAnnotation]; ok {
		t.Error("reconcile annotation was not removed")
	}
	items := &lsv1alpha1.DeployItemList{}
	if err := c.List(context.Background(), items, fakecluster.ListOptions{Namespace: "test"}); err != nil {
		t.Fatal(err)
	}
	if len(items.Items) != 2 {
		t.Fatalf("got %d deploy items, want 2", len(items.Items))
	}
	for _, di := range items.Items {
		if di.Status.Phase != lsv1alpha1.DeployItemPhases.Succeeded || di.Status.JobIDFinished != inst.Status.JobID {
			t.Errorf("deploy item %s: phase %s job %s finished %s", di.Name, di.Status.Phase, di.Status.JobID, di.Status.JobIDFinished)
		}
	}
	for _, ev := range e.Events() {
		t.Logf("%s %s/%s %s %s %s", ev.Kind, ev.Namespace, ev.Name, ev.Type, ev.Phase, ev.Message)
	}
}
