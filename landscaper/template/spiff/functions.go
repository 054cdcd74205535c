package spiff

import (
	"encoding/json"
	"fmt"

	"github.com/mandelsoft/spiff/dynaml"
	"github.com/mandelsoft/spiff/spiffing"
	spiffyaml "github.com/mandelsoft/spiff/yaml"
	"sigs.k8s.io/yaml"

	"github.com/lscli/lscli/landscaper/template/funcs"
)

// NewFunctions returns Landscaper's extra Spiff functions over components
// (which may be nil): getResource, getResourceKey, getResourceContent,
// getComponent, parseOCIRef, ociRefRepo and ociRefVersion; getOidcKubeconfig,
// which reads Targets with clusters.Resolve; and getServiceAccountKubeconfig
// and getShootAdminKubeconfig (and their WithExpirationTimestamp variants),
// which ask the clusters behind Targets (clusters nil or without Clients:
// they fail with funcs.ErrNoCluster).
func NewFunctions(components *funcs.Components, clusters *funcs.Clusters) spiffing.Functions {
	if components == nil {
		components = &funcs.Components{}
	}
	fns := spiffing.NewFunctions()
	fns.RegisterFunction("getResource", wrap(func(args []any) (any, error) { return components.Resource(args...) }))
	fns.RegisterFunction("getResourceKey", wrap(func(args []any) (any, error) {
		args, err := referenceArgs(args)
		if err != nil {
			return nil, err
		}
		return components.ResourceKey(args...)
	}))
	fns.RegisterFunction("getComponent", wrap(func(args []any) (any, error) { return components.Component(args...) }))
	fns.RegisterFunction("parseOCIRef", wrap(oneString(func(s string) (any, error) { return funcs.ParseOCIRef(s) })))
	fns.RegisterFunction("ociRefRepo", wrap(oneString(func(s string) (any, error) { return funcs.OCIRefRepo(s) })))
	fns.RegisterFunction("ociRefVersion", wrap(oneString(func(s string) (any, error) { return funcs.OCIRefVersion(s) })))
	fns.RegisterFunction("getResourceContent", wrap(func(args []any) (any, error) { return resourceContent(components, args) }))
	if clusters == nil {
		clusters = &funcs.Clusters{}
	}
	fns.RegisterFunction("getOidcKubeconfig", wrap(func(args []any) (any, error) { return funcs.OIDCKubeconfig(clusters.Resolve, args...) }))
	for name, withExpiration := range map[string]bool{"getServiceAccountKubeconfig": false, "getServiceAccountKubeconfigWithExpirationTimestamp": true} {
		fns.RegisterFunction(name, wrap(func(args []any) (any, error) { return clusters.ServiceAccountKubeconfig(withExpiration, args...) }))
	}
	for name, withExpiration := range map[string]bool{"getShootAdminKubeconfig": false, "getShootAdminKubeconfigWithExpirationTimestamp": true} {
		fns.RegisterFunction(name, wrap(func(args []any) (any, error) { return clusters.ShootAdminKubeconfig(withExpiration, args...) }))
	}
	return fns
}

// oneString adapts a function of one string argument.
func oneString(f func(string) (any, error)) func([]any) (any, error) {
	return func(args []any) (any, error) {
		if len(args) != 1 {
			return nil, fmt.Errorf("want 1 argument, got %d", len(args))
		}
		s, ok := args[0].(string)
		if !ok {
			return nil, fmt.Errorf("want a string argument, got %T", args[0])
		}
		return f(s)
	}
}

// wrap turns f, which takes and returns plain JSON values, into a Spiff
// function: arguments are converted from Spiff nodes, the result back.
func wrap(f func([]any) (any, error)) dynaml.Function {
	return func(arguments []any, binding dynaml.Binding) (any, dynaml.EvaluationInfo, bool) {
		info := dynaml.DefaultInfo()
		args, err := plainArgs(arguments)
		if err != nil {
			return info.Error(err.Error())
		}
		out, err := f(args)
		if err != nil {
			return info.Error(err.Error())
		}
		data, err := json.Marshal(out)
		if err != nil {
			return info.Error(err.Error())
		}
		node, err := spiffyaml.Parse("", data)
		if err != nil {
			return info.Error(err.Error())
		}
		result, status := binding.Flow(node, false)
		if status != nil {
			return info.Error(status.Error())
		}
		return result.Value(), info, true
	}
}

// plainArgs converts Spiff argument values to plain JSON values.
func plainArgs(arguments []any) ([]any, error) {
	data, err := spiffyaml.Marshal(spiffyaml.NewNode(arguments, ""))
	if err != nil {
		return nil, err
	}
	var args []any
	err = yaml.Unmarshal(data, &args)
	return args, err
}
