package blueprint

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"testing/fstest"

	"sigs.k8s.io/yaml"
)

// ReadFilesystem reads a YAML file system, the format of
// spec.blueprint.inline.filesystem and of subinstallation templates'
// blueprint.filesystem, the way Landscaper's yamlfs does: a map is a
// folder, a string is a file's content, and a map with the key "$type" is
// an entry of that type, whose "value" (or, for files, base64 "binary") is
// its content: "file", "directory", "yaml" and "json" (the value, written
// as YAML or JSON). A string between the lines "---Start Binary---" and
// "---End Binary---" is base64 encoded binary content.
func ReadFilesystem(raw json.RawMessage) (fstest.MapFS, error) {
	var tree map[string]any
	if err := json.Unmarshal(raw, &tree); err != nil {
		return nil, fmt.Errorf("want a map of file and folder names to contents: %w", err)
	}
	files := fstest.MapFS{}
	if err := addDir(files, "", tree); err != nil {
		return nil, err
	}
	return files, nil
}

// addDir adds the entries of the folder dir.
func addDir(files fstest.MapFS, dir string, tree map[string]any) error {
	names := make([]string, 0, len(tree))
	for name := range tree {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if name == "" || name == "." || name == ".." || strings.Contains(name, "/") {
			return fmt.Errorf("%q is not a valid file name", path.Join(dir, name))
		}
		if err := addEntry(files, path.Join(dir, name), tree[name]); err != nil {
			return err
		}
	}
	return nil
}

// addEntry adds one file or folder at p.
func addEntry(files fstest.MapFS, p string, v any) error {
	switch v := v.(type) {
	case string:
		data, err := fileContent(v)
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		files[p] = &fstest.MapFile{Data: data, Mode: 0o644}
		return nil
	case map[string]any:
		if typ, ok := v["$type"]; ok {
			return addTyped(files, p, typ, v)
		}
		files[p] = &fstest.MapFile{Mode: fs.ModeDir | 0o755}
		return addDir(files, p, v)
	}
	return fmt.Errorf("%s: want a string (a file) or a map (a folder), got %s", p, jsonType(v))
}

// addTyped adds an entry with a "$type" key.
func addTyped(files fstest.MapFS, p string, typ any, m map[string]any) error {
	switch typ {
	case "directory":
		dir, _ := m["value"].(map[string]any)
		files[p] = &fstest.MapFile{Mode: fs.ModeDir | 0o755}
		return addDir(files, p, dir)
	case "file":
		if bin, ok := m["binary"].(string); ok {
			data, err := base64.StdEncoding.DecodeString(bin)
			if err != nil {
				return fmt.Errorf("%s: binary is not base64: %w", p, err)
			}
			files[p] = &fstest.MapFile{Data: data, Mode: 0o644}
			return nil
		}
		return addEntry(files, p, stringOrEmpty(m["value"]))
	case "yaml", "json":
		data, err := json.Marshal(m["value"])
		if err == nil && typ == "yaml" {
			data, err = yaml.JSONToYAML(data)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		files[p] = &fstest.MapFile{Data: data, Mode: 0o644}
		return nil
	}
	return fmt.Errorf("%s: unsupported $type %v (allowed: file, directory, yaml, json)", p, typ)
}

// fileContent decodes the legacy "---Start Binary---" form, else returns s.
func fileContent(s string) ([]byte, error) {
	const start, end = "---Start Binary---", "---End Binary---"
	t := strings.TrimSpace(s)
	if !strings.HasPrefix(t, start) || !strings.HasSuffix(t, end) {
		return []byte(s), nil
	}
	body := strings.Join(strings.Fields(t[len(start):len(t)-len(end)]), "")
	return base64.StdEncoding.DecodeString(body)
}

func stringOrEmpty(v any) string {
	s, _ := v.(string)
	return s
}

// jsonType names the JSON type of a decoded value.
func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case float64:
		return "a number"
	case []any:
		return "a list"
	}
	return fmt.Sprintf("%T", v)
}
