package source

import (
	"archive/tar"
	"bytes"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/lscli/lscli/landscaper/components/tarfs"
)

// cdV2 is a v2 descriptor of name:version with a local blob resource.
func cdV2(name, version, access string) string {
	return `meta: {schemaVersion: v2}
component:
  name: ` + name + `
  version: ` + version + `
  provider: internal
  repositoryContexts: [{type: ociRegistry, baseUrl: registry.example/components}]
  resources:
  - name: blueprint
    type: landscaper.gardener.cloud/blueprint
    relation: local
    access: ` + access + `
`
}

// load loads s and returns its versions by key.
func load(t *testing.T, s Source) map[string]*Version {
	t.Helper()
	vs, err := s.Load()
	if err != nil {
		t.Fatalf("%s: %v", s.Origin(), err)
	}
	out := map[string]*Version{}
	for _, v := range vs {
		out[v.Key().String()] = v
	}
	return out
}

func keys(m map[string]*Version) string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return strings.Join(ks, " ")
}

// blobBytes returns the content of v's blob ref.
func blobBytes(t *testing.T, v *Version, ref string) []byte {
	t.Helper()
	b, err := v.Blobs.Blob(ref)
	if err != nil {
		t.Fatal(err)
	}
	data, err := b.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// tarOf packs files (name → content) into a tar, in the order given.
func tarOf(t *testing.T, files ...string) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for i := 0; i+1 < len(files); i += 2 {
		if err := tw.WriteHeader(&tar.Header{Name: files[i], Mode: 0o644, Size: int64(len(files[i+1])), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		_, _ = tw.Write([]byte(files[i+1]))
	}
	_ = tw.Close()
	return buf.Bytes()
}

func mapRoot(files fstest.MapFS) Root { return Root{FS: files, Display: "land"} }

func gz(data []byte) []byte { return tarfs.Gzip(data) }
