package components

import (
	"archive/tar"
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	cdv2 "github.com/gardener/landscaper/legacy-component-spec/bindings-go/apis/v2"
	"sigs.k8s.io/yaml"

	"github.com/lscli/lscli/landscaper/components/source"
	"github.com/lscli/lscli/landscaper/components/tarfs"
)

const ociContext = `{"type": "ociRegistry", "baseUrl": "registry.example/landscaper/examples"}`

// landscape is a landscape folder as the guided tour ships one: a
// constructor with a blueprint folder, a component archive of the same
// version, a chart folder, and a descriptor of a referenced component.
func landscape() fstest.MapFS {
	cc := `components:
- name: example.com/root
  version: 1.0.0
  provider: {name: internal}
  componentReferences: [{name: core, componentName: example.com/core, version: 1.0.0}]
  resources:
  - name: blueprint
    type: landscaper.gardener.cloud/blueprint
    input: {type: dir, path: ../blueprint, compress: true, mediaType: application/vnd.gardener.landscaper.blueprint.v1+tar+gzip}
  - name: chart
    type: helmChart
    version: 1.0.0
    access: {type: ociArtifact, imageReference: registry.example/charts/echo:1.0.0}
  - name: other-chart
    type: helmChart
    access: {type: ociArtifact, imageReference: registry.example/charts/missing:2.0.0}
  - name: schema
    type: landscaper.gardener.cloud/jsonschema
    input: {type: file, path: ../schema.json, compress: true}
`
	core := `meta: {schemaVersion: v2}
component:
  name: example.com/core
  version: 1.0.0
  provider: internal
  repositoryContexts: [{type: OCIRegistry, baseUrl: eu.gcr.io, subPath: x}]
  resources:
  - {name: image, type: ociImage, version: 1.0.0, relation: external, access: {type: ociArtifact, imageReference: registry.example/image:1.0.0}}
`
	return fstest.MapFS{
		"commands/component-constructor.yaml": {Data: []byte(cc)},
		"blueprint/blueprint.yaml":            {Data: []byte("apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Blueprint\n")},
		"schema.json":                         {Data: []byte(`{"type":"string"}`)},
		"chart/echo/Chart.yaml":               {Data: []byte("apiVersion: v2\nname: echo\nversion: 1.0.0\n")},
		"components/core.yaml":                {Data: []byte(core)},
		"installation/installation.yaml":      {Data: []byte("apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Installation\n")},
	}
}

func repoContext(t *testing.T, js string) *cdv2.UnstructuredTypedObject {
	t.Helper()
	u := &cdv2.UnstructuredTypedObject{}
	if err := yaml.Unmarshal([]byte(js), u); err != nil {
		t.Fatal(err)
	}
	return u
}

func newTestRegistry(cfg Config, files fstest.MapFS) *Registry {
	root := source.Root{FS: files, Display: "land"}
	return NewFromRoots(cfg, []source.Root{root}, root)
}

func TestResolveTree(t *testing.T) {
	r := newTestRegistry(Config{}, landscape())
	tree, err := r.Resolve(Request{Repo: repoContext(t, ociContext), Name: "example.com/root", Version: "1.0.0"})
	if err != nil {
		t.Fatal(err)
	}
	if len(tree.List) != 2 || tree.List[1].Key().Name != "example.com/core" {
		t.Fatalf("list %v", tree.List)
	}
	ctx := tree.Root.Descriptor.GetEffectiveRepositoryContext()
	raw, _ := ctx.GetRaw()
	if string(raw) != `{"baseUrl":"registry.example","componentNameMapping":"urlPath","subPath":"landscaper/examples","type":"OCIRegistry"}` {
		t.Errorf("added context %s", raw)
	}
	if got := tree.List[1].Descriptor.RepositoryContexts; len(got) != 1 {
		t.Errorf("a descriptor keeps its own context: %v", got)
	}
	if _, _, err := tree.Referenced(tree.Root, "nope"); err == nil || err.Error() != "component reference nope cannot be found" {
		t.Errorf("unknown reference: %v", err)
	}
}

