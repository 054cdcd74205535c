package template

import (
	"io/fs"
	"strings"
	gotmpl "text/template"

	"github.com/Masterminds/sprig/v3"
	"sigs.k8s.io/yaml"

	"github.com/lscli/lscli/engine/template/funcs"
)

// unavailableFuncs are Landscaper's GoTemplate functions that need a live
// cluster or registry. They exist, so that templates using them parse, and
// fail when called.
var unavailableFuncs = []string{
	"getResourceContent", "getShootAdminKubeconfig", "getShootAdminKubeconfigWithExpirationTimestamp",
	"getServiceAccountKubeconfig", "getServiceAccountKubeconfigWithExpirationTimestamp", "getOidcKubeconfig",
}

// funcMap is sprig's functions without env and expandenv, plus Landscaper's.
func (r *goRun) funcMap() gotmpl.FuncMap {
	fm := gotmpl.FuncMap(sprig.TxtFuncMap())
	delete(fm, "env")
	delete(fm, "expandenv")
	c := r.e.Components
	if c == nil {
		c = &funcs.Components{}
	}
	extra := gotmpl.FuncMap{
		"include":              r.include,
		"readFile":             r.e.readFile,
		"readDir":              r.readDir,
		"toYaml":               toYAML,
		"fromYaml":             fromYAML,
		"parseOCIRef":          funcs.ParseOCIRef,
		"ociRefRepo":           funcs.OCIRefRepo,
		"ociRefVersion":        funcs.OCIRefVersion,
		"getResourceKey":       c.ResourceKey,
		"getResource":          c.Resource,
		"getResources":         c.Resources,
		"getComponent":         c.Component,
		"getRepositoryContext": funcs.RepositoryContext,
	}
	for _, name := range unavailableFuncs {
		extra[name] = func(...any) (string, error) { return "", funcs.Unavailable(name) }
	}
	for k, v := range extra {
		fm[k] = v
	}
	return fm
}

// readDir lists a folder of the blueprint, as Landscaper's readDir does.
func (r *goRun) readDir(p string) ([]fs.FileInfo, error) {
	if r.e.FS == nil {
		return nil, fs.ErrNotExist
	}
	entries, err := fs.ReadDir(r.e.FS, cleanPath(p))
	if err != nil {
		return nil, err
	}
	infos := make([]fs.FileInfo, 0, len(entries))
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			return nil, err
		}
		infos = append(infos, info)
	}
	return infos, nil
}

// toYAML marshals v as YAML without the trailing newline; like Landscaper's,
// it returns "" when v cannot be marshalled.
func toYAML(v any) string {
	data, err := yaml.Marshal(v)
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(string(data), "\n")
}

// fromYAML unmarshals a YAML document into a generic value.
func fromYAML(s string) (any, error) {
	var out any
	err := yaml.Unmarshal([]byte(s), &out)
	return out, err
}
