package source

import (
	"strings"
	"testing"
	"testing/fstest"
)

func TestDiscover(t *testing.T) {
	files := constructorFS()
	cd := cdV2("example.com/ca", "1.0.0", "{type: localBlob, localReference: x}")
	files["component/component-descriptor.yaml"] = &fstest.MapFile{Data: []byte(cd)}
	files["component/blobs/x"] = &fstest.MapFile{Data: []byte("x")}
	files["components/core.yaml"] = &fstest.MapFile{Data: []byte(cdV2("example.com/core", "1.0.0", "{type: ociArtifact, imageReference: r/x:1}"))}
	files["repo/one.yaml"] = &fstest.MapFile{Data: []byte(cdV2("example.com/one", "1.0.0", "{type: localBlob, localReference: b}"))}
	files["repo/blobs/b"] = &fstest.MapFile{Data: []byte("b")}
	files["repo/blobs/nested.yaml"] = &fstest.MapFile{Data: []byte(cdV2("example.com/never", "1.0.0", "{type: none}"))}
	files["archives/app.tgz"] = &fstest.MapFile{Data: gz(tarOf(t, "component-descriptor.yaml", cdV2("example.com/app", "2.0.0", "{type: none}")))}
	files["archives/echo-1.0.0.tgz"] = &fstest.MapFile{Data: gz(tarOf(t, "echo/Chart.yaml", "name: echo\nversion: 1.0.0\n", "echo/values.yaml", ""))}
	files["installation/installation.yaml"] = &fstest.MapFile{Data: []byte("apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Installation\n")}
	files[".lscli/state.yaml"] = &fstest.MapFile{Data: []byte(cd)}
	files["blueprint/cd.yaml"] = &fstest.MapFile{Data: []byte(cd)}
	// lscli's config file, whose components: key sniffs as a constructor's.
	files["lscli.yaml"] = &fstest.MapFile{Data: []byte("components:\n  registry.example/x: .\n")}
	files["sub/lscli.yaml"] = &fstest.MapFile{Data: []byte("components:\n  registry.example/x: .\n")}
	// component-cli's layout, and a constructor next to an archive's
	// descriptor, which is read too.
	files[".landscaper/component-descriptor.yaml"] = &fstest.MapFile{Data: []byte(cdV2("example.com/hidden", "1.0.0", "{type: none}"))}
	files[".git/component-descriptor.yaml"] = &fstest.MapFile{Data: []byte(cdV2("example.com/git", "1.0.0", "{type: none}"))}
	files["cli/component-descriptor.yaml"] = &fstest.MapFile{Data: []byte(cdV2("example.com/cli", "1.0.0", "{type: none}"))}
	files["cli/resources.yaml"] = &fstest.MapFile{Data: []byte("name: x\ntype: t\naccess: {type: none}\n")}
	files["component/component-constructor.yaml"] = &fstest.MapFile{Data: []byte("name: example.com/ca\nversion: 2.0.0\nprovider: {name: x}\n")}
	// A project keeps its chart, and more components, in the folders of
	// its component-descriptor.yaml (gardener/landscaper-examples'
	// helm-deployer/helm-another-operation: chart/another-operation): they
	// are found; the folder's own files are its component's.
	files["cli/chart/app/Chart.yaml"] = &fstest.MapFile{Data: []byte("name: app\nversion: 1.0.0\n")}
	files["cli/sub/component-descriptor.yaml"] = &fstest.MapFile{Data: []byte(cdV2("example.com/sub", "1.0.0", "{type: none}"))}
	files["component/commands/constructor.yaml"] = &fstest.MapFile{Data: []byte("name: example.com/cmd\nversion: 1.0.0\nprovider: {name: x}\n")}
	// A descriptor of another component next to the archive's own
	// (gardener/landscaper-examples' render-blueprint/access-cd-reference
	// keeps component-descriptor-referenced.yaml there): it is found.
	files["component/component-descriptor-referenced.yaml"] = &fstest.MapFile{Data: []byte(cdV2("example.com/referenced", "1.0.0", "{type: none}"))}

	found := Discover(mapRoot(files))
	var origins []string
	for _, s := range found.Sources {
		origins = append(origins, s.Origin())
	}
	got := strings.Join(origins, "\n")
	wantList := strings.Join([]string{
		"component archive land/.landscaper",
		"component archive land/archives/app.tgz",
		"component-cli folder land/cli",
		"component archive land/cli/sub",
		"component constructor land/commands/component-constructor.yaml",
		"component archive land/component",
		"component constructor land/component/component-constructor.yaml",
		"component descriptor land/component/component-descriptor-referenced.yaml",
		"component constructor land/component/commands/constructor.yaml",
		"component descriptor land/components/core.yaml",
		"component descriptor land/repo/one.yaml",
	}, "\n")
	if got != wantList {
		t.Fatalf("sources:\n%s\nwant:\n%s", got, wantList)
	}
	if found.Sources[10].Rank() != RankArchive || found.Sources[9].Rank() != RankDescriptor {
		t.Error("a descriptor next to a blobs folder serves its blobs")
	}
	if len(found.Charts) != 3 || found.Charts[0].Path != "archives/echo-1.0.0.tgz" || found.Charts[2].Path != "cli/chart/app" || found.Charts[1].Name != "echo" || found.Charts[1].Version != "1.2.3" {
		t.Fatalf("charts: %+v", found.Charts)
	}
}

func TestSniff(t *testing.T) {
	for doc, want := range map[string]FileKind{
		"components: []":                                            ConstructorFile,
		"component: {name: a}":                                      ConstructorFile,
		"name: a\nversion: '1'\nprovider: {name: x}":                ConstructorFile,
		"meta: {schemaVersion: v2}\ncomponent: {name: a}":           DescriptorFileKind,
		"apiVersion: ocm.software/v3alpha1\nkind: ComponentVersion": DescriptorFileKind,
		"apiVersion: v1\nkind: ConfigMap":                           NotComponent,
		"name: a\nversion: '1'":                                     NotComponent,
		"imports: {x: 1}":                                           NotComponent,
		"# only a comment\n---\ncomponents: []":                     ConstructorFile,
		// lscli's config file under another name (--config): its
		// components: is a map, a constructor's a list.
		"components:\n  registry.example/x: .": NotComponent,
		"component: [a]":                       NotComponent,
	} {
		if got := Sniff([]byte(doc)); got != want {
			t.Errorf("Sniff(%q) = %v, want %v", doc, got, want)
		}
	}
}