func TestResolveMissingReference(t *testing.T) {
	files := landscape()
	delete(files, "components/core.yaml")
	_, err := newTestRegistry(Config{}, files).Resolve(Request{Repo: repoContext(t, ociContext), Name: "example.com/root", Version: "1.0.0"})
	want := "unable to resolve component reference core with component name example.com/core and version 1.0.0: " +
		"component example.com/core:1.0.0 (repository registry.example/landscaper/examples) is in no local source: lscli reads no registry. " +
		"Searched: component constructor land/commands/component-constructor.yaml (holds example.com/root:1.0.0). " +
		"Add the folder or file that has it to lscli.yaml, e.g.\n  components:\n    \"registry.example/landscaper/examples\": ./path/to/folder"
	if err == nil || err.Error() != want {
		t.Fatalf("err:\n%v\nwant:\n%s", err, want)
	}
	var nf *NotFoundError
	if !errors.As(err, &nf) {
		t.Error("not a NotFoundError")
	}
}

// A reference that a referenced version cannot resolve is wrapped once per
// level above it, as Landscaper's getTransitiveComponentReferencesRecursively
// (pkg/components/model/componentversion_refs.go) wraps it.
func TestResolveMissingNestedReference(t *testing.T) {
	files := fstest.MapFS{"c.yaml": {Data: []byte(`components:
- {name: example.com/root, version: 1.0.0, provider: {name: x}, references: [{name: mid, componentName: example.com/mid, version: 1.0.0}]}
- {name: example.com/mid, version: 1.0.0, provider: {name: x}, references: [{name: leaf, componentName: example.com/leaf, version: 2.0.0}]}
`)}}
	_, err := newTestRegistry(Config{}, files).Resolve(Request{Repo: repoContext(t, ociContext), Name: "example.com/root", Version: "1.0.0"})
	want := "unable to resolve component references for component descriptor mid with version 1.0.0: " +
		"unable to resolve component reference leaf with component name example.com/leaf and version 2.0.0: " +
		"component example.com/leaf:2.0.0 (repository registry.example/landscaper/examples) is in no local source"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("err:\n%v\nwant prefix:\n%s", err, want)
	}
	var nf *NotFoundError
	if !errors.As(err, &nf) {
		t.Error("not a NotFoundError")
	}
}

// A constructor wins over a component archive of the same version; two
// archives that differ are ambiguous.
func TestPrecedence(t *testing.T) {
	files := landscape()
	ca := `meta: {schemaVersion: v2}
component: {name: example.com/root, version: 1.0.0, provider: other, repositoryContexts: [{type: local}]}
`
	files["component/component-descriptor.yaml"] = &fstest.MapFile{Data: []byte(ca)}
	r := newTestRegistry(Config{}, files)
	v, err := r.Lookup(Request{Name: "example.com/root", Version: "1.0.0"})
	if err != nil || !strings.HasPrefix(v.Origin, "component constructor") {
		t.Fatalf("%v %v", v, err)
	}
	files["other/component-descriptor.yaml"] = &fstest.MapFile{Data: []byte(strings.Replace(ca, "other", "third", 1))}
	delete(files, "commands/component-constructor.yaml")
	_, err = newTestRegistry(Config{}, files).Lookup(Request{Name: "example.com/root", Version: "1.0.0"})
	if err == nil || !strings.Contains(err.Error(), "is in two sources that differ: component archive land/component and component archive land/other") {
		t.Fatalf("ambiguous: %v", err)
	}
}

func TestConfigMappings(t *testing.T) {
	dir := t.TempDir()
	cd := `meta: {schemaVersion: v2}
component: {name: example.com/mapped, version: 3.0.0, provider: x, repositoryContexts: [{type: local}]}
`
	writeFile(t, filepath.Join(dir, "mapped", "component-descriptor.yaml"), cd)
	cfg := Config{Components: map[string]string{
		"registry.example/landscaper": filepath.Join(dir, "mapped"),
		"example.com/root":            filepath.Join(dir, "mapped"),
	}, File: "lscli.yaml"}
	r := newTestRegistry(cfg, landscape())
	v, err := r.Lookup(Request{Repo: repoContext(t, ociContext), Name: "example.com/mapped", Version: "3.0.0"})
	if err != nil || v.Origin != "component archive "+filepath.ToSlash(filepath.Join(dir, "mapped")) {
		t.Fatalf("by repository: %v %v", v, err)
	}
	_, err = r.Lookup(Request{Repo: repoContext(t, ociContext), Name: "example.com/root", Version: "1.0.0"})
	if err == nil || !strings.Contains(err.Error(), `lscli.yaml maps components["example.com/root"] to `) ||
		!strings.Contains(err.Error(), "which does not hold example.com/root:1.0.0 (it holds: component archive") {
		t.Fatalf("by name: %v", err)
	}
}

