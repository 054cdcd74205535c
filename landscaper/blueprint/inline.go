package blueprint

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"
	"unicode/utf8"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
)

// Inline returns the files of fsys below dir as an inline filesystem, the
// value of spec.blueprint.inline.filesystem: folders become maps, text files
// strings, and other files {$type: file, binary: <base64>}.
func Inline(fsys fs.FS, dir string) (lsv1alpha1.AnyJSON, error) {
	tree, err := inlineDir(fsys, dir)
	if err != nil {
		return lsv1alpha1.AnyJSON{}, err
	}
	raw, err := json.Marshal(tree)
	if err != nil {
		return lsv1alpha1.AnyJSON{}, err
	}
	return lsv1alpha1.NewAnyJSON(raw), nil
}

// inlineDir returns one folder as a YAML file system map.
func inlineDir(fsys fs.FS, dir string) (map[string]any, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, fmt.Errorf("read folder %s: %w", dir, describe(err))
	}
	tree := map[string]any{}
	for _, e := range entries {
		p := e.Name()
		if dir != "." {
			p = dir + "/" + e.Name()
		}
		if e.IsDir() {
			sub, err := inlineDir(fsys, p)
			if err != nil {
				return nil, err
			}
			tree[e.Name()] = sub
			continue
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", p, err)
		}
		tree[e.Name()] = inlineFile(data)
	}
	return tree, nil
}

// inlineFile is a file's entry in a YAML file system.
func inlineFile(data []byte) any {
	if utf8.Valid(data) && !strings.HasPrefix(string(data), "---Start Binary---") {
		return string(data)
	}
	return map[string]any{"$type": "file", "binary": base64.StdEncoding.EncodeToString(data)}
}
