package source

import (
	"strings"
	"testing"
	"testing/fstest"

	cdv2 "github.com/gardener/landscaper/legacy-component-spec/bindings-go/apis/v2"
	"sigs.k8s.io/yaml"

	"github.com/lscli/lscli/landscaper/components/descriptor"
)

func TestInlineNested(t *testing.T) {
	nested := `{"apiVersion":"ocm.software/v3alpha1","kind":"ComponentVersion","metadata":{"name":"example.com/db","version":"2.0.0","provider":{"name":"x"}},"repositoryContexts":[{"type":"local"}],"spec":{}}`
	doc := cdV2("example.com/app", "1.0.0", "{type: localFilesystemBlob, filename: blobfile}") +
		"  componentReferences:\n  - name: db\n    componentName: example.com/db\n    version: 2.0.0\n    labels:\n    - name: landscaper.gardener.cloud/component-descriptor\n      value: " + nested + "\n"
	local := Root{FS: fstest.MapFS{"blobfile": {Data: []byte("from the local root")}}, Display: "."}
	// Without the label on the root component, Landscaper's GetFlatList
	// expands nothing: the reference is looked up as any other.
	root := &cdv2.ComponentDescriptor{}
	if err := yaml.Unmarshal([]byte(doc), root); err != nil {
		t.Fatal(err)
	}
	if got := keys(load(t, Inline(root, local))); got != "example.com/app:1.0.0" {
		t.Fatalf("without the root's label: keys %q", got)
	}
	doc += "  labels:\n  - name: landscaper.gardener.cloud/component-descriptor\n    value: true\n"
	root = &cdv2.ComponentDescriptor{}
	if err := yaml.Unmarshal([]byte(doc), root); err != nil {
		t.Fatal(err)
	}
	vs := load(t, Inline(root, local))
	if keys(vs) != "example.com/app:1.0.0 example.com/db:2.0.0" {
		t.Fatalf("keys %q", keys(vs))
	}
	if vs["example.com/db:2.0.0"].Schema != descriptor.SchemaV3 {
		t.Error("the nested descriptor keeps its schema")
	}
	if got := string(blobBytes(t, vs["example.com/app:1.0.0"], "blobfile")); got != "from the local root" {
		t.Errorf("blob %q", got)
	}
}

func TestInlineRepository(t *testing.T) {
	spec := InlineSpec{FileSystem: []byte(`{"cds": {"a.yaml": ` + quoteJSON(cdV2("example.com/a", "1.0.0", "{type: localBlob, localReference: f}")) + `}, "blobs": {"f": "content"}}`),
		CompDescDirPath: "/cds", BlobDirPath: "/blobs"}
	s, err := InlineRepository(spec, Root{})
	if err != nil {
		t.Fatal(err)
	}
	v := load(t, s)["example.com/a:1.0.0"]
	if got := string(blobBytes(t, v, "f")); got != "content" {
		t.Fatalf("blob %q", got)
	}
}

// TestInlineRepositoryAtRoot: descriptors at the root of the file system,
// with compDescDirPath "/" or none, as Landscaper's own inline repository
// tests have them.
func TestInlineRepositoryAtRoot(t *testing.T) {
	for _, dir := range []string{"", "/"} {
		spec := InlineSpec{FileSystem: []byte(`{"a.yaml": ` + quoteJSON(cdV2("example.com/a", "1.0.0", "{type: localBlob, localReference: f}")) + `, "blobs": {"f": "content"}}`),
			CompDescDirPath: dir, BlobDirPath: "/blobs"}
		s, err := InlineRepository(spec, Root{})
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := load(t, s)["example.com/a:1.0.0"]; !ok {
			t.Fatalf("compDescDirPath %q: example.com/a:1.0.0 not found", dir)
		}
	}
}

func quoteJSON(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}