func TestLocalRepositoryContext(t *testing.T) {
	files := fstest.MapFS{
		"definitions/cd.yaml": {Data: []byte("meta: {schemaVersion: v2}\ncomponent: {name: example.com/root, version: 1.0.0, provider: x, repositoryContexts: []}\n")},
	}
	_, err := newTestRegistry(Config{}, files).Lookup(Request{Repo: repoContext(t, `{type: local, filePath: ./definitions}`), Name: "example.com/root", Version: "1.0.0"})
	if err == nil || !strings.HasSuffix(err.Error(), "repository context is required") {
		t.Fatalf("err %v", err)
	}
}

func TestContent(t *testing.T) {
	r := newTestRegistry(Config{File: "lscli.yaml"}, landscape())
	tree, err := r.Resolve(Request{Repo: repoContext(t, ociContext), Name: "example.com/root", Version: "1.0.0"})
	if err != nil {
		t.Fatal(err)
	}
	bp, err := r.Blueprint(tree.Root, "blueprint")
	if err != nil || bp.Info.Kind != "Blueprint" || bp.Source != "example.com/root:1.0.0 resource blueprint (component constructor land/commands/component-constructor.yaml)" {
		t.Fatalf("blueprint: %+v %v", bp, err)
	}
	if again, _ := r.Blueprint(tree.Root, "blueprint"); again != bp {
		t.Error("blueprints are read once")
	}
	remote := fstest.MapFS{"c.yaml": {Data: []byte(`components:
- name: example.com/remote
  version: 1.0.0
  provider: {name: x}
  resources:
  - {name: blueprint, type: landscaper.gardener.cloud/blueprint, access: {type: ociArtifact, imageReference: registry.example/bp:1.0.0}}
`)}}
	rr := newTestRegistry(Config{File: "lscli.yaml"}, remote)
	rtree, err := rr.Resolve(Request{Repo: repoContext(t, ociContext), Name: "example.com/remote", Version: "1.0.0"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rr.Blueprint(rtree.Root, "blueprint"); err == nil || !strings.Contains(err.Error(), `map it in lscli.yaml:
  blueprints:
    "example.com/remote/blueprint": ./path/to/blueprint-folder`) {
		t.Errorf("blueprint in a registry: %v", err)
	}
	res, _ := Resource(tree.Root, "chart")
	c, err := r.Content(tree.Root, res, ForChart)
	if err != nil || c.Origin != "land/chart/echo" || !c.Chart {
		t.Fatalf("chart found by name and version: %+v %v", c, err)
	}
	res, _ = Resource(tree.Root, "other-chart")
	_, err = r.Content(tree.Root, res, ForChart)
	want := `component example.com/root:1.0.0, resource "other-chart" (type helmChart): access ociArtifact ` +
		`"registry.example/charts/missing:2.0.0" is in an OCI registry, which lscli does not read, and no local chart named missing ` +
		"with version 2.0.0 was found; map it in lscli.yaml:\n  charts:\n    \"registry.example/charts/missing:2.0.0\": ./path/to/missing"
	var nr *NeedsRegistryError
	if err == nil || err.Error() != want || !errors.As(err, &nr) {
		t.Fatalf("err:\n%v\nwant:\n%s", err, want)
	}
	res, _ = Resource(tree.Root, "schema")
	c, err = r.Content(tree.Root, res, ForSchema)
	if err != nil {
		t.Fatal(err)
	}
	if schema, err := ReadJSONSchema(res, c); err != nil || string(schema) != `{"type":"string"}` {
		t.Errorf("schema %q %v", schema, err)
	}
}

func TestArtifactsMapping(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "image.txt"), "image content")
	r := newTestRegistry(Config{Artifacts: map[string]string{"registry.example/image:1.0.0": filepath.Join(dir, "image.txt")}}, landscape())
	v, err := r.Lookup(Request{Name: "example.com/core", Version: "1.0.0"})
	if err != nil {
		t.Fatal(err)
	}
	res, _ := Resource(v, "image")
	c, err := r.Content(v, res, ForContent)
	if err != nil {
		t.Fatal(err)
	}
	if data, _ := c.Bytes(); string(data) != "image content" {
		t.Errorf("content %q", data)
	}
}

