package engine

import (
	"context"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/fakecluster"
)

const testNS = "test"

// fixture is a cluster with a virtual clock and seeded randomness, for
// driving one controller step by step.
type fixture struct {
	t   *testing.T
	cfg *Config
	ctx context.Context
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	cfg, err := NewConfig(nil, DefaultSeed, false, DefaultStartTime)
	if err != nil {
		t.Fatal(err)
	}
	cfg.defaults()
	if err := addIndexes(cfg.Cluster); err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, cfg: &cfg, ctx: context.Background()}
	f.create(&lsv1alpha1.Context{ObjectMeta: metav1.ObjectMeta{Name: "default", Namespace: testNS}})
	return f
}

func (f *fixture) create(obj fakecluster.Object) {
	f.t.Helper()
	if obj.GetNamespace() == "" {
		obj.SetNamespace(testNS)
	}
	if err := f.cfg.Cluster.Create(f.ctx, obj); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) get(obj fakecluster.Object, name string) bool {
	f.t.Helper()
	err := f.cfg.Cluster.Get(f.ctx, types.NamespacedName{Namespace: testNS, Name: name}, obj)
	return err == nil
}

func (f *fixture) installation(name string) *lsv1alpha1.Installation {
	f.t.Helper()
	inst := &lsv1alpha1.Installation{}
	if !f.get(inst, name) {
		f.t.Fatalf("installation %s not found", name)
	}
	return inst
}

func (f *fixture) execution(name string) *lsv1alpha1.Execution {
	f.t.Helper()
	exec := &lsv1alpha1.Execution{}
	if !f.get(exec, name) {
		f.t.Fatalf("execution %s not found", name)
	}
	return exec
}

func (f *fixture) reconcile(r Reconciler, name string) (Result, error) {
	f.t.Helper()
	return r.Reconcile(f.ctx, types.NamespacedName{Namespace: testNS, Name: name})
}

// inlineBlueprint returns an inline blueprint whose deployExecution renders
// the given deploy items YAML (a list, one item per line).
func inlineBlueprint(items string) lsv1alpha1.BlueprintDefinition {
	bp := "apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Blueprint\n"
	if items != "" {
		bp += "deployExecutions:\n- name: main\n  type: GoTemplate\n  template: |\n    deployItems:\n"
		for _, line := range splitNonEmpty(items) {
			bp += "    " + line + "\n"
		}
	}
	fsJSON := `{"blueprint.yaml": ` + quoteJSON(bp) + `}`
	return lsv1alpha1.BlueprintDefinition{Inline: &lsv1alpha1.InlineBlueprint{Filesystem: lsv1alpha1.NewAnyJSON([]byte(fsJSON))}}
}

// inst builds an installation with a finalizer and the given status. Its
// blueprint declares the imports and exports of its spec and exports a
// constant for each export.
func inst(name string, status lsv1alpha1.InstallationStatus, mods ...func(*lsv1alpha1.Installation)) *lsv1alpha1.Installation {
	i := &lsv1alpha1.Installation{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: testNS, Finalizers: []string{lsv1alpha1.LandscaperFinalizer}},
		Spec:       lsv1alpha1.InstallationSpec{Context: "default"},
		Status:     status,
	}
	for _, m := range mods {
		m(i)
	}
	i.Spec.Blueprint = dataBlueprint(i)
	return i
}

// dataBlueprint is an inline blueprint that declares the data imports and
// exports of i's spec; its exportExecution exports the string "value".
func dataBlueprint(i *lsv1alpha1.Installation) lsv1alpha1.BlueprintDefinition {
	bp := "apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Blueprint\nimports:\n"
	for _, d := range i.Spec.Imports.Data {
		bp += "- {name: " + d.Name + ", type: data, schema: {type: string}}\n"
	}
	bp += "exports:\n"
	exports := ""
	for _, d := range i.Spec.Exports.Data {
		bp += "- {name: " + d.Name + ", type: data, schema: {type: string}}\n"
		exports += "      " + d.Name + ": value\n"
	}
	if exports != "" {
		bp += "exportExecutions:\n- name: exp\n  type: GoTemplate\n  template: |\n    exports:\n" + exports
	}
	fsJSON := `{"blueprint.yaml": ` + quoteJSON(bp) + `}`
	return lsv1alpha1.BlueprintDefinition{Inline: &lsv1alpha1.InlineBlueprint{Filesystem: lsv1alpha1.NewAnyJSON([]byte(fsJSON))}}
}

func withAnnotation(k, v string) func(*lsv1alpha1.Installation) {
	return func(i *lsv1alpha1.Installation) {
		if i.Annotations == nil {
			i.Annotations = map[string]string{}
		}
		i.Annotations[k] = v
	}
}

func withImport(dataRef string) func(*lsv1alpha1.Installation) {
	return func(i *lsv1alpha1.Installation) {
		i.Spec.Imports.Data = append(i.Spec.Imports.Data, lsv1alpha1.DataImport{Name: "in-" + dataRef, DataRef: dataRef})
	}
}

func withExport(dataRef string) func(*lsv1alpha1.Installation) {
	return func(i *lsv1alpha1.Installation) {
		i.Spec.Exports.Data = append(i.Spec.Exports.Data, lsv1alpha1.DataExport{Name: "out-" + dataRef, DataRef: dataRef})
	}
}

func withOwner(owner *lsv1alpha1.Installation) func(*lsv1alpha1.Installation) {
	return func(i *lsv1alpha1.Installation) {
		i.OwnerReferences = []metav1.OwnerReference{controllerRef(owner, "Installation")}
		i.Labels = map[string]string{lsv1alpha1.EncompassedByLabel: owner.Name}
	}
}

func status(phase lsv1alpha1.InstallationPhase, jobID, finished string) lsv1alpha1.InstallationStatus {
	return lsv1alpha1.InstallationStatus{InstallationPhase: phase, JobID: jobID, JobIDFinished: finished}
}
