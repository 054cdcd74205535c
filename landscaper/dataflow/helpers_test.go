package dataflow

import (
	"context"
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/yaml"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/landscaper/blueprint"
	"github.com/lscli/lscli/reconcile"
)

const ns = "test"

// testCluster is the cluster type of the tests.
type testCluster = fakecluster.Cluster

// key is the key of the object name in namespace "test".
func key(name string) types.NamespacedName { return types.NamespacedName{Namespace: ns, Name: name} }

// newCluster returns a cluster holding objs (YAML documents separated by
// "---"), each in namespace "test".
func newCluster(t *testing.T, objs ...string) *fakecluster.Cluster {
	t.Helper()
	c := fakecluster.New(fakecluster.Options{})
	for _, doc := range objs {
		for _, part := range strings.Split(doc, "\n---\n") {
			create(t, c, decodeObject(t, part))
		}
	}
	return c
}

// decodeObject decodes a YAML object of a kind the cluster knows.
func decodeObject(t *testing.T, doc string) fakecluster.Object {
	t.Helper()
	var head struct{ Kind string }
	if err := yaml.Unmarshal([]byte(doc), &head); err != nil {
		t.Fatal(err)
	}
	gvk := lsv1alpha1.SchemeGroupVersion.WithKind(head.Kind)
	if head.Kind == "Secret" || head.Kind == "ConfigMap" {
		gvk.Group, gvk.Version = "", "v1"
	}
	obj, err := fakecluster.NewScheme().New(gvk)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal([]byte(doc), obj); err != nil {
		t.Fatal(err)
	}
	o := obj.(fakecluster.Object)
	o.SetNamespace(ns)
	return o
}

func create(t *testing.T, c fakecluster.Client, obj fakecluster.Object) {
	t.Helper()
	if err := c.Create(context.Background(), obj); err != nil {
		t.Fatal(err)
	}
}

// installation returns a root installation named name with the inline
// blueprint bp (blueprint.yaml) and the spec fields of specYAML, created in
// c. files are more entries of the inline filesystem: name, content pairs
// (a string, or a map for a folder).
func installation(t *testing.T, c fakecluster.Client, name, specYAML, bp string, files ...any) *lsv1alpha1.Installation {
	t.Helper()
	inst := &lsv1alpha1.Installation{}
	if err := yaml.Unmarshal([]byte(specYAML), &inst.Spec); err != nil {
		t.Fatal(err)
	}
	fsys := map[string]any{"blueprint.yaml": bp}
	for i := 0; i+1 < len(files); i += 2 {
		fsys[files[i].(string)] = files[i+1]
	}
	raw, err := yaml.Marshal(fsys)
	if err != nil {
		t.Fatal(err)
	}
	js, _ := yaml.YAMLToJSON(raw)
	inst.Spec.Blueprint = lsv1alpha1.BlueprintDefinition{Inline: &lsv1alpha1.InlineBlueprint{Filesystem: lsv1alpha1.NewAnyJSON(js)}}
	inst.Name, inst.Namespace = name, ns
	inst.Spec.Context = "default"
	create(t, c, inst)
	inst.Status.JobID = "job-1"
	if err := c.UpdateStatus(context.Background(), inst); err != nil {
		t.Fatal(err)
	}
	return inst
}

// childOf makes inst a subinstallation of parent.
func childOf(t *testing.T, c fakecluster.Client, inst, parent *lsv1alpha1.Installation) {
	t.Helper()
	inst.OwnerReferences = []metav1.OwnerReference{ControllerRef(parent, "Installation")}
	inst.Labels = map[string]string{lsv1alpha1.EncompassedByLabel: parent.Name}
	if err := c.Update(context.Background(), inst); err != nil {
		t.Fatal(err)
	}
}

// blueprintOf reads the blueprint of inst.
func blueprintOf(t *testing.T, inst *lsv1alpha1.Installation) *blueprint.Blueprint {
	t.Helper()
	bp, err := blueprint.ForInstallation(inst, nil)
	if err != nil {
		t.Fatal(err)
	}
	return bp
}

// resolve resolves the imports of inst and fails the test on errors.
func resolve(t *testing.T, c fakecluster.Client, inst *lsv1alpha1.Installation) *Imports {
	t.Helper()
	imps, err := resolveImports(c, inst)
	if err != nil {
		t.Fatal(err)
	}
	return imps
}

// resolveImports resolves the blueprint, component versions and imports of
// inst, as Init does.
func resolveImports(c fakecluster.Reader, inst *lsv1alpha1.Installation) (*Imports, error) {
	bp, tree, err := InstallationBlueprint(context.Background(), c, inst, Sources{})
	if err != nil {
		return nil, err
	}
	return ResolveImports(context.Background(), c, inst, bp, tree)
}

// checkErr checks that err says want and is terminal or not.
func checkErr(t *testing.T, err error, want string, isTerminal bool) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %q", want)
	}
	if !strings.Contains(err.Error(), want) {
		t.Errorf("err = %q\nwant it to contain %q", err, want)
	}
	if reconcile.IsTerminal(err) != isTerminal {
		t.Errorf("terminal = %v, want %v (%v)", reconcile.IsTerminal(err), isTerminal, err)
	}
}

// get reads the object named name of obj's kind.
func get(t *testing.T, c fakecluster.Client, name string, obj fakecluster.Object) {
	t.Helper()
	if err := c.Get(context.Background(), types.NamespacedName{Namespace: ns, Name: name}, obj); err != nil {
		t.Fatalf("get %s: %v", name, err)
	}
}

// toJSON prints v as compact JSON, for comparisons.
func toJSON(v any) string {
	data, err := yaml.Marshal(v)
	if err != nil {
		return err.Error()
	}
	js, _ := yaml.YAMLToJSON(data)
	return string(js)
}