func TestReadBlueprintForms(t *testing.T) {
	bpFiles := fstest.MapFS{"blueprint.yaml": {Data: []byte("kind: Blueprint\n")}}
	tarball, _ := tarfs.WriteTar(bpFiles, ".", tarfs.Options{})
	res := cdv2.Resource{IdentityObjectMeta: cdv2.IdentityObjectMeta{Name: "bp", Type: BlueprintType}}
	for name, tt := range map[string]struct {
		c   *Content
		typ string
		err string
	}{
		"folder":     {c: &Content{Dir: bpFiles, MediaType: "application/x-tar"}},
		"tgz":        {c: &Content{MediaType: "application/x-tgz", read: bytesOf(tarfs.Gzip(tarball))}},
		"tar":        {c: &Content{MediaType: "application/vnd.gardener.landscaper.blueprint.layer.v1.tar", read: bytesOf(tarball)}},
		"media type": {c: &Content{MediaType: "application/octet-stream", read: bytesOf(tarball)}, err: "artifact does not match blueprint downloader (check config media type)"},
		"not a tar":  {c: &Content{MediaType: "application/x-tar", read: bytesOf([]byte("plain"))}, err: "artifact does not match blueprint downloader"},
		// The message names the media type that was seen and what is taken:
		// gardener/external-dns-management shipped "...blueprint.v1.tar+gzip".
		"media type named": {c: &Content{MediaType: "application/vnd.gardener.landscaper.blueprint.v1.tar+gzip", read: bytesOf(tarball)},
			err: `artifact does not match blueprint downloader (check config media type): media type "application/vnd.gardener.landscaper.blueprint.v1.tar+gzip" is none of those OCM's blueprint downloader takes, e.g. application/vnd.gardener.landscaper.blueprint.layer.v1.tar+gzip or application/vnd.gardener.landscaper.blueprint.v1+tar+gzip`},
		"no media type named": {c: &Content{Dir: bpFiles, LocalBlob: true},
			err: "artifact does not match blueprint downloader (check config media type): the resource's access has no mediaType; OCM's blueprint downloader takes e.g. application/vnd.gardener.landscaper.blueprint.layer.v1.tar+gzip"},
		// A local blob whose access states no media type has none; a
		// content whose media type is not known (a mapped folder) passes.
		"local blob without media type": {c: &Content{Dir: bpFiles, LocalBlob: true}, err: "artifact does not match blueprint downloader"},
		"unknown media type":            {c: &Content{Dir: bpFiles}},
		"no yaml":                       {c: &Content{Dir: fstest.MapFS{"x": {}}}, err: "unable to read blueprint definition: read blueprint.yaml: no such file"},
		"wrong type":                    {c: &Content{Dir: bpFiles}, typ: "helmChart", err: "no handler found for resource type helmChart"},
		"old type ok":                   {c: &Content{Dir: bpFiles}, typ: OldBlueprintType},
	} {
		t.Run(name, func(t *testing.T) {
			r := res
			if tt.typ != "" {
				r.Type = tt.typ
			}
			_, err := ReadBlueprint(r, tt.c)
			if (err == nil) != (tt.err == "") || err != nil && !strings.Contains(err.Error(), tt.err) {
				t.Fatalf("err %v, want %q", err, tt.err)
			}
		})
	}
}

func bytesOf(data []byte) func() ([]byte, error) {
	return func() ([]byte, error) { return data, nil }
}

