package helm

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"sort"
	"strings"

	"helm.sh/helm/v3/pkg/action"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// servedAPIVersions are the API versions a helm action's templates see as
// .Capabilities.APIVersions on the cluster of c, as helm computes them from
// the discovery of the RESTClientGetter Landscaper gives its actions
// (action.GetVersionSet): every served group version and every
// group/version/kind of a served resource, CRDs' included, here sorted. A
// real cluster answers with its own discovery; any other client through
// readTransport (see lookupConfig): the kinds of its scheme and of the
// established CRDs, read in process (readDiscovery).
func servedAPIVersions(ctx context.Context, c client.Client) ([]string, error) {
	compute := func() ([]string, error) {
		if _, ok := c.(RESTConfigurer); !ok {
			return versionSet(readDiscovery{t: &readTransport{ctx: ctx, c: c}})
		}
		dc, err := discovery.NewDiscoveryClientForConfig(lookupConfig(ctx, c))
		if err != nil {
			return nil, fmt.Errorf("discovery client of the target: %w", err)
		}
		return versionSet(dc)
	}
	if m, ok := c.(versionSetMemo); ok {
		return m.MemoVersionSet(compute)
	}
	return compute()
}

// versionSetMemo is implemented by clients that keep a cluster's version
// set until the kinds it serves change (the simulated cluster's): every
// install and upgrade asks for it.
type versionSetMemo interface {
	MemoVersionSet(compute func() ([]string, error)) ([]string, error)
}

// versionSet is helm's version set of dc, sorted.
func versionSet(dc discovery.ServerResourcesInterface) ([]string, error) {
	set, err := action.GetVersionSet(dc)
	if err != nil {
		return nil, err
	}
	out := append([]string(nil), set...)
	sort.Strings(out)
	return out, nil
}

// readDiscovery gives the groups and resources that client-go's discovery
// client reads from readTransport (GET /api, /apis and each group version
// these list) without the requests: the same answers, neither encoded as
// JSON nor decoded again (TestReadDiscoveryIsReadTransports compares both).
// A discovery over HTTP made some 50 requests and was a fifth of the
// allocations of a landscape of helm releases. A release's version set is
// its only user; the preferred resources, which helm's version set does not
// read, are not served.
type readDiscovery struct {
	t *readTransport
}

// errNoPreferred is readDiscovery's answer to what it does not serve.
var errNoPreferred = errors.New("lscli: the in-process discovery serves no preferred resources")

// ServerGroupsAndResources returns what client-go's ServerGroupsAndResources
// returns for readTransport: the core group (GET /api serves v1) and the
// groups of GET /apis by name, each with the versions it serves, sorted, the
// first preferred, and the resources of every served group version in that
// order; /apis lists a group version only where its discovery finds
// resources, so none fails.
func (d readDiscovery) ServerGroupsAndResources() ([]*metav1.APIGroup, []*metav1.APIResourceList, error) {
	kinds := d.kinds()
	gvs := slices.SortedFunc(maps.Keys(kinds), func(a, b schema.GroupVersion) int {
		return cmp.Or(cmp.Compare(a.Group, b.Group), cmp.Compare(a.Version, b.Version))
	})
	core := metav1.GroupVersionForDiscovery{GroupVersion: "v1", Version: "v1"}
	groups := []*metav1.APIGroup{{Name: "", Versions: []metav1.GroupVersionForDiscovery{core}, PreferredVersion: core}}
	lists := []*metav1.APIResourceList{{GroupVersion: "v1"}}
	for _, gv := range gvs {
		l, ok := d.listOf(gv, kinds[gv])
		switch {
		case !ok:
		case gv.Group == "" && gv.Version == "v1":
			lists[0] = l
		case gv.Group != "":
			lists = append(lists, l)
			if g := groups[len(groups)-1]; g.Name == gv.Group && len(groups) > 1 {
				g.Versions = append(g.Versions, metav1.GroupVersionForDiscovery{GroupVersion: gv.String(), Version: gv.Version})
				continue
			}
			v := metav1.GroupVersionForDiscovery{GroupVersion: gv.String(), Version: gv.Version}
			groups = append(groups, &metav1.APIGroup{Name: gv.Group, Versions: []metav1.GroupVersionForDiscovery{v}, PreferredVersion: v})
		}
	}
	return groups, lists, nil
}

