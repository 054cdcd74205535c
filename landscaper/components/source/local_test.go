package source

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/lscli/lscli/landscaper/components/descriptor"
)

func TestLocalRepository(t *testing.T) {
	files := fstest.MapFS{
		"repo/a.yaml":                  {Data: []byte(cdV2("example.com/a", "1.0.0", "{type: localFilesystemBlob, filename: bp}"))},
		"repo/b.yaml":                  {Data: []byte(cdV2("example.com/b", "2.0.0", "{type: localBlob, localReference: text}"))},
		"repo/blobs/bp/blueprint.yaml": {Data: []byte("kind: Blueprint\n")},
		"repo/blobs/text":              {Data: []byte("hello")},
		"repo/sub/ignored.yaml":        {Data: []byte("not read")},
	}
	vs := load(t, LocalRepository(mapRoot(files), "/repo/"))
	if keys(vs) != "example.com/a:1.0.0 example.com/b:2.0.0" {
		t.Fatalf("keys %q", keys(vs))
	}
	a := vs["example.com/a:1.0.0"]
	if !a.ContextRequired || a.Schema != descriptor.SchemaV2 {
		t.Errorf("a: %+v", a)
	}
	b, err := a.Blobs.Blob("bp")
	if err != nil || b.Dir == nil {
		t.Fatalf("folder blob: %v %v", b, err)
	}
	if _, err := fs.Stat(b.Dir, "blueprint.yaml"); err != nil {
		t.Error(err)
	}
	if got := string(blobBytes(t, vs["example.com/b:2.0.0"], "text")); got != "hello" {
		t.Errorf("text blob %q", got)
	}
	if _, err := a.Blobs.Blob("../a.yaml"); err == nil {
		t.Error("a blob outside blobs/ must not be found")
	}

	files["repo/README.md"] = &fstest.MapFile{Data: []byte("# not a descriptor")}
	_, err = LocalRepository(mapRoot(files), "repo").Load()
	if err == nil || !strings.Contains(err.Error(), "error indexing repository") {
		t.Fatalf("bad file: %v", err)
	}
}

// Without a blobs folder, Landscaper reads blobs from the root.
func TestLocalRepositoryBlobsFromRoot(t *testing.T) {
	files := fstest.MapFS{
		"defs/cd.yaml": {Data: []byte(cdV2("example.com/a", "1.0.0", "{type: localFilesystemBlob, filename: top}"))},
		"top":          {Data: []byte("at the root")},
	}
	v := load(t, LocalRepository(mapRoot(files), "defs"))["example.com/a:1.0.0"]
	if got := string(blobBytes(t, v, "top")); got != "at the root" {
		t.Fatalf("blob %q", got)
	}
}

func TestArchiveFolderAndFile(t *testing.T) {
	cd := cdV2("example.com/a", "1.0.0", "{type: localBlob, localReference: sha256.abc, mediaType: application/x-tar}")
	bp := tarOf(t, "blueprint.yaml", "kind: Blueprint\n")
	files := fstest.MapFS{
		"ca/component-descriptor.yaml": {Data: []byte(cd)},
		"ca/blobs/sha256.abc":          {Data: bp},
		"ca.tgz":                       {Data: gz(tarOf(t, "component-descriptor.yaml", cd, "blobs/sha256.abc", string(bp)))},
	}
	for _, s := range []Source{ArchiveFolder(mapRoot(files), "ca"), ArchiveFile(mapRoot(files), "ca.tgz")} {
		v := load(t, s)["example.com/a:1.0.0"]
		if v == nil || v.ContextRequired {
			t.Fatalf("%s: %+v", s.Origin(), v)
		}
		if got := blobBytes(t, v, "sha256.abc"); string(got) != string(bp) {
			t.Errorf("%s: blob differs", s.Origin())
		}
	}
	if got := ArchiveFile(mapRoot(files), "ca.tgz").Origin(); got != "component archive land/ca.tgz" {
		t.Errorf("origin %q", got)
	}
}