func writeFile(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A landscape folder is read through os.Root: a symbolic link out of it is
// not followed.
func TestHostRootConfinement(t *testing.T) {
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "secret.json"), `{"secret": true}`)
	land := t.TempDir()
	writeFile(t, filepath.Join(land, "cc.yaml"), "name: a\nversion: '1'\nprovider: {name: x}\nresources:\n"+
		"- {name: s, type: landscaper.gardener.cloud/jsonschema, input: {type: file, path: link.json}}\n")
	if err := os.Symlink(filepath.Join(outside, "secret.json"), filepath.Join(land, "link.json")); err != nil {
		t.Skip(err)
	}
	r, err := New(Config{}, []string{land})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	_, err = r.Lookup(Request{Name: "a", Version: "1"})
	if err == nil || !strings.Contains(err.Error(), "link.json") {
		t.Fatalf("a link out of the landscape must not be read: %v", err)
	}
}

// TestRepositoryMappingSaysWhatItFound: a component that a folder mapped by
// repository does not hold is not found, with what that folder holds and
// what of it could not be read (here a constructor whose input leaves the
// folder, as when the guided tour's commands folder is mapped alone).
func TestRepositoryMappingSaysWhatItFound(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "tour", "commands", "component-constructor.yaml"),
		"name: example.com/root\nversion: 1.0.0\nprovider: {name: x}\nresources:\n"+
			"- {name: blueprint, type: landscaper.gardener.cloud/blueprint, input: {type: dir, path: ../blueprint}}\n")
	writeFile(t, filepath.Join(dir, "tour", "blueprint", "blueprint.yaml"), "kind: Blueprint\n")
	writeFile(t, filepath.Join(dir, "other", "component-descriptor.yaml"),
		"meta: {schemaVersion: v2}\ncomponent: {name: example.com/other, version: 2.0.0, provider: x, repositoryContexts: [{type: local}]}\n")
	for _, tt := range []struct {
		name, folder string
		want         []string
		notWant      string
	}{{
		name:    "a constructor that cannot be read",
		folder:  filepath.Join(dir, "tour", "commands"),
		want:    []string{"Could not read: component constructor ", "path ../blueprint leaves "},
		notWant: "No component constructor",
	}, {
		name:   "another component",
		folder: filepath.Join(dir, "other"),
		want:   []string{"Searched: component archive ", "(holds example.com/other:2.0.0)"},
	}} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := Config{Components: map[string]string{"registry.example/landscaper": tt.folder}, File: "lscli.yaml"}
			r := NewFromRoots(cfg, nil, source.Root{})
			_, err := r.Lookup(Request{Repo: repoContext(t, ociContext), Name: "example.com/root", Version: "1.0.0"})
			var nf *NotFoundError
			if !errors.As(err, &nf) {
				t.Fatalf("want a NotFoundError, got %v", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error has no %q: %v", w, err)
				}
			}
			if tt.notWant != "" && strings.Contains(err.Error(), tt.notWant) {
				t.Errorf("error says %q: %v", tt.notWant, err)
			}
		})
	}
}

// TestSearchNamesASourceOnce: a folder that is both a landscape folder and
// mapped by repository is named once in what a lookup searched.
func TestSearchNamesASourceOnce(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "component-descriptor.yaml"),
		"meta: {schemaVersion: v2}\ncomponent: {name: example.com/other, version: 2.0.0, provider: x, repositoryContexts: [{type: local}]}\n")
	r, err := New(Config{Components: map[string]string{"registry.example/landscaper": dir}, File: "lscli.yaml"}, []string{dir})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	_, err = r.Lookup(Request{Repo: repoContext(t, ociContext), Name: "example.com/root", Version: "1.0.0"})
	if err == nil || strings.Count(err.Error(), "(holds example.com/other:2.0.0)") != 1 {
		t.Fatalf("want the folder named once: %v", err)
	}
}