// kinds are the kinds of each group version that readTransport's discovery
// considers (see readTransport.groupVersions and resources), sorted: those
// of the client's scheme but the meta kinds, in one pass over the scheme
// where asking it for each group version's kinds went through every kind
// each time, and those the cluster's established CRDs serve.
func (d readDiscovery) kinds() map[schema.GroupVersion][]string {
	out := map[schema.GroupVersion][]string{}
	for gvk := range d.t.c.Scheme().AllKnownTypes() {
		if gvk.Version == "" || gvk.Version == runtime.APIVersionInternal || isMetaKind(gvk.Kind) {
			continue
		}
		out[gvk.GroupVersion()] = append(out[gvk.GroupVersion()], gvk.Kind)
	}
	if ck, ok := d.t.c.(customKinder); ok {
		for _, gv := range ck.CustomGroupVersions() {
			out[gv] = append(out[gv], ck.CustomKinds(gv)...)
		}
	}
	for gv, kinds := range out {
		slices.Sort(kinds)
		out[gv] = slices.Compact(kinds)
	}
	return out
}

// discoveryVerbs are the verbs of every resource readTransport's discovery
// lists, shared by readDiscovery's lists, which only helm's version set
// reads.
var discoveryVerbs = metav1.Verbs{"create", "delete", "get", "list", "patch", "update", "watch"}

// listOf is readTransport's discovery of gv, whose kinds are kinds, false
// where that answers 404: the resources the client's mapper maps to gv, by
// name (see readTransport.resources).
func (d readDiscovery) listOf(gv schema.GroupVersion, kinds []string) (*metav1.APIResourceList, bool) {
	if s, ok := d.t.c.(groupVersionServer); ok && !s.ServesGroupVersion(gv) {
		return nil, false
	}
	var res []metav1.APIResource
	mapper := d.t.c.RESTMapper()
	for _, kind := range kinds {
		if strings.HasSuffix(kind, "List") || strings.HasSuffix(kind, "Options") {
			continue
		}
		m, err := mapper.RESTMapping(schema.GroupKind{Group: gv.Group, Kind: kind}, gv.Version)
		if err != nil || m.GroupVersionKind.GroupVersion() != gv {
			continue
		}
		res = append(res, metav1.APIResource{Name: m.Resource.Resource, Kind: kind,
			Namespaced: m.Scope.Name() == meta.RESTScopeNameNamespace, Verbs: discoveryVerbs})
	}
	if len(res) == 0 {
		return nil, false
	}
	sort.Slice(res, func(i, j int) bool { return res[i].Name < res[j].Name })
	return &metav1.APIResourceList{TypeMeta: metav1.TypeMeta{Kind: "APIResourceList", APIVersion: "v1"},
		GroupVersion: gv.String(), APIResources: res}, true
}

// ServerResourcesForGroupVersion returns the resources of groupVersion as
// readTransport's discovery answers GET of it, and client-go's NotFound
// where that answers 404 (for v1 an empty list, as client-go gives).
func (d readDiscovery) ServerResourcesForGroupVersion(groupVersion string) (*metav1.APIResourceList, error) {
	gv, err := schema.ParseGroupVersion(groupVersion)
	if err != nil {
		return nil, err
	}
	if l, ok := d.resourceList(gv); ok {
		return l, nil
	}
	if groupVersion == "v1" {
		return &metav1.APIResourceList{GroupVersion: groupVersion}, nil
	}
	return nil, apierrors.NewGenericServerResponse(http.StatusNotFound, http.MethodGet,
		schema.GroupResource{Group: gv.Group}, "", "", 0, true)
}

// resourceList is readTransport's discovery of gv, false where that
// answers 404.
func (d readDiscovery) resourceList(gv schema.GroupVersion) (*metav1.APIResourceList, bool) {
	if s, ok := d.t.c.(groupVersionServer); ok && !s.ServesGroupVersion(gv) {
		return nil, false
	}
	res := d.t.resources(gv)
	if len(res) == 0 {
		return nil, false
	}
	return &metav1.APIResourceList{TypeMeta: metav1.TypeMeta{Kind: "APIResourceList", APIVersion: "v1"},
		GroupVersion: gv.String(), APIResources: res}, true
}

// ServerPreferredResources is not served (see readDiscovery).
func (d readDiscovery) ServerPreferredResources() ([]*metav1.APIResourceList, error) {
	return nil, errNoPreferred
}

// ServerPreferredNamespacedResources is not served (see readDiscovery).
func (d readDiscovery) ServerPreferredNamespacedResources() ([]*metav1.APIResourceList, error) {
	return nil, errNoPreferred
}
