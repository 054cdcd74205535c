package source

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"io/fs"
	"testing/fstest"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// singleFile is a file system of one file.
type singleFile struct {
	name string
	data []byte
}

func (s singleFile) Open(name string) (fs.File, error) {
	return fstest.MapFS{s.name: {Data: s.data}}.Open(name)
}

// splitYAML splits a multi-document YAML file at its "---" lines.
func splitYAML(data []byte) ([][]byte, error) {
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	var docs [][]byte
	for {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			return docs, nil
		}
		if err != nil {
			return nil, err
		}
		docs = append(docs, doc)
	}
}