// TestNamedChartFolderAndItsArchive: the guided tour's hello-world ships its
// chart as a folder and as the archive helm package made of it; both are one
// chart. An archive whose files differ is still a choice the user must make.
func TestNamedChartFolderAndItsArchive(t *testing.T) {
	chartYAML := []byte("apiVersion: v2\nname: hello\nversion: 1.0.0\n")
	values := []byte("testData: hello\n")
	folder := fstest.MapFS{
		"hello/Chart.yaml":  {Data: chartYAML},
		"hello/values.yaml": {Data: values},
	}
	archive := func(values []byte) []byte {
		// helm package's layout: the chart's name as top folder, the
		// files' times kept, so the bytes differ from lscli's own tar.
		var buf bytes.Buffer
		tw := tar.NewWriter(&buf)
		for _, f := range []struct {
			name string
			data []byte
		}{{"hello/Chart.yaml", chartYAML}, {"hello/values.yaml", values}} {
			h := &tar.Header{Name: f.name, Mode: 0o644, Size: int64(len(f.data)), ModTime: time.Date(2024, 1, 29, 0, 0, 0, 0, time.UTC)}
			if err := tw.WriteHeader(h); err != nil {
				t.Fatal(err)
			}
			if _, err := tw.Write(f.data); err != nil {
				t.Fatal(err)
			}
		}
		if err := tw.Close(); err != nil {
			t.Fatal(err)
		}
		return tarfs.Gzip(buf.Bytes())
	}

	files := fstest.MapFS{}
	for k, v := range folder {
		files["chart/"+k] = v
	}
	files["chart/hello-1.0.0.tgz"] = &fstest.MapFile{Data: archive(values)}
	r := newTestRegistry(Config{}, files)
	ch, found, err := r.NamedChart("registry.example/charts/hello:1.0.0", "hello", "1.0.0")
	if err != nil || !found || ch == nil {
		t.Fatalf("same chart twice: found %v, err %v", found, err)
	}

	files["chart/hello-1.0.0.tgz"] = &fstest.MapFile{Data: archive([]byte("testData: other\n"))}
	r = newTestRegistry(Config{}, files)
	_, found, err = r.NamedChart("registry.example/charts/hello:1.0.0", "hello", "1.0.0")
	if !found || err == nil || !strings.Contains(err.Error(), "several local charts are named hello with version 1.0.0: land/chart/hello, land/chart/hello-1.0.0.tgz") {
		t.Fatalf("different charts: found %v, err %v", found, err)
	}
}

