package blueprint

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"testing/fstest"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"sigs.k8s.io/yaml"
)

// Blueprint is a parsed blueprint and the filesystem its files are read from.
type Blueprint struct {
	// Info is blueprint.yaml, decoded and defaulted as Landscaper does.
	Info *lsv1alpha1.Blueprint
	// FS holds the blueprint's files, blueprint.yaml at its root.
	FS fs.FS
}

// FromInline reads a blueprint from an inline filesystem: a JSON object whose
// keys are file or folder names, whose string values are file contents and
// whose object values are folders.
func FromInline(filesystem lsv1alpha1.AnyJSON) (*Blueprint, error) {
	var tree map[string]any
	if err := json.Unmarshal(filesystem.RawMessage, &tree); err != nil {
		return nil, fmt.Errorf("inline filesystem must be a map of file names to contents: %w", err)
	}
	files := fstest.MapFS{}
	if err := addFiles(files, "", tree); err != nil {
		return nil, err
	}
	return FromFS(files)
}

// addFiles adds the files of tree under dir to files.
func addFiles(files fstest.MapFS, dir string, tree map[string]any) error {
	names := make([]string, 0, len(tree))
	for name := range tree {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		p := path.Join(dir, name)
		switch v := tree[name].(type) {
		case string:
			files[p] = &fstest.MapFile{Data: []byte(v), Mode: 0o644}
		case map[string]any:
			files[p] = &fstest.MapFile{Mode: fs.ModeDir | 0o755}
			if err := addFiles(files, p, v); err != nil {
				return err
			}
		default:
			return fmt.Errorf("inline filesystem: %s: want a string (file) or a map (folder), got %T", p, v)
		}
	}
	return nil
}

// FromFS reads blueprint.yaml at the root of fsys. Unknown keys are ignored,
// as Landscaper's non-strict decoder does.
func FromFS(fsys fs.FS) (*Blueprint, error) {
	data, err := fs.ReadFile(fsys, lsv1alpha1.BlueprintFileName)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", lsv1alpha1.BlueprintFileName, err)
	}
	info := &lsv1alpha1.Blueprint{}
	if err := yaml.Unmarshal(data, info); err != nil {
		return nil, fmt.Errorf("decode %s: %w", lsv1alpha1.BlueprintFileName, err)
	}
	lsv1alpha1.SetDefaults_Blueprint(info)
	return &Blueprint{Info: info, FS: fsys}, nil
}
