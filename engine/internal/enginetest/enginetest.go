package enginetest

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/internal/ids"
	"github.com/lscli/lscli/landscaper/dataflow"
	"github.com/lscli/lscli/reconcile"
)

// NS is the namespace the fixture's objects live in.
const NS = "test"

// Fixture is a cluster with a virtual clock and seeded randomness, for
// driving one controller step by step.
type Fixture struct {
	T       *testing.T
	Cluster *fakecluster.Cluster
	Clock   *reconcile.VirtualClock
	Rand    *reconcile.Random
	IDs     ids.Source
	Ctx     context.Context
}

// New returns a fixture with a default Context in NS. indexes, when not nil,
// registers field indexes on the cluster (installation.AddIndexes).
func New(t *testing.T, indexes func(*fakecluster.Cluster) error) *Fixture {
	t.Helper()
	clock := reconcile.NewVirtualClock(reconcile.DefaultStartTime)
	rnd := reconcile.NewRandom(reconcile.DefaultSeed)
	c := fakecluster.New(fakecluster.Options{Now: clock.Now, IDs: ids.NewSource(reconcile.DefaultSeed)})
	if indexes != nil {
		if err := indexes(c); err != nil {
			t.Fatal(err)
		}
	}
	f := &Fixture{T: t, Cluster: c, Clock: clock, Rand: rnd, IDs: ids.NewSource(reconcile.DefaultSeed), Ctx: context.Background()}
	f.Create(&lsv1alpha1.Context{ObjectMeta: metav1.ObjectMeta{Name: "default", Namespace: NS}})
	return f
}

// Create stores obj (in NS unless it has a namespace).
func (f *Fixture) Create(obj fakecluster.Object) {
	f.T.Helper()
	if obj.GetNamespace() == "" {
		obj.SetNamespace(NS)
	}
	if err := f.Cluster.Create(f.Ctx, obj); err != nil {
		f.T.Fatal(err)
	}
}

// Get reads the object name of obj's kind from NS.
func (f *Fixture) Get(obj fakecluster.Object, name string) bool {
	f.T.Helper()
	err := f.Cluster.Get(f.Ctx, types.NamespacedName{Namespace: NS, Name: name}, obj)
	return err == nil
}

// Installation returns the installation name.
func (f *Fixture) Installation(name string) *lsv1alpha1.Installation {
	f.T.Helper()
	inst := &lsv1alpha1.Installation{}
	if !f.Get(inst, name) {
		f.T.Fatalf("installation %s not found", name)
	}
	return inst
}

// Execution returns the execution name.
func (f *Fixture) Execution(name string) *lsv1alpha1.Execution {
	f.T.Helper()
	exec := &lsv1alpha1.Execution{}
	if !f.Get(exec, name) {
		f.T.Fatalf("execution %s not found", name)
	}
	return exec
}

// Reconcile calls r for the object name in NS.
func (f *Fixture) Reconcile(r reconcile.Reconciler, name string) (reconcile.Result, error) {
	f.T.Helper()
	return r.Reconcile(f.Ctx, types.NamespacedName{Namespace: NS, Name: name})
}

// InlineBlueprint returns an inline blueprint whose deployExecution renders
// the given deploy items YAML (a list, one item per line).
func InlineBlueprint(items string) lsv1alpha1.BlueprintDefinition {
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

// Inst builds an installation with a finalizer and the given status. Its
// blueprint declares the imports and exports of its spec and exports a
// constant for each export.
func Inst(name string, status lsv1alpha1.InstallationStatus, mods ...func(*lsv1alpha1.Installation)) *lsv1alpha1.Installation {
	i := &lsv1alpha1.Installation{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: NS, Finalizers: []string{lsv1alpha1.LandscaperFinalizer}},
		Spec:       lsv1alpha1.InstallationSpec{Context: "default"},
		Status:     status,
	}
	for _, m := range mods {
		m(i)
	}
	i.Spec.Blueprint = DataBlueprint(i)
	return i
}

// DataBlueprint is an inline blueprint that declares the data imports and
// exports of i's spec; its exportExecution exports the string "value".
func DataBlueprint(i *lsv1alpha1.Installation) lsv1alpha1.BlueprintDefinition {
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

// WithAnnotation sets an annotation.
func WithAnnotation(k, v string) func(*lsv1alpha1.Installation) {
	return func(i *lsv1alpha1.Installation) {
		if i.Annotations == nil {
			i.Annotations = map[string]string{}
		}
		i.Annotations[k] = v
	}
}

// WithImport adds a data import of dataRef.
func WithImport(dataRef string) func(*lsv1alpha1.Installation) {
	return func(i *lsv1alpha1.Installation) {
		i.Spec.Imports.Data = append(i.Spec.Imports.Data, lsv1alpha1.DataImport{Name: "in-" + dataRef, DataRef: dataRef})
	}
}

// WithExport adds a data export to dataRef.
func WithExport(dataRef string) func(*lsv1alpha1.Installation) {
	return func(i *lsv1alpha1.Installation) {
		i.Spec.Exports.Data = append(i.Spec.Exports.Data, lsv1alpha1.DataExport{Name: "out-" + dataRef, DataRef: dataRef})
	}
}

// WithOwner makes the installation a subinstallation of owner.
func WithOwner(owner *lsv1alpha1.Installation) func(*lsv1alpha1.Installation) {
	return func(i *lsv1alpha1.Installation) {
		i.OwnerReferences = []metav1.OwnerReference{dataflow.ControllerRef(owner, "Installation")}
		i.Labels = map[string]string{lsv1alpha1.EncompassedByLabel: owner.Name}
	}
}

// Status returns an installation status.
func Status(phase lsv1alpha1.InstallationPhase, jobID, finished string) lsv1alpha1.InstallationStatus {
	return lsv1alpha1.InstallationStatus{InstallationPhase: phase, JobID: jobID, JobIDFinished: finished}
}

func splitNonEmpty(s string) []string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		if strings.TrimSpace(line) != "" {
			out = append(out, strings.TrimLeft(line, "\t"))
		}
	}
	return out
}

func quoteJSON(s string) string {
	data, _ := json.Marshal(s)
	return string(data)
}

// Job IDs for prepared states.
const (
	Job1 = "11111111-1111-4111-8111-111111111111"
	Job2 = "22222222-2222-4222-8222-222222222222"
)

// Delete deletes obj (it only gets a deletionTimestamp while it has finalizers).
func (f *Fixture) Delete(obj fakecluster.Object) {
	f.T.Helper()
	if err := f.Cluster.Delete(f.Ctx, obj); err != nil {
		f.T.Fatal(err)
	}
}

// ReconcileObject runs r once, through reconcile.AsReconciler, for the
// object name in NS.
func ReconcileObject[T fakecluster.Object](f *Fixture, r reconcile.ObjectReconciler[T], name string) (reconcile.Result, error) {
	f.T.Helper()
	return f.Reconcile(reconcile.AsReconciler(f.Cluster, r), name)
}