// TestMappedComponentCLIFolder: a folder that components: maps is read as
// the landscape folders are. gardener/landscaper-examples'
// subinstallations/delete-deployitem keeps its component as a component-cli
// folder (component-descriptor.yaml with `resources: []`, resources.yaml with
// the blueprints as inputs) above the installation folders, so a user maps
// it by repository: its resources must come from resources.yaml, and the
// charts in its sub-folders must be found.
func TestMappedComponentCLIFolder(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "component-descriptor.yaml"),
		"meta: {schemaVersion: v2}\ncomponent: {name: example.com/cli, version: v0.1.0, provider: internal,"+
			" repositoryContexts: [{type: ociRegistry, baseUrl: registry.example/landscaper/examples}], resources: []}\n")
	writeFile(t, filepath.Join(dir, "resources.yaml"),
		"name: blueprint-di1\ntype: blueprint\nversion: v0.1.0\nrelation: local\n"+
			"input: {type: dir, path: ./di1/blueprint, compress: true, mediaType: application/vnd.gardener.landscaper.blueprint.v1+tar+gzip}\n")
	writeFile(t, filepath.Join(dir, "di1", "blueprint", "blueprint.yaml"), "apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Blueprint\n")
	writeFile(t, filepath.Join(dir, "chart", "echo", "Chart.yaml"), "apiVersion: v2\nname: echo\nversion: 1.0.0\n")
	cfg := Config{Components: map[string]string{"registry.example/landscaper/examples": dir}, File: "lscli.yaml"}
	r := NewFromRoots(cfg, nil, source.Root{})
	v, err := r.Lookup(Request{Repo: repoContext(t, ociContext), Name: "example.com/cli", Version: "v0.1.0"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(v.Origin, "component-cli folder ") {
		t.Errorf("origin %q, want the component-cli folder", v.Origin)
	}
	if len(v.Descriptor.Resources) != 1 || v.Descriptor.Resources[0].Name != "blueprint-di1" {
		t.Errorf("resources %+v, want blueprint-di1 of resources.yaml", v.Descriptor.Resources)
	}
	charts := r.discoveredCharts()
	if len(charts) != 1 || charts[0].Name != "echo" {
		t.Errorf("charts %+v, want the chart of the mapped folder's chart/", charts)
	}
}

// TestChartKeyWithoutVersion: a charts key without the version (the
// repository) maps only a chart of the version the access names, as a
// registry serves only the versions it holds (deployers/helm's
// checkMappedVersion for chart.ref). A chart of the version in the
// landscape folders is still found by name and version.
func TestChartKeyWithoutVersion(t *testing.T) {
	dir := t.TempDir()
	chartDir := filepath.Join(dir, "echo")
	writeFile(t, filepath.Join(chartDir, "Chart.yaml"), "apiVersion: v2\nname: echo\nversion: 1.0.0\n")
	cfg := Config{File: "lscli.yaml", Charts: map[string]string{"registry.example/charts/echo": chartDir}}
	read := func(files fstest.MapFS, ref string) (*Content, error) {
		t.Helper()
		r := newTestRegistry(cfg, files)
		tree, err := r.Resolve(Request{Repo: repoContext(t, ociContext), Name: "example.com/root", Version: "1.0.0"})
		if err != nil {
			t.Fatal(err)
		}
		res, _ := Resource(tree.Root, "chart")
		res.Access = cdv2.NewUnstructuredType("ociArtifact", map[string]interface{}{"imageReference": ref})
		return r.Content(tree.Root, res, ForChart)
	}
	withoutLocal := landscape()
	delete(withoutLocal, "chart/echo/Chart.yaml")

	if c, err := read(withoutLocal, "registry.example/charts/echo:1.0.0"); err != nil || c.Origin == "" || !c.Chart {
		t.Fatalf("chart of the version: %+v %v", c, err)
	}
	_, err := read(withoutLocal, "registry.example/charts/echo:2.0.0")
	want := `component example.com/root:1.0.0, resource "chart" (type helmChart): access ociArtifact ` +
		`"registry.example/charts/echo:2.0.0" is in an OCI registry, which lscli does not read, and the charts map of lscli.yaml maps ` +
		`"registry.example/charts/echo" (without a version) to ` + chartDir + `, a chart of version 1.0.0, not 2.0.0, ` +
		"and a registry has no version it was not given; no local chart named echo with version 2.0.0 was found; map it in lscli.yaml:\n" +
		"  charts:\n    \"registry.example/charts/echo:2.0.0\": ./path/to/echo"
	var nr *NeedsRegistryError
	if err == nil || err.Error() != want || !errors.As(err, &nr) {
		t.Fatalf("err:\n%v\nwant:\n%s", err, want)
	}

	withLocal := landscape()
	withLocal["chart/echo/Chart.yaml"] = &fstest.MapFile{Data: []byte("apiVersion: v2\nname: echo\nversion: 2.0.0\n")}
	if c, err := read(withLocal, "registry.example/charts/echo:2.0.0"); err != nil || c.Origin != "land/chart/echo" {
		t.Fatalf("chart of the version in the landscape: %+v %v", c, err)
	}
	if c, err := read(withoutLocal, "registry.example/charts/echo@sha256:0123"); err != nil || c.Origin == "" {
		t.Fatalf("a digest is not a version: %+v %v", c, err)
	}
}

// TestNotFoundTemplateVariables: a reference that still holds ${...}
// variables (an Installation from an envsubst template, read as it is)
// says to fill them in, not to map a repository named "${...}".
func TestNotFoundTemplateVariables(t *testing.T) {
	err := &NotFoundError{Key: source.Key{Name: "${COMPONENT_NAME}", Version: "${VERSION}"}, Repo: Repo{Kind: RepoOCI, Key: "${REPO}"}}
	msg := err.Error()
	if !strings.Contains(msg, "the reference holds ${...} variables, which envsubst or a script fills in and lscli does not: fill them in first") ||
		strings.Contains(msg, "components:") {
		t.Errorf("got %q", msg)
	}
	err.Key.Name = "example.com/app"
	if msg := err.Error(); !strings.Contains(msg, "fill them in first") {
		t.Errorf("a variable in the repository only: got %q", msg)
	}
}

// Two archives of one version that the ocm CLI wrote at different times
// (a CTF folder and, later, its tgz) differ only in creationTime: the error
// says so, or the user sees no difference between them.
func TestAmbiguousNamesTheDifference(t *testing.T) {
	cd := func(created string) []byte {
		return []byte(`meta: {schemaVersion: v2}
component: {name: example.com/twice, version: 1.0.0, provider: x, creationTime: "` + created + `", repositoryContexts: [{type: local}]}
`)
	}
	files := fstest.MapFS{
		"one/component-descriptor.yaml": {Data: cd("2026-11-28T16:51:55Z")},
		"two/component-descriptor.yaml": {Data: cd("2026-11-28T16:52:04Z")},
	}
	_, err := newTestRegistry(Config{}, files).Lookup(Request{Name: "example.com/twice", Version: "1.0.0"})
	want := `component example.com/twice:1.0.0 is in two sources that differ: component archive land/one and component archive land/two ` +
		`(first in component.creationTime: "2026-11-28T16:51:55Z" and "2026-11-28T16:52:04Z"); say which one`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("err:\n%v\nwant:\n%s", err, want)
	}
}

