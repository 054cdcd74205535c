package template

import (
	"io/fs"
	"maps"
	"strings"
	"sync"
	gotmpl "text/template"

	"github.com/Masterminds/sprig/v3"
	"sigs.k8s.io/yaml"

	"github.com/lscli/lscli/landscaper/template/funcs"
)

// unavailableFuncs are Landscaper's GoTemplate functions that need a live
// cluster or registry. They exist, so that templates using them parse, and
// fail when called.
var unavailableFuncs = []string{
	"getShootAdminKubeconfig", "getShootAdminKubeconfigWithExpirationTimestamp",
	"getServiceAccountKubeconfig", "getServiceAccountKubeconfigWithExpirationTimestamp", "getOidcKubeconfig",
}

// baseFuncs are the functions every GoTemplate execution shares: sprig's
// without env and expandenv, Landscaper's that need no context, and
// placeholders for those bound per execution (runFuncs), so that templates
// parse once and are cached. Built once: sprig builds a new map of ~150
// closures per call, and text/template converts each to a reflect.Value.
var baseFuncs = sync.OnceValue(func() gotmpl.FuncMap {
	fm := gotmpl.FuncMap(sprig.TxtFuncMap())
	delete(fm, "env")
	delete(fm, "expandenv")
	static := gotmpl.FuncMap{
		"toYaml":               toYAML,
		"fromYaml":             fromYAML,
		"parseOCIRef":          funcs.ParseOCIRef,
		"ociRefRepo":           funcs.OCIRefRepo,
		"ociRefVersion":        funcs.OCIRefVersion,
		"getRepositoryContext": funcs.RepositoryContext,
	}
	for _, name := range unavailableFuncs {
		static[name] = func(...any) (string, error) { return "", funcs.Unavailable(name) }
	}
	maps.Copy(fm, static)
	return fm
})

// components are the component descriptors of the execution.
func (r *goRun) components() *funcs.Components {
	if r.e.Components == nil {
		return &funcs.Components{}
	}
	return r.e.Components
}

// runFuncs are the functions bound to one execution: its blueprint files and
// its component descriptors.
func (r *goRun) runFuncs() gotmpl.FuncMap {
	c := r.components()
	return gotmpl.FuncMap{
		"include":        r.include,
		"readFile":       r.e.readFile,
		"readDir":        r.readDir,
		"getResourceKey": c.ResourceKey,
		"getResource":    c.Resource,
		"getResources":   c.Resources,
		"getComponent":   c.Component,
		// getResourceContent reads through the components' ContentReader.
		"getResourceContent": c.ResourceContent,
	}
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
