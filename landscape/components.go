package landscape

import (
	"bytes"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/lscli/lscli/landscaper/components/source"
)

// Keys that tell Landscaper objects from OCM's component descriptors,
// quickly, in a document as JSON.
var (
	apiVersionKey = []byte(`"apiVersion":"`)
	ocmAPIVersion = []byte(`"apiVersion":"` + "ocm.software/v3alpha1" + `"`)
)

// isComponentDocument tells whether the document js (JSON) belongs to a
// component source rather than to the landscape: a component descriptor
// or a document of an OCM component-constructor file. Such documents are
// skipped; lscli reads them as component versions (package
// landscaper/components).
func isComponentDocument(js []byte) bool {
	if bytes.Contains(js, apiVersionKey) && !bytes.Contains(js, ocmAPIVersion) {
		return false
	}
	return source.DocumentKind(js) != source.NotComponent
}

// isComponentDir tells whether dir is part of a component source that a
// walk skips as a whole: a CTF (artifact-index.json), or the blobs folder
// of component descriptors (a component archive's, or a local
// repository's). A folder with a component-descriptor.yaml is walked: as a
// component archive it holds nothing else, but projects keep their
// descriptor (and component-cli's resources.yaml) next to their
// installations (see isComponentFile).
func isComponentDir(fsys fs.FS, dir string) bool {
	if isFile(fsys, path.Join(dir, source.IndexFile)) {
		return true
	}
	if path.Base(dir) != "blobs" {
		return false
	}
	entries, err := fs.ReadDir(fsys, path.Dir(dir))
	if err != nil {
		return false
	}
	for _, e := range entries {
		if e.Type().IsRegular() && isYAMLFile(e.Name()) {
			data, err := fs.ReadFile(fsys, path.Join(path.Dir(dir), e.Name()))
			if err == nil && source.Sniff(data) == source.DescriptorFileKind {
				return true
			}
		}
	}
	return false
}

// isComponentFile tells whether the file name is component-cli's
// resources.yaml or sources.yaml: next to a component-descriptor.yaml, or,
// without one, with documents of elements (type, name, input or access)
// only, as in projects that write the descriptor in their build script.
// lscli reads them as part of the component version
// (source.ComponentCLIFolder), not as landscape objects. The descriptor's
// own documents are skipped as component documents.
func isComponentFile(fsys fs.FS, name string) bool {
	if base := path.Base(name); base != source.ResourcesFile && base != source.SourcesFile {
		return false
	}
	if isFile(fsys, path.Join(path.Dir(name), source.DescriptorFile)) {
		return true
	}
	data, err := fs.ReadFile(fsys, name)
	return err == nil && source.IsComponentCLIFile(name, data)
}

func isFile(fsys fs.FS, name string) bool {
	info, err := fs.Stat(fsys, name)
	return err == nil && info.Mode().IsRegular()
}

// OnlyTemplates says that a landscape folder holds the templates tpls
// (see TemplateFiles) where objects were wanted, and what to do with them.
func OnlyTemplates(tpls []string) string {
	return "only templates such as " + strings.Join(tpls, ", ") + ", which lscli does not read: " +
		"fill in their ${...} variables with envsubst into *.yaml files first (see docs/components.md)"
}

// templatesShown is how many template files a message names.
const templatesShown = 3

// TemplateFiles returns the first *.yaml.tpl and *.yml.tpl files in the
// folders paths name (as many as a message names), skipping hidden folders.
// The guided tour keeps its objects in such files, for envsubst; lscli does
// not read them.
func TemplateFiles(paths []string) []string {
	var out []string
	for _, p := range paths {
		if info, err := os.Stat(p); err != nil || !info.IsDir() {
			continue
		}
		for _, name := range templatesIn(os.DirFS(p), ".", templatesShown-len(out)) {
			out = append(out, path.Join(filepath.ToSlash(p), name))
		}
	}
	return out
}

// templatesIn returns the names of up to max *.yaml.tpl and *.yml.tpl
// files below the folder dir of fsys, skipping hidden folders.
func templatesIn(fsys fs.FS, dir string, max int) []string {
	var out []string
	_ = fs.WalkDir(fsys, dir, func(name string, d fs.DirEntry, err error) error {
		switch {
		case err != nil || len(out) >= max:
			return fs.SkipDir
		case d.IsDir() && name != dir && strings.HasPrefix(d.Name(), "."):
			return fs.SkipDir
		case !d.IsDir() && (strings.HasSuffix(name, ".yaml.tpl") || strings.HasSuffix(name, ".yml.tpl")):
			out = append(out, name)
		}
		return nil
	})
	return out
}
