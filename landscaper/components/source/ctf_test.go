package source

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
)

// ctfFiles builds a CTF with one component version whose descriptor has a
// local blob, as `ocm add components` writes it.
func ctfFiles(t *testing.T, prefix string) fstest.MapFS {
	files := fstest.MapFS{}
	put := func(data []byte) string {
		sum := sha256.Sum256(data)
		h := hex.EncodeToString(sum[:])
		files[prefix+"blobs/sha256."+h] = &fstest.MapFile{Data: data}
		return "sha256:" + h
	}
	blob := put([]byte("blob content"))
	cd := strings.Replace(cdV2("example.com/a", "1.0.0", "{type: localBlob, localReference: '"+blob+"', mediaType: text/plain}"),
		"repositoryContexts: [{type: ociRegistry, baseUrl: registry.example/components}]", "repositoryContexts: []", 1)
	layer := put(tarOf(t, "component-descriptor.yaml", cd))
	config := put([]byte(fmt.Sprintf(`{"componentDescriptorLayer":{"mediaType":"application/vnd.ocm.software.component-descriptor.v2+yaml+tar","digest":%q}}`, layer)))
	manifest := put([]byte(fmt.Sprintf(`{"schemaVersion":2,"config":{"digest":%q},"layers":[{"digest":%q},{"digest":%q}]}`, config, layer, blob)))
	files[prefix+IndexFile] = &fstest.MapFile{Data: []byte(fmt.Sprintf(
		`{"schemaVersion":1,"artifacts":[{"repository":"component-descriptors/example.com/a","tag":"1.0.0","digest":%q},{"repository":"images/x","tag":"1","digest":"sha256:none"}]}`, manifest))}
	return files
}

func TestCTF(t *testing.T) {
	files := ctfFiles(t, "ctf/")
	var entries []string
	for name, f := range files {
		entries = append(entries, strings.TrimPrefix(name, "ctf/"), string(f.Data))
	}
	files["ctf.tar"] = &fstest.MapFile{Data: tarOf(t, entries...)}
	for _, s := range []Source{CTFFolder(mapRoot(files), "ctf"), CTFFile(mapRoot(files), "ctf.tar")} {
		vs := load(t, s)
		v := vs["example.com/a:1.0.0"]
		if len(vs) != 1 || v == nil {
			t.Fatalf("%s: %q", s.Origin(), keys(vs))
		}
		if len(v.Descriptor.RepositoryContexts) != 0 || v.ContextRequired {
			t.Errorf("%s: the repository context is added on lookup", s.Origin())
		}
		ref := v.Descriptor.Resources[0].Access.Object["localReference"].(string)
		if got := string(blobBytes(t, v, ref)); got != "blob content" {
			t.Errorf("%s: blob %q", s.Origin(), got)
		}
	}
}
