package source

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/lscli/lscli/landscaper/components/descriptor"
	"github.com/lscli/lscli/landscaper/components/tarfs"
)

const constructorFile = `components:
- name: example.com/root
  version: 1.0.0
  provider: {name: internal}
  componentReferences:
  - {name: sub, componentName: example.com/sub, version: 1.0.0}
  resources:
  - name: blueprint
    type: landscaper.gardener.cloud/blueprint
    input: {type: dir, path: ../blueprint, compress: true, mediaType: application/vnd.gardener.landscaper.blueprint.v1+tar+gzip}
  - name: schema
    type: landscaper.gardener.cloud/jsonschema
    input: {type: file, path: ../schema.json}
  - name: chart
    type: helmChart
    input: {type: helm, path: ../chart}
  - name: image
    type: ociImage
    version: 0.2.3
    access: {type: ociArtifact, imageReference: registry.example/echo:0.2.3}
---
name: example.com/sub
version: 1.0.0
provider: {name: internal}
resources:
- name: text
  type: plainText
  input: {type: file, path: ../schema.json, compress: true}
`

func constructorFS() fstest.MapFS {
	return fstest.MapFS{
		"commands/component-constructor.yaml": {Data: []byte(constructorFile)},
		"blueprint/blueprint.yaml":            {Data: []byte("apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Blueprint\n")},
		"blueprint/deploy.yaml":               {Data: []byte("deployItems: []\n")},
		"schema.json":                         {Data: []byte(`{"type": "string"}`)},
		"chart/Chart.yaml":                    {Data: []byte("apiVersion: v2\nname: echo\nversion: 1.2.3\n")},
		"chart/templates/cm.yaml":             {Data: []byte("kind: ConfigMap\n")},
	}
}

func TestConstructor(t *testing.T) {
	s := Constructor(mapRoot(constructorFS()), "commands/component-constructor.yaml")
	vs := load(t, s)
	if keys(vs) != "example.com/root:1.0.0 example.com/sub:1.0.0" {
		t.Fatalf("keys %q", keys(vs))
	}
	root := vs["example.com/root:1.0.0"]
	res := map[string]int{}
	for i, r := range root.Descriptor.Resources {
		res[r.Name] = i
	}
	bp := root.Descriptor.Resources[res["blueprint"]]
	if bp.Relation != "local" || bp.Version != "1.0.0" || bp.Access.GetType() != "localBlob" || bp.Digest == nil {
		t.Fatalf("blueprint resource: %+v", bp)
	}
	if mt := bp.Access.Object["mediaType"]; mt != "application/vnd.gardener.landscaper.blueprint.v1+tar+gzip" {
		t.Errorf("media type %v: a given media type is kept as is", mt)
	}
	ref := bp.Access.Object["localReference"].(string)
	if !strings.HasPrefix(ref, "sha256:") || ref[7:] != bp.Digest.Value {
		t.Errorf("reference %q, digest %v", ref, bp.Digest)
	}
	blob, _ := root.Blobs.Blob(ref)
	if blob.Dir == nil {
		t.Fatal("a dir input keeps its folder")
	}
	data := blobBytes(t, root, ref)
	if !tarfs.IsGzip(data) {
		t.Error("compress: the blob is gzip")
	}
	if files, err := tarfs.ReadTar(data); err != nil || files["blueprint.yaml"] == nil {
		t.Errorf("blob content: %v %v", files, err)
	}
	img := root.Descriptor.Resources[res["image"]]
	if img.Relation != "external" || img.Version != "0.2.3" || img.Access.GetType() != "ociArtifact" {
		t.Errorf("access resource: %+v", img)
	}
	chart := root.Descriptor.Resources[res["chart"]]
	if chart.Access.Object["referenceName"] != "example.com/root/echo:1.2.3" || chart.Access.Object["mediaType"] != mediaTypeHelmOCI {
		t.Errorf("helm access: %v", chart.Access.Object)
	}
	if cb, _ := root.Blobs.Blob(chart.Access.Object["localReference"].(string)); !cb.Chart || cb.Dir == nil {
		t.Errorf("helm blob: %+v", cb)
	}
	schema := root.Descriptor.Resources[res["schema"]]
	if schema.Access.Object["mediaType"] != mediaTypeOctet {
		t.Errorf("file default media type: %v", schema.Access.Object)
	}
	text := vs["example.com/sub:1.0.0"].Descriptor.Resources[0]
	if text.Access.Object["mediaType"] != mediaTypeGzip {
		t.Errorf("compressed file media type: %v", text.Access.Object)
	}
	if root.Descriptor.ComponentReferences[0].ComponentName != "example.com/sub" || root.Schema != descriptor.SchemaV2 {
		t.Errorf("references or schema: %+v", root.Descriptor)
	}
	again := load(t, s)["example.com/root:1.0.0"]
	if again.Descriptor.Resources[0].Digest.Value != bp.Digest.Value {
		t.Error("digests differ between loads")
	}
}

