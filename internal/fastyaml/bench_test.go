package fastyaml

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/lscli/lscli/internal/benchland"
)

// BenchmarkRootDocument converts the document of one root of the chained
// benchmark landscape (an Installation with its inline blueprint in literal
// block scalars) with ToJSON and with YAMLToJSONStrict.
func BenchmarkRootDocument(b *testing.B) {
	dir := b.TempDir()
	if err := benchland.Chained.Write(dir, 1); err != nil {
		b.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "part-0000.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	doc := bytes.TrimPrefix(data, []byte("---\n"))
	want, err := yaml.YAMLToJSONStrict(doc)
	if err != nil {
		b.Fatal(err)
	}
	if js, ok := ToJSON(doc); !ok || !bytes.Equal(js, want) {
		b.Fatalf("ToJSON: ok %v, same bytes %v", ok, bytes.Equal(js, want))
	}
	b.Run("ToJSON", func(b *testing.B) {
		b.SetBytes(int64(len(doc)))
		b.ReportAllocs()
		for b.Loop() {
			ToJSON(doc)
		}
	})
	b.Run("YAMLToJSONStrict", func(b *testing.B) {
		b.SetBytes(int64(len(doc)))
		b.ReportAllocs()
		for b.Loop() {
			_, _ = yaml.YAMLToJSONStrict(doc)
		}
	})
}