// hiddenChartComponent is a component constructor whose helm input is a
// chart in a hidden folder, .gen/demo.
const hiddenChartComponent = `components:
- name: example.com/demo
  version: 1.0.0
  provider: {name: example}
  resources:
  - name: demo-helm
    type: helm
    input: {type: helm, path: ./.gen/demo}
`

// TestNamedChartUploadedFromHiddenFolder: vasu1124/introspect packs its
// charts into ocm/.gen, a hidden folder the landscape walk skips, and its
// blueprints deploy chart.ref: <resource>.access.imageReference, which
// after `ocm transfer` names the artifact OCM uploaded the helm input as
// (<registry>/<referenceName>). Landscaper's helm deployer pulls that
// artifact: the chart is the input's, wherever its folder is.
func TestNamedChartUploadedFromHiddenFolder(t *testing.T) {
	files := fstest.MapFS{
		".gen/demo/Chart.yaml":  {Data: []byte("apiVersion: v2\nname: demo\nversion: 0.7.6\n")},
		".gen/demo/values.yaml": {Data: []byte("x: 1\n")},
		"component.yaml":        {Data: []byte(hiddenChartComponent)},
	}
	r := newTestRegistry(Config{}, files)
	ch, found, err := r.NamedChart("registry.example.com/project/example.com/demo/demo:0.7.6", "demo", "0.7.6")
	if err != nil || !found || ch == nil {
		t.Fatalf("the uploaded chart: found %v, err %v", found, err)
	}
	if _, found, err = r.NamedChart("registry.example.com/project/example.com/other/demo:0.7.6", "demo", "0.7.6"); found || err != nil {
		t.Fatalf("another artifact: found %v, err %v", found, err)
	}
}

// TestNamedChartMappedBeforeUploaded: a chart the config file's charts map
// gives for a key is that key's chart, even where a component's helm input
// would be uploaded as the same artifact: the user's mapping wins.
func TestNamedChartMappedBeforeUploaded(t *testing.T) {
	const key = "registry.example.com/project/example.com/demo/demo:0.7.6"
	mapped := t.TempDir()
	writeFile(t, filepath.Join(mapped, "Chart.yaml"), "apiVersion: v2\nname: demo\nversion: 0.7.6\n")
	files := fstest.MapFS{
		".gen/demo/Chart.yaml": {Data: []byte("apiVersion: v2\nname: demo\nversion: 0.7.6\n")},
		"component.yaml":       {Data: []byte(hiddenChartComponent)},
	}
	r := newTestRegistry(Config{Charts: map[string]string{key: mapped}}, files)
	ch, found, err := r.NamedChart(key, "demo", "0.7.6")
	if err != nil || !found || ch == nil {
		t.Fatalf("the mapped chart: found %v, err %v", found, err)
	}
	if !strings.Contains(ch.Origin, mapped) {
		t.Fatalf("chart of %s comes from %q, want the mapped chart", key, ch.Origin)
	}
}