func TestConstructorErrors(t *testing.T) {
	for name, tt := range map[string]struct{ file, err string }{
		"variables": {"components:\n- name: a\n  version: ${VERSION}\n", "line 3 uses a ${...} variable"},
		"both refs": {"name: a\nversion: '1'\nreferences: [{name: x, componentName: b, version: '1'}]\ncomponentReferences: [{name: z, componentName: c, version: '1'}]\n", "only field references or componentReferences"},
		"escape":    {"name: a\nversion: '1'\nresources: [{name: r, type: t, input: {type: dir, path: ../../up}}]\n", "path ../../up leaves land"},
		"absolute":  {"name: a\nversion: '1'\nresources: [{name: r, type: t, input: {type: file, path: /etc/passwd}}]\n", "path /etc/passwd is absolute"},
		"missing":   {"name: a\nversion: '1'\nresources: [{name: r, type: t, input: {type: file, path: nope}}]\n", "land/commands/nope does not exist"},
		"docker":    {"name: a\nversion: '1'\nresources: [{name: r, type: t, input: {type: docker, path: x}}]\n", `input type "docker" is not supported by lscli`},
		"mixed":     {"components: []\nname: a\n", "either a list or a single spec possible"},
		"both":      {"name: a\nversion: '1'\nresources: [{name: r, type: t, input: {type: file, path: x}, access: {type: none}}]\n", "either access or input"},
		"helm repo": {"name: a\nversion: '1'\nresources: [{name: r, type: helmChart, input: {type: helm, path: x, helmRepository: https://charts.example}}]\n", "lscli downloads nothing"},
	} {
		t.Run(name, func(t *testing.T) {
			files := fstest.MapFS{"commands/cc.yaml": {Data: []byte(tt.file)}, "commands/x": {Data: []byte("x")}}
			_, err := Constructor(mapRoot(files), "commands/cc.yaml").Load()
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Fatalf("err %v, want %q", err, tt.err)
			}
		})
	}
}

// TestConstructorVariableInComment: a ${...} in a comment line is no value
// the ocm CLI would have to substitute (vasu1124/introspect comments out a
// git source whose commit is ${INTROSPECT_COMMIT}); one after the comment
// is still an error.
func TestConstructorVariableInComment(t *testing.T) {
	files := fstest.MapFS{"cc.yaml": {Data: []byte("components:\n- name: a\n  version: '1'\n  provider: {name: p}\n#  sources:\n#      commit: ${COMMIT}\n")}}
	if _, err := Constructor(mapRoot(files), "cc.yaml").Load(); err != nil {
		t.Fatalf("comment: %v", err)
	}
	files["cc.yaml"] = &fstest.MapFile{Data: []byte("# ${COMMIT}\ncomponents:\n- name: a\n  version: ${V}\n")}
	if _, err := Constructor(mapRoot(files), "cc.yaml").Load(); err == nil || !strings.Contains(err.Error(), "line 4 uses a ${...} variable") {
		t.Fatalf("err %v, want line 4", err)
	}
}

func TestConstructorDirFilters(t *testing.T) {
	files := constructorFS()
	files["cc.yaml"] = &fstest.MapFile{Data: []byte(`component:
  name: a
  version: '1'
  resources:
  - {name: r, type: t, input: {type: dir, path: blueprint, preserveDir: true, excludeFiles: ["deploy.*"]}}
`)}
	v := load(t, Constructor(mapRoot(files), "cc.yaml"))["a:1"]
	ref := v.Descriptor.Resources[0].Access.Object["localReference"].(string)
	got, err := tarfs.ReadTar(blobBytes(t, v, ref))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fs.Stat(got, "blueprint/blueprint.yaml"); err != nil || got["blueprint/deploy.yaml"] != nil {
		t.Fatalf("preserveDir and excludeFiles: %v", got)
	}
	if v.Descriptor.Resources[0].Access.Object["mediaType"] != mediaTypeTar {
		t.Errorf("media type %v", v.Descriptor.Resources[0].Access.Object)
	}
}

// TestHelmInputReferenceName: a helm input's referenceName is its
// repository below the component's name, or an absolute repository as it
// is, as OCM's hint makes it.
func TestHelmInputReferenceName(t *testing.T) {
	for repo, want := range map[string]string{
		"":             "example.com/root/echo:1.2.3",
		"charts/x":     "example.com/root/charts/x:1.2.3",
		"/charts/demo": "charts/demo:1.2.3",
	} {
		files := constructorFS()
		files["commands/component-constructor.yaml"] = &fstest.MapFile{Data: []byte(
			"name: example.com/root\nversion: 1.0.0\nprovider: {name: internal}\nresources:\n" +
				"- {name: chart, type: helmChart, input: {type: helm, path: ../chart, repository: \"" + repo + "\"}}\n")}
		vs := load(t, Constructor(mapRoot(files), "commands/component-constructor.yaml"))
		chart := vs["example.com/root:1.0.0"].Descriptor.Resources[0]
		if got := chart.Access.Object["referenceName"]; got != want {
			t.Errorf("repository %q: referenceName %v, want %s", repo, got, want)
		}
	}
}
