package blueprint

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"io/fs"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// IgnoredDocuments returns how many YAML documents of data, a blueprint file
// Landscaper decodes as one object (blueprint.yaml, a subinstallation's
// file), Landscaper ignores: its universal decoder reads the first
// document and drops the others without a word. Documents that hold
// nothing (an empty one after a trailing "---", comments only) do not
// count, nor does a document before the first that holds nothing. A
// document that is no valid YAML counts: it holds something.
func IgnoredDocuments(data []byte) int {
	if !bytes.HasPrefix(data, []byte("---")) && !bytes.Contains(data, []byte("\n---")) {
		return 0 // one document: the common case costs no decoding
	}
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	held := 0
	for {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			held++ // the rest cannot be split; it holds something
			break
		}
		if js, err := yaml.YAMLToJSON(doc); err == nil && string(bytes.TrimSpace(js)) == "null" {
			continue
		}
		held++
	}
	return max(held-1, 0)
}

// IgnoredFile is a file of a blueprint whose further YAML documents
// Landscaper ignores (see IgnoredDocuments).
type IgnoredFile struct {
	// Subinstallation is the index in the blueprint's subinstallations of
	// the entry that names the file, -1 for blueprint.yaml.
	Subinstallation int
	// File is the file's name as the blueprint gives it.
	File string
	// Documents is how many documents after the first hold something.
	Documents int
}

// ignoredFiles returns the files of a blueprint, whose blueprint.yaml holds
// data, info decoded, and whose files are fsys, of which Landscaper uses
// the first YAML document only: blueprint.yaml, and the file of each
// subinstallation without an inline template (an inline one wins, as in
// Landscaper's GetSubinstallations). A file that cannot be read is left to
// whatever reads it. Blueprints are built once and cached, so the files
// are looked at once per blueprint, not per installation.
func ignoredFiles(info *lsv1alpha1.Blueprint, fsys fs.FS, data []byte) []IgnoredFile {
	var out []IgnoredFile
	if n := IgnoredDocuments(data); n > 0 {
		out = append(out, IgnoredFile{Subinstallation: -1, File: lsv1alpha1.BlueprintFileName, Documents: n})
	}
	for i, st := range info.Subinstallations {
		if st.InstallationTemplate != nil || st.File == "" {
			continue
		}
		sub, err := fs.ReadFile(fsys, FilePath(st.File))
		if err != nil {
			continue
		}
		if n := IgnoredDocuments(sub); n > 0 {
			out = append(out, IgnoredFile{Subinstallation: i, File: st.File, Documents: n})
		}
	}
	return out
}
