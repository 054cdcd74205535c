package tarfs

import (
	"bytes"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
)

func TestWriteReadRoundTrip(t *testing.T) {
	src := fstest.MapFS{
		"bp/blueprint.yaml":   {Data: []byte("kind: Blueprint\n")},
		"bp/templates/a.yaml": {Data: []byte("a: 1\n")},
		"bp/skip.txt":         {Data: []byte("x")},
	}
	keep := func(rel string) bool { return !strings.HasSuffix(rel, ".txt") }
	a, err := WriteTar(src, "bp", Options{Keep: keep})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := WriteTar(src, "bp", Options{Keep: keep})
	if !bytes.Equal(a, b) || !bytes.Equal(Gzip(a), Gzip(b)) {
		t.Fatal("archives differ between runs")
	}
	got, err := ReadTar(Gzip(a))
	if err != nil {
		t.Fatal(err)
	}
	if string(got["templates/a.yaml"].Data) != "a: 1\n" || got["skip.txt"] != nil {
		t.Fatalf("read back: %v", got)
	}
	if FirstEntry(a) != "blueprint.yaml" {
		t.Errorf("first entry %q", FirstEntry(a))
	}
	if _, err := fs.ReadFile(got, "blueprint.yaml"); err != nil {
		t.Fatal(err)
	}
}

func TestPrefixAndEscape(t *testing.T) {
	src := fstest.MapFS{"x/f": {Data: []byte("f")}}
	data, err := WriteTar(src, "x", Options{Prefix: "x"})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := ReadTar(data)
	if got["x/f"] == nil {
		t.Fatalf("prefix missing: %v", got)
	}
	bad, _ := WriteTar(fstest.MapFS{"f": {Data: []byte("f")}}, ".", Options{Prefix: "../up"})
	if _, err := ReadTar(bad); err == nil || !strings.Contains(err.Error(), "leaves the archive") {
		t.Fatalf("escape: %v", err)
	}
	if IsTar([]byte("plain text that is long enough to not be a tar header at all")) {
		t.Error("text is no tar")
	}
}
