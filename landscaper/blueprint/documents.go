package blueprint

import (
	"bufio"
	"bytes"
	"errors"
	"io"

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
