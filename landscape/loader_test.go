package landscape

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/lscli/lscli/fakecluster"
)

// testScheme returns the scheme lscli uses.
func testScheme(t *testing.T) *runtime.Scheme {
	t.Helper()
	return fakecluster.NewScheme()
}

// mapFS makes a file system of file names and contents.
func mapFS(files map[string]string) fstest.MapFS {
	fsys := fstest.MapFS{}
	for name, data := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(data)}
	}
	return fsys
}

// obj returns a minimal valid document of kind named name.
func obj(apiVersion, kind, name string) string {
	return fmt.Sprintf("apiVersion: %s\nkind: %s\nmetadata:\n  name: %s\n", apiVersion, kind, name)
}

func dataObject(name string) string {
	return obj(lsGV, "DataObject", name) + "data: 1\n"
}

// summary lists the loaded objects as "FILE#INDEX KIND NAMESPACE/NAME".
func summary(ls *Landscape) []string {
	var lines []string
	for _, d := range ls.Objects {
		gvk := d.Object.GetObjectKind().GroupVersionKind()
		lines = append(lines, fmt.Sprintf("%s#%d %s %s/%s", d.File, d.Index, gvk.Kind, d.Object.GetNamespace(), d.Object.GetName()))
	}
	return lines
}

// problemLines returns the lines of a *LoadError, failing the test for any
// other error.
func problemLines(t *testing.T, err error) []string {
	t.Helper()
	if err == nil {
		return nil
	}
	var le *LoadError
	if !errors.As(err, &le) {
		t.Fatalf("error is %T, want *LoadError: %v", err, err)
	}
	return strings.Split(le.Error(), "\n")
}

