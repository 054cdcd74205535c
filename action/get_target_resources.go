package action

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/cli-runtime/pkg/resource"

	"github.com/lscli/lscli/deployers/simcluster"
)

// ClusterRequest is one resource of `get --target T ARGS`, read as kubectl
// reads its arguments: RESOURCE[,RESOURCE...] [NAME...], or
// RESOURCE/NAME... (cli-runtime's Builder.ResourceTypeOrNameArgs).
type ClusterRequest struct {
	// Resource is the resource argument as the user wrote it.
	Resource string
	// Names are the names asked for; none means every object.
	Names []string
}

// ParseClusterArgs splits args as kubectl get splits them: KIND,KIND NAME
// is KIND/NAME KIND/NAME, and TYPE/NAME arguments cannot be mixed with
// others. Unlike kubectl's, a NAME after a separate KIND may be
// NAMESPACE/NAME, as lscli's messages name the objects deployers apply;
// so only a first argument with a slash makes every argument TYPE/NAME.
func ParseClusterArgs(args []string) ([]ClusterRequest, error) {
	if len(args) == 0 {
		return nil, nil
	}
	if !strings.Contains(args[0], "/") {
		var out []ClusterRequest
		for _, r := range resource.SplitResourceArgument(args[0]) {
			out = append(out, ClusterRequest{Resource: r, Names: args[1:]})
		}
		return out, nil
	}
	for _, a := range args {
		if !strings.Contains(a, "/") {
			return nil, errors.New("there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'lscli get --target T resource/<resource_name>' instead of 'lscli get --target T resource resource/<resource_name>')")
		}
	}
	var out []ClusterRequest
	for _, a := range args {
		r, name, _ := strings.Cut(a, "/")
		switch {
		case strings.Contains(name, "/"):
			return nil, errors.New("arguments in resource/name form may not have more than one slash")
		case r == "" || name == "" || strings.Contains(r, ","):
			return nil, errors.New("arguments in resource/name form must have a single resource and name")
		}
		out = append(out, ClusterRequest{Resource: r, Names: []string{name}})
	}
	return out, nil
}

// resourceKinds returns the kinds that arg names, as kubectl's mappingFor
// (cli-runtime's resource.Builder) resolves it against the cluster's
// RESTMapper: RESOURCE (plural, singular or short name, or the kind in any
// case), RESOURCE.GROUP, RESOURCE.VERSION.GROUP, KIND.GROUP or
// KIND.VERSION.GROUP. shorts are the short names the cluster's discovery
// lists (shortNames). A resource that names kinds of several groups names
// them all (kubectl would pick one by group priority). version is the
// version arg names (RESOURCE.VERSION.GROUP, KIND.VERSION.GROUP), "" for
// none. An unknown resource is kubectl's error.
func resourceKinds(mapper meta.RESTMapper, shorts map[string]schema.GroupResource, arg string) (gks []schema.GroupKind, version string, err error) {
	expand := func(gvr schema.GroupVersionResource) schema.GroupVersionResource {
		gvr.Resource = strings.ToLower(gvr.Resource)
		if s, ok := shorts[gvr.Resource]; ok && (gvr.Group == "" || gvr.Group == s.Group) {
			gvr.Group, gvr.Resource = s.Group, s.Resource
		}
		return gvr
	}
	kindsFor := func(gvr schema.GroupVersionResource) []schema.GroupKind {
		gvks, _ := mapper.KindsFor(expand(gvr))
		var out []schema.GroupKind
		for _, gvk := range gvks {
			if !slices.Contains(out, gvk.GroupKind()) {
				out = append(out, gvk.GroupKind())
			}
		}
		return out
	}
	fullGVR, gr := schema.ParseResourceArg(arg)
	if fullGVR != nil {
		if gks := kindsFor(*fullGVR); len(gks) > 0 {
			return gks, fullGVR.Version, nil
		}
	}
	if gks := kindsFor(gr.WithVersion("")); len(gks) > 0 {
		return gks, "", nil
	}
	fullGVK, gk := schema.ParseKindArg(arg)
	if fullGVK != nil {
		if m, err := mapper.RESTMapping(fullGVK.GroupKind(), fullGVK.Version); err == nil {
			return []schema.GroupKind{m.GroupVersionKind.GroupKind()}, m.GroupVersionKind.Version, nil
		}
	}
	if m, err := mapper.RESTMapping(gk); err == nil {
		return []schema.GroupKind{m.GroupVersionKind.GroupKind()}, "", nil
	}
	if gr.Group != "" {
		return nil, "", fmt.Errorf("the server doesn't have a resource type %q in group %q", gr.Resource, gr.Group)
	}
	return nil, "", fmt.Errorf("the server doesn't have a resource type %q", gr.Resource)
}

// clusterShortNames are the short names of the cluster behind objs: the
// built-in ones (simcluster.BuiltinShortNames) and those the CustomResourceDefinitions
// among objs declare, as the cluster's discovery lists them for kubectl.
func clusterShortNames(objs []*unstructured.Unstructured) map[string]schema.GroupResource {
	out := map[string]schema.GroupResource{}
	maps.Copy(out, simcluster.BuiltinShortNames)
	eachCRDName(objs, "shortNames", func(s string, gr schema.GroupResource) { // get_target_categories.go
		out[strings.ToLower(s)] = gr
	})
	return out
}

// selectClusterObjects returns the objects of objs that reqs ask for, the
// kinds resolved by resourceKinds against mapper, and the requests' names
// that name no object (kubectl's NotFound), as RESOURCE "NAME". A name may
// be NAMESPACE/NAME, as lscli's messages name the objects deployers apply.
// Without names the objects keep the cluster's order; with names they come
// in the order asked for.
func selectClusterObjects(mapper meta.RESTMapper, objs []*unstructured.Unstructured, reqs []ClusterRequest) (out []*unstructured.Unstructured, missing []string, err error) {
	if len(reqs) == 0 {
		return objs, nil, nil
	}
	shorts, cats := clusterShortNames(objs), clusterCategories(objs) // get_target_categories.go
	kinds := make([][]schema.GroupKind, len(reqs))
	for i, r := range reqs {
		var isCategory bool
		if kinds[i], isCategory = categoryKinds(mapper, cats, r.Resource); isCategory {
			continue
		}
		if kinds[i], _, err = resourceKinds(mapper, shorts, r.Resource); err != nil {
			return nil, nil, err
		}
	}
	of := func(o *unstructured.Unstructured, gks []schema.GroupKind) bool {
		return slices.Contains(gks, o.GroupVersionKind().GroupKind())
	}
	if len(reqs[0].Names) == 0 {
		all := slices.Concat(kinds...)
		for _, o := range objs {
			if of(o, all) {
				out = append(out, o)
			}
		}
		return out, nil, nil
	}
	for i, r := range reqs {
		for _, name := range r.Names {
			found := false
			for _, o := range objs {
				if of(o, kinds[i]) && (o.GetName() == name || o.GetNamespace()+"/"+o.GetName() == name) && !slices.Contains(out, o) {
					out, found = append(out, o), true
				}
			}
			if !found {
				missing = append(missing, fmt.Sprintf("%s %q", r.Resource, name))
			}
		}
	}
	return out, missing, nil
}
