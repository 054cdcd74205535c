package template

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"strings"
	"sync"
	gotmpl "text/template"

	"github.com/Masterminds/sprig/v3"
	"sigs.k8s.io/yaml"

	"github.com/lscli/lscli/internal/yamlout"
	"github.com/lscli/lscli/landscaper/blueprint"
	"github.com/lscli/lscli/landscaper/template/funcs"
)

// removedFuncs are sprig functions templates do not get: env and expandenv
// read the process's environment. Landscaper removes them too.
var removedFuncs = []string{"env", "expandenv"}

// networkFuncs are sprig functions that ask the network. Landscaper keeps
// them; lscli opens no network connection, so they exist (a template that
// names one where it is not called renders) and fail when called.
var networkFuncs = []string{"getHostByName"}

// noNetwork is the error of a networkFuncs function.
func noNetwork(name string) error {
	return fmt.Errorf("%s is not available in lscli: it asks the network, and lscli opens no network connection for templates; "+
		"pass the value in as an import instead", name)
}

// baseFuncs are the functions that need no execution: sprig's (without
// removedFuncs, and with reproducibleFuncs and networkFuncs replacing those
// that would read the machine's time zone or a secure random source, or ask
// the network), Landscaper's that need
// no context, and text/template's print functions and escapers, replaced so
// that their results are checked like any function's. Built once: sprig
// builds a new map of ~150 closures per call.
var baseFuncs = sync.OnceValue(func() gotmpl.FuncMap {
	fm := gotmpl.FuncMap(sprig.TxtFuncMap())
	for _, name := range removedFuncs {
		delete(fm, name)
	}
	maps.Copy(fm, reproducibleFuncs())
	maps.Copy(fm, gotmpl.FuncMap{
		"print": fmt.Sprint, "printf": fmt.Sprintf, "println": fmt.Sprintln,
		"html": gotmpl.HTMLEscaper, "js": gotmpl.JSEscaper, "urlquery": gotmpl.URLQueryEscaper,
	})
	static := gotmpl.FuncMap{
		"toYaml":               toYAML,
		"fromYaml":             fromYAML,
		"parseOCIRef":          funcs.ParseOCIRef,
		"ociRefRepo":           funcs.OCIRefRepo,
		"ociRefVersion":        funcs.OCIRefVersion,
		"getRepositoryContext": funcs.RepositoryContext,
	}
	for _, name := range networkFuncs {
		static[name] = func(...any) (string, error) { return "", noNetwork(name) }
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

// runFuncs are the functions bound to one execution: its blueprint files
// and its component descriptors. cur returns the execution.
func runFuncs(cur func() *goRun) gotmpl.FuncMap {
	return gotmpl.FuncMap{
		"include": func(p string, b any) (string, error) { return cur().include(p, b) },
		// readFile's error is Landscaper's file system's, which its function
		// panics with.
		"readFile": func(p string) ([]byte, error) {
			data, err := cur().e.readFile(p)
			if err != nil {
				err = wordedFSError(cur().e.FS, p, err)
			}
			return data, err
		},
		// readDir's error for a folder that does not exist is the file
		// system's too: vfs.ReadDir opens the folder first.
		"readDir": func(p string) ([]fs.FileInfo, error) {
			infos, err := cur().readDir(p)
			if errors.Is(err, fs.ErrNotExist) {
				err = wordedFSError(cur().e.FS, p, err)
			}
			return infos, err
		},
		"getResourceKey": func(args ...any) (string, error) { return cur().components().ResourceKey(args...) },
		// getResource, getResources and getComponent need the installation's
		// component descriptor, also when given one (Landscaper's
		// getResourceGoFunc and friends); Spiff's getResource does not.
		"getResource": func(args ...any) (map[string]any, error) {
			if err := cur().components().RequireRoot(); err != nil {
				return nil, funcs.Worded(err, "Unable to search for a resource as no ComponentDescriptor is defined.")
			}
			return cur().components().Resource(args...)
		},
		"getResources": func(args ...any) ([]map[string]any, error) {
			if err := cur().components().RequireRoot(); err != nil {
				return nil, funcs.Worded(err, "Unable to search for a resource as no ComponentDescriptor is defined.")
			}
			return cur().components().Resources(args...)
		},
		"getComponent": func(args ...any) (map[string]any, error) {
			if err := cur().components().RequireRoot(); err != nil {
				return nil, funcs.Worded(err, "Unable to search for a component as no ComponentDescriptor is defined.")
			}
			return cur().components().Component(args...)
		},
		// getResourceContent reads through the components' ContentReader.
		"getResourceContent": func(args ...any) (string, error) { return cur().components().ResourceContent(args...) },
		// getOidcKubeconfig reads the Target's content, nothing of a cluster.
		"getOidcKubeconfig": func(args ...any) (string, error) { return funcs.OIDCKubeconfig(cur().e.ResolveTarget, args...) },
		// The other kubeconfig functions ask the cluster behind the Target.
		"getServiceAccountKubeconfig": func(args ...any) (string, error) {
			return as[string](cur().clusters.ServiceAccountKubeconfig(false, args...))
		},
		"getServiceAccountKubeconfigWithExpirationTimestamp": func(args ...any) (map[string]any, error) {
			return as[map[string]any](cur().clusters.ServiceAccountKubeconfig(true, args...))
		},
		"getShootAdminKubeconfig": func(args ...any) (string, error) {
			return as[string](cur().clusters.ShootAdminKubeconfig(false, args...))
		},
		"getShootAdminKubeconfigWithExpirationTimestamp": func(args ...any) (map[string]any, error) {
			return as[map[string]any](cur().clusters.ShootAdminKubeconfig(true, args...))
		},
	}
}

// allFuncs are all functions of a GoTemplate execution, guarded (see
// guardFuncs): baseFuncs, runFuncs and envFuncs. cur returns the execution.
func allFuncs(cur func() *goRun) gotmpl.FuncMap {
	fm := maps.Clone(baseFuncs())
	maps.Copy(fm, runFuncs(cur))
	maps.Copy(fm, envFuncs(cur))
	return guardFuncs(fm, cur)
}

// readDir lists a folder of the blueprint, as Landscaper's readDir does.
func (r *goRun) readDir(p string) ([]fs.FileInfo, error) {
	if r.e.FS == nil {
		return nil, fs.ErrNotExist
	}
	entries, err := fs.ReadDir(r.e.FS, blueprint.FilePath(p))
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

// toYAML marshals v as YAML without the trailing newline, as Landscaper's
// does (sigs.k8s.io/yaml), but always the same bytes for the same value
// (package yamlout); like Landscaper's, it returns "" when v cannot be
// marshalled.
func toYAML(v any) string {
	data, err := yamlout.Marshal(v)
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

// as gives a kubeconfig function's result the type its GoTemplate function
// returns (string, or the map of the WithExpirationTimestamp variants).
func as[T any](out any, err error) (T, error) {
	v, _ := out.(T)
	return v, err
}