func TestLoadFiles(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		paths []string
		want  []string
	}{{
		name: "multi-document file with empty documents and comments",
		files: map[string]string{"a.yaml": "---\n" + dataObject("one") + "---\n# just a comment\n---\n\n---\n" +
			dataObject("two") + "--- # trailing comment\n" + dataObject("three") + "---\n"},
		paths: []string{"a.yaml"},
		want:  []string{"a.yaml#1 DataObject default/one", "a.yaml#2 DataObject default/two", "a.yaml#3 DataObject default/three"},
	}, {
		name: "directory walked recursively in lexical order",
		files: map[string]string{
			"l/b.yaml":       dataObject("b"),
			"l/a/z.yml":      dataObject("az"),
			"l/a.yaml":       dataObject("a"),
			"l/a/b/c.yaml":   dataObject("abc"),
			"l/a-b.yaml":     dataObject("a-b"),
			"l/notes.txt":    "not yaml",
			"l/UPPER.YAML":   dataObject("upper"),
			"l/.hidden.yaml": dataObject("hidden"),
		},
		paths: []string{"l"},
		want: []string{"l/UPPER.YAML#1 DataObject default/upper", "l/a-b.yaml#1 DataObject default/a-b",
			"l/a.yaml#1 DataObject default/a", "l/a/b/c.yaml#1 DataObject default/abc",
			"l/a/z.yml#1 DataObject default/az", "l/b.yaml#1 DataObject default/b"},
	}, {
		name: "hidden folders, blueprint folders and helm chart folders are skipped",
		files: map[string]string{
			"x.yaml":                       dataObject("x"),
			".lscli/state.yaml":            "anything: [",
			".git/config.yaml":             "anything: [",
			"bp/blueprint.yaml":            "apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Blueprint\n",
			"bp/deploy.yaml":               "{{ if }}",
			"notbp/blueprint.yaml":         dataObject("not-a-blueprint"),
			"sub/.cache/x.yaml":            "anything: [",
			"sub/deeper/bp/blueprint.yaml": "kind: Blueprint\n",
			"charts/app/Chart.yaml":        "apiVersion: v2\nname: app\nversion: 1.0.0\n",
			"charts/app/values.yaml":       "replicas: 1\n",
			"charts/app/templates/cm.yaml": "{{ if }}",
			"lscli.yaml":                   "seed: 1\n",
		},
		paths: nil, // "."
		want:  []string{"notbp/blueprint.yaml#1 DataObject default/not-a-blueprint", "x.yaml#1 DataObject default/x"},
	}, {
		name:  "paths in the given order, each file read once",
		files: map[string]string{"d/a.yaml": dataObject("a"), "d/b.yaml": dataObject("b"), "c.txt": dataObject("c")},
		paths: []string{"d/b.yaml", "c.txt", "./d", "d/a.yaml"},
		want:  []string{"d/b.yaml#1 DataObject default/b", "c.txt#1 DataObject default/c", "d/a.yaml#1 DataObject default/a"},
	}, {
		name: "byte order mark, CRLF line ends and JSON",
		files: map[string]string{
			"crlf.yaml": "\xef\xbb\xbf" + strings.ReplaceAll(dataObject("a")+"---\n"+dataObject("b"), "\n", "\r\n"),
			"x.json":    `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "j"}, "data": {"k": "v"}}`,
		},
		paths: []string{"crlf.yaml", "x.json"},
		want:  []string{"crlf.yaml#1 DataObject default/a", "crlf.yaml#2 DataObject default/b", "x.json#1 ConfigMap default/j"},
	}, {
		// A document end marker ("...") ends a document; what follows is
		// the next one (it used to be dropped without a word).
		name: "document end markers",
		files: map[string]string{"a.yaml": dataObject("one") + "...\n" + dataObject("two") + "... # end\n---\n" +
			dataObject("three") + "...\n"},
		paths: []string{"a.yaml"},
		want:  []string{"a.yaml#1 DataObject default/one", "a.yaml#2 DataObject default/two", "a.yaml#3 DataObject default/three"},
	}, {
		name:  "a hidden folder named explicitly is read",
		files: map[string]string{".config/a.yaml": dataObject("a")},
		paths: []string{".config"},
		want:  []string{".config/a.yaml#1 DataObject default/a"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := &Loader{FS: mapFS(tt.files), Scheme: testScheme(t)}
			ls, err := l.Load(tt.paths...)
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			if got := summary(ls); !slices.Equal(got, tt.want) {
				t.Errorf("loaded\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// TestExamples loads each landscape in examples/, so that examples cannot go
// stale.
func TestExamples(t *testing.T) {
	entries, err := os.ReadDir("../examples")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		t.Run(e.Name(), func(t *testing.T) {
			if _, err := (&Loader{}).Load(filepath.Join("../examples", e.Name())); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestLoadHostFilesystem(t *testing.T) {
	abs, err := filepath.Abs("testdata/landscape")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"%s/installation.yaml#1 Installation default/demo",
		"%s/installation.yaml#2 DataObject default/do-ns",
		"%s/targets/cluster.yml#1 Target default/my-cluster",
		"%s/targets/cluster.yml#2 Secret default/kubeconfig",
	}
	for _, dir := range []string{"testdata/landscape", "./testdata/landscape/", filepath.ToSlash(abs)} {
		t.Run(dir, func(t *testing.T) {
			ls, err := (&Loader{}).Load(dir)
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			prefix := strings.TrimSuffix(strings.TrimPrefix(dir, "./"), "/")
			var w []string
			for _, line := range want {
				w = append(w, fmt.Sprintf(line, prefix))
			}
			if got := summary(ls); !slices.Equal(got, w) {
				t.Errorf("loaded\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(w, "\n"))
			}
		})
	}
}

func TestLoadHostFilesystemRelative(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string]string{"a/x.yaml": dataObject("x"), "b/y.yaml": dataObject("yy")} {
		writeFile(t, filepath.Join(dir, name), data)
	}
	t.Chdir(filepath.Join(dir, "b"))
	ls, err := (&Loader{}).Load("../a", ".", "y.yaml")
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	want := []string{"../a/x.yaml#1 DataObject default/x", "y.yaml#1 DataObject default/yy"}
	if got := summary(ls); !slices.Equal(got, want) {
		t.Errorf("loaded %q, want %q", got, want)
	}
	_, err = (&Loader{}).Load("missing.yaml", "../a/nope")
	want = []string{"missing.yaml: no such file or directory", "../a/nope: no such file or directory"}
	if got := problemLines(t, err); !slices.Equal(got, want) {
		t.Errorf("problems %q, want %q", got, want)
	}
}

func TestLoadSchemeAndNamespace(t *testing.T) {
	files := mapFS(map[string]string{"a.yaml": dataObject("a") + "---\n" +
		obj(lsGV, "DataObject", "b") + "  namespace: other\n"})
	tests := []struct {
		name   string
		loader Loader
		want   []string
	}{
		{"defaults", Loader{FS: files}, []string{"a.yaml#1 DataObject default/a", "a.yaml#2 DataObject other/b"}},
		{"namespace", Loader{FS: files, DefaultNamespace: "ns1", Scheme: testScheme(t)},
			[]string{"a.yaml#1 DataObject ns1/a", "a.yaml#2 DataObject other/b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ls, err := tt.loader.Load("a.yaml")
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			if got := summary(ls); !slices.Equal(got, tt.want) {
				t.Errorf("loaded %q, want %q", got, tt.want)
			}
		})
	}
}

func TestDefaults(t *testing.T) {
	ls, err := (&Loader{Scheme: testScheme(t)}).Load("testdata/landscape")
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	inst := ls.Objects[0].Object.(*lsv1alpha1.Installation)
	if inst.Spec.Context != "default" {
		t.Errorf("Installation spec.context = %q, want default", inst.Spec.Context)
	}
	if gvk := inst.GroupVersionKind(); gvk != lsv1alpha1.SchemeGroupVersion.WithKind("Installation") {
		t.Errorf("Installation TypeMeta = %v", gvk)
	}
	secret := ls.Objects[3].Object.(*corev1.Secret)
	if got := string(secret.Data["kubeconfig"]); got != "apiVersion: v1\nkind: Config\n" || secret.StringData != nil {
		t.Errorf("Secret data = %q, stringData = %q: want stringData merged into data", got, secret.StringData)
	}
	if secret.Type != corev1.SecretTypeOpaque {
		t.Errorf("Secret type = %q, want Opaque", secret.Type)
	}
	if gvk := secret.GroupVersionKind(); gvk != (schema.GroupVersionKind{Version: "v1", Kind: "Secret"}) {
		t.Errorf("Secret TypeMeta = %v", gvk)
	}
}

func TestDefaultsOfKinds(t *testing.T) {
	files := mapFS(map[string]string{"a.yaml": strings.Join([]string{
		obj(lsGV, "Execution", "e") + "spec:\n  context: mine\n",
		obj(lsGV, "Execution", "f"),
		obj(lsGV, "DeployItem", "d") + "spec:\n  type: x\n" +
			"status:\n  deployItemPhase: Succeeded\n  phase: Succeeded\n",
	}, "---\n")})
	ls, err := (&Loader{FS: files}).Load()
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if got := ls.Objects[0].Object.(*lsv1alpha1.Execution).Spec.Context; got != "mine" {
		t.Errorf("set spec.context = %q, want mine", got)
	}
	if got := ls.Objects[1].Object.(*lsv1alpha1.Execution).Spec.Context; got != "default" {
		t.Errorf("Execution spec.context = %q, want default", got)
	}
	di := ls.Objects[2].Object.(*lsv1alpha1.DeployItem)
	if di.Spec.Context != "default" || di.Status.DeployerPhase != nil || di.Status.Phase != "Succeeded" {
		t.Errorf("DeployItem context %q, deployItemPhase %v, phase %q: want default, nil (Landscaper drops it), Succeeded",
			di.Spec.Context, di.Status.DeployerPhase, di.Status.Phase)
	}
}

func TestExecutionDeployItems(t *testing.T) {
	files := mapFS(map[string]string{"e.yaml": obj(lsGV, "Execution", "e") + `spec:
  deployItems:
  - name: a
    type: landscaper.gardener.cloud/mock
    timeout: 5m
    config: {anything: [1, 2]}
  - name: b
    type: landscaper.gardener.cloud/mock
    dependsOn: [a]
`})
	ls, err := (&Loader{FS: files}).Load()
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	items := ls.Objects[0].Object.(*lsv1alpha1.Execution).Spec.DeployItems
	if len(items) != 2 || items[0].Timeout.Duration.String() != "5m0s" || string(items[0].Configuration.Raw) != `{"anything":[1,2]}` ||
		!slices.Equal(items[1].DependsOn, []string{"a"}) {
		t.Errorf("deploy items = %+v", items)
	}
}

// TestExecutionWithNullSpec: "spec:" with nothing after it is an Execution
// without deploy items, as the API server prunes the null; Landscaper's
// ExecutionSpec cannot decode null itself and lscli panicked on it.
func TestExecutionWithNullSpec(t *testing.T) {
	files := mapFS(map[string]string{"e.yaml": obj(lsGV, "Execution", "e") + "spec:\n" + "---\n" +
		obj(lsGV, "Execution", "f") + "spec: null\nstatus: {phase: Init}\n"})
	ls, err := (&Loader{FS: files}).Load()
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if len(ls.Objects) != 2 {
		t.Fatalf("objects = %d, want 2", len(ls.Objects))
	}
	for _, d := range ls.Objects {
		exec := d.Object.(*lsv1alpha1.Execution)
		if len(exec.Spec.DeployItems) != 0 || exec.Spec.Context != "default" {
			t.Errorf("%s: spec = %+v, want no deploy items in context default", exec.Name, exec.Spec)
		}
	}
	if got := ls.Objects[1].Object.(*lsv1alpha1.Execution).Status.ExecutionPhase; got != "Init" {
		t.Errorf("f: status.phase = %q, want the one given: the rest of the document is kept", got)
	}
}

func TestNamespaces(t *testing.T) {
	files := mapFS(map[string]string{"a.yaml": strings.Join([]string{
		dataObject("a"),
		dataObject("b") + "---\n" + obj(lsGV, "Context", "default") + "  namespace: ns2\n",
		obj(lsGV, "Context", "other") + "  namespace: ns1\n",
		obj("v1", "ConfigMap", "c") + "  namespace: ns3\n",
		obj(lsGV, "Context", "default") + "  namespace: ns3\n",
	}, "---\n")})
	ls, err := (&Loader{FS: files}).Load()
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if got, want := ls.Namespaces(), []string{"default", "ns1", "ns2", "ns3"}; !slices.Equal(got, want) {
		t.Errorf("Namespaces() = %q, want %q", got, want)
	}
	if got, want := ls.NamespacesWithoutDefaultContext(), []string{"default", "ns1"}; !slices.Equal(got, want) {
		t.Errorf("NamespacesWithoutDefaultContext() = %q, want %q", got, want)
	}
	if got := (&Landscape{}).Namespaces(); got != nil {
		t.Errorf("empty landscape: Namespaces() = %q, want none", got)
	}
}

func TestKinds(t *testing.T) {
	var got []string
	for _, gvk := range Kinds() {
		got = append(got, gvk.GroupVersion().String()+" "+gvk.Kind)
	}
	want := []string{
		"landscaper.gardener.cloud/v1alpha1 ComponentVersionOverwrites", "landscaper.gardener.cloud/v1alpha1 Context", "landscaper.gardener.cloud/v1alpha1 DataObject",
		"landscaper.gardener.cloud/v1alpha1 DeployItem", "landscaper.gardener.cloud/v1alpha1 Execution",
		"landscaper.gardener.cloud/v1alpha1 Installation", "landscaper.gardener.cloud/v1alpha1 Target", "landscaper.gardener.cloud/v1alpha1 TargetSync",
		"v1 ConfigMap", "v1 Secret",
	}
	if !slices.Equal(got, want) {
		t.Errorf("Kinds() = %q, want %q", got, want)
	}
	s := testScheme(t)
	for _, gvk := range Kinds() {
		if !s.Recognizes(gvk) {
			t.Errorf("scheme does not know %v", gvk)
		}
	}
}

// writeFile writes data to name, making its folder.
func writeFile(t *testing.T, name, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Component sources in a landscape folder are not objects: constructor
// files, descriptors (v2 and v3alpha1), archives and blobs folders are
// skipped; the objects next to them load.
func TestLoadSkipsComponentSources(t *testing.T) {
	files := fstest.MapFS{
		"commands/component-constructor.yaml": {Data: []byte("components:\n- name: a\n  version: 1.0.0\n  provider: {name: x}\n---\nname: b\nversion: 1.0.0\nprovider: {name: x}\n")},
		"components/root.yaml":                {Data: []byte("meta: {schemaVersion: v2}\ncomponent: {name: a, version: 1.0.0}\n")},
		"components/v3.yaml":                  {Data: []byte("apiVersion: ocm.software/v3alpha1\nkind: ComponentVersion\nmetadata: {name: a, version: 1.0.0}\n")},
		"components/blobs/x.yaml":             {Data: []byte("not: an object\n")},
		"component/component-descriptor.yaml": {Data: []byte("meta: {schemaVersion: v2}\ncomponent: {name: a, version: 1.0.0}\n")},
		"component/blobs/extra.yaml":          {Data: []byte("not: an object\n")},
		"ctf/artifact-index.json":             {Data: []byte("{}")},
		"ctf/blobs/y.yaml":                    {Data: []byte("not: an object\n")},
		"installation/target.yaml":            {Data: []byte("apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Target\nmetadata: {name: t}\nspec: {type: x}\n")},
		"installation/installation.yaml.tpl":  {Data: []byte("${namespace}")},
	}
	ls, err := (&Loader{FS: files}).Load(".")
	if err != nil {
		t.Fatal(err)
	}
	if len(ls.Objects) != 1 || ls.Objects[0].Object.GetName() != "t" {
		t.Fatalf("objects: %v", ls.Objects)
	}
}

// A project folder that keeps its component-descriptor.yaml (and
// component-cli's resources.yaml) next to its installation files, as
// gardener/landscaper-examples does (sock-shop/many-components/root,
// helm-deployer/helm-another-operation), is not a component archive: the
// objects in it and in its sub-folders load, only the component's own
// files (descriptor, resources.yaml, blobs) are passed over, whether the
// folder is found by a walk or named itself.
func TestLoadObjectsNextToComponentDescriptor(t *testing.T) {
	target := "apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Target\nmetadata: {name: %s}\nspec: {type: x}\n"
	files := fstest.MapFS{
		"root/component-descriptor.yaml":       {Data: []byte("meta: {schemaVersion: v2}\ncomponent: {name: a, version: 1.0.0}\n")},
		"root/resources.yaml":                  {Data: []byte("---\ntype: blueprint\nname: blueprint\nrelation: local\ninput: {type: dir, path: ./blueprint}\n")},
		"root/installation.yaml":               {Data: []byte(fmt.Sprintf(target, "a"))},
		"root/installation/target.yaml":        {Data: []byte(fmt.Sprintf(target, "b"))},
		"root/blobs/x.yaml":                    {Data: []byte("not: an object\n")},
		"other/component-descriptor.yaml":      {Data: []byte("meta: {schemaVersion: v2}\ncomponent: {name: b, version: 1.0.0}\n")},
		"other/installation/installation.yaml": {Data: []byte(fmt.Sprintf(target, "c"))},
	}
	for _, paths := range [][]string{{"."}, {"root", "other"}} {
		ls, err := (&Loader{FS: files}).Load(paths...)
		if err != nil {
			t.Fatalf("%v: %v", paths, err)
		}
		var names []string
		for _, o := range ls.Objects {
			names = append(names, o.Object.GetName())
		}
		slices.Sort(names)
		if !slices.Equal(names, []string{"a", "b", "c"}) {
			t.Errorf("%v: objects %v, want a, b, c", paths, names)
		}
	}
}

// TestLoadNonUTF8FileName: a file whose name is not UTF-8 cannot be opened
// (io/fs takes UTF-8 names); the problem says so and what to do, rather
// than "cannot open: invalid argument".
func TestLoadNonUTF8FileName(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "\xff.yaml"), []byte(dataObject("a")), 0o644); err != nil {
		t.Skipf("the file system takes no such name: %v", err)
	}
	_, err := (&Loader{}).Load(dir)
	lines := problemLines(t, err)
	want := filepath.ToSlash(dir) + "/\xff.yaml: not read: its name is not valid UTF-8, which lscli cannot open: rename the file"
	if !slices.Equal(lines, []string{want}) {
		t.Errorf("problems\n%q\nwant\n%q", lines, want)
	}
}
