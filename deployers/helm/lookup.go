package helm

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"sort"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/util/flowcontrol"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// RESTConfigurer is implemented by target clients that reach a real API
// server, such as the clients of deployers/realcluster: chart templates'
// `lookup` then asks that server, as helm does.
type RESTConfigurer interface {
	RESTConfig() *rest.Config
}

// groupVersionServer is implemented by clients that know which group
// versions their cluster serves (the simulated cluster's).
type groupVersionServer interface {
	ServesGroupVersion(schema.GroupVersion) bool
}

// customKinder is implemented by clients that know the kinds their
// cluster's CRDs serve without listing the CRDs: the simulated cluster's,
// the only clients readTransport serves (a real cluster answers itself). A
// discovery asks it for every group version; listing every CRD each time
// made a release's discovery cost grow with the CRDs of the cluster.
type customKinder interface {
	CustomKinds(schema.GroupVersion) []string
	CustomGroupVersions() []schema.GroupVersion
}

// lookupConfig is the REST config helm's `lookup` template function reads
// the target cluster with, in both modes: Landscaper renders with the
// Target's REST config (engine.RenderWithClient with helmDeployment: false,
// helm's action with a RESTClientGetter otherwise). A real cluster's client
// gives its own config; any other client (the simulated cluster's) is
// served by readTransport, which answers the requests helm's lookup and
// discovery make (the served groups and group versions, get and list)
// from c. Its requests are not rate limited: client-go's default limiter
// (5 requests a second) waits in wall-clock time, which the simulation
// must not, and a discovery alone makes a request per group version.
func lookupConfig(ctx context.Context, c client.Client) *rest.Config {
	return readConfig(ctx, c, false)
}

// readConfig is lookupConfig, whose readTransport also lists the
// ReplicaSets of Deployments when replicaSets is true (see
// readTransport.replicaSets).
func readConfig(ctx context.Context, c client.Client, replicaSets bool) *rest.Config {
	if r, ok := c.(RESTConfigurer); ok {
		return r.RESTConfig()
	}
	return &rest.Config{Host: "http://target.lscli.invalid", Transport: &readTransport{ctx: ctx, c: c, replicaSets: replicaSets},
		RateLimiter: flowcontrol.NewFakeAlwaysRateLimiter()}
}

// readTransport serves the read requests of helm's lookup and discovery
// from a controller-runtime client: GET /api/v1 and /apis/GROUP/VERSION
// (the kinds served, see resources), GET of a resource's collection or of
// one object (see serveRead), GET /api (the core API's versions, without
// server addresses) and GET /apis (the groups served, see groups). Other
// paths are 404 as on kube-apiserver; other verbs are refused.
type readTransport struct {
	ctx context.Context
	c   client.Client
	// replicaSets adds to a list of ReplicaSets those the Deployments
	// would have (see addReplicaSets), for helm's readiness checks.
	replicaSets bool
}

// RoundTrip answers req.
func (t *readTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		_ = req.Body.Close()
	}
	if req.Method != http.MethodGet {
		return statusResponse(req, metav1.Status{Status: metav1.StatusFailure, Code: http.StatusMethodNotAllowed,
			Reason: metav1.StatusReasonMethodNotAllowed, Message: "lscli's reads of a simulated cluster only read"})
	}
	if strings.Trim(req.URL.Path, "/") == "api" {
		// helm's lookup of a kind its group version does not have lists
		// this path (the resource it found is empty).
		return response(req, http.StatusOK, []byte(`{"kind":"APIVersions","versions":["v1"]}`)), nil
	}
	if strings.Trim(req.URL.Path, "/") == "apis" {
		return t.groups(req)
	}
	gv, rest, ok := splitAPIPath(req.URL.Path)
	if !ok {
		return notFound(req), nil
	}
	if len(rest) == 0 {
		return t.discovery(req, gv)
	}
	return serveRead(t.ctx, t.c, req, gv, rest, func(l *unstructured.UnstructuredList, gvk schema.GroupVersionKind, namespace string, sel labels.Selector) error {
		if t.replicaSets && gvk.Group == "apps" && gvk.Kind == "ReplicaSet" {
			return t.addReplicaSets(l, namespace, sel)
		}
		return nil
	})
}

// serveRead answers a GET of one object or of a collection of kind
// resource rest[0] in gv, cluster-wide or in a namespace (rest is the path
// after the group version), from c as kube-apiserver would: a list selects
// by the request's labelSelector. extend, when not nil, may add to a list
// before it is answered.
func serveRead(ctx context.Context, c client.Client, req *http.Request, gv schema.GroupVersion, rest []string,
	extend func(l *unstructured.UnstructuredList, gvk schema.GroupVersionKind, namespace string, sel labels.Selector) error) (*http.Response, error) {
	namespace := ""
	if len(rest) >= 3 && rest[0] == "namespaces" {
		namespace, rest = rest[1], rest[2:]
	}
	if len(rest) == 0 || len(rest) > 2 {
		return notFound(req), nil
	}
	gvk, err := c.RESTMapper().KindFor(gv.WithResource(rest[0]))
	if err != nil || gvk.GroupVersion() != gv {
		return notFound(req), nil
	}
	if len(rest) == 2 {
		u := &unstructured.Unstructured{}
		u.SetGroupVersionKind(gvk)
		return answerRead(req, c.Get(ctx, client.ObjectKey{Namespace: namespace, Name: rest[1]}, u), u)
	}
	sel, err := labels.Parse(req.URL.Query().Get("labelSelector"))
	if err != nil {
		return statusResponse(req, apierrors.NewBadRequest(err.Error()).Status())
	}
	l := &unstructured.UnstructuredList{}
	l.SetGroupVersionKind(gv.WithKind(gvk.Kind + "List"))
	opts := []client.ListOption{client.MatchingLabelsSelector{Selector: sel}}
	if namespace != "" {
		opts = append(opts, client.InNamespace(namespace))
	}
	err = c.List(ctx, l, opts...)
	if err == nil && extend != nil {
		err = extend(l, gvk, namespace, sel)
	}
	return answerRead(req, err, l)
}

// answerRead is obj as JSON, or err as an API status (an error that is
// none as kube-apiserver's internal error).
func answerRead(req *http.Request, err error, obj runtime.Unstructured) (*http.Response, error) {
	if err != nil {
		if s, ok := err.(apierrors.APIStatus); ok {
			return statusResponse(req, s.Status())
		}
		return statusResponse(req, apierrors.NewInternalError(err).Status())
	}
	body, err := json.Marshal(obj.UnstructuredContent())
	if err != nil {
		return nil, fmt.Errorf("encode the answer to %s: %w", req.URL.Path, err)
	}
	return response(req, http.StatusOK, body), nil
}

// discovery answers GET of a group version with the resources it serves,
// 404 when it serves none.
func (t *readTransport) discovery(req *http.Request, gv schema.GroupVersion) (*http.Response, error) {
	if s, ok := t.c.(groupVersionServer); ok && !s.ServesGroupVersion(gv) {
		return notFound(req), nil
	}
	res := t.resources(gv)
	if len(res) == 0 {
		return notFound(req), nil
	}
	list := metav1.APIResourceList{TypeMeta: metav1.TypeMeta{Kind: "APIResourceList", APIVersion: "v1"},
		GroupVersion: gv.String(), APIResources: res}
	body, err := json.Marshal(list)
	if err != nil {
		return nil, fmt.Errorf("encode discovery of %s: %w", gv, err)
	}
	return response(req, http.StatusOK, body), nil
}

// groups answers GET /apis with the API groups other than the core one and
// their versions that discovery serves (see discovery), sorted by name,
// the first version preferred.
func (t *readTransport) groups(req *http.Request) (*http.Response, error) {
	versions := map[string][]string{}
	for _, gv := range t.groupVersions() {
		if gv.Group == "" {
			continue
		}
		if s, ok := t.c.(groupVersionServer); ok && !s.ServesGroupVersion(gv) {
			continue
		}
		if len(t.resources(gv)) > 0 {
			versions[gv.Group] = append(versions[gv.Group], gv.Version)
		}
	}
	list := metav1.APIGroupList{TypeMeta: metav1.TypeMeta{Kind: "APIGroupList", APIVersion: "v1"}, Groups: []metav1.APIGroup{}}
	for _, g := range slices.Sorted(maps.Keys(versions)) {
		vs := versions[g]
		sort.Strings(vs)
		group := metav1.APIGroup{Name: g}
		for _, v := range vs {
			group.Versions = append(group.Versions, metav1.GroupVersionForDiscovery{GroupVersion: g + "/" + v, Version: v})
		}
		group.PreferredVersion = group.Versions[0]
		list.Groups = append(list.Groups, group)
	}
	body, err := json.Marshal(list)
	if err != nil {
		return nil, fmt.Errorf("encode discovery of the API groups: %w", err)
	}
	return response(req, http.StatusOK, body), nil
}

// groupVersions are the group versions the client's scheme knows (not the
// internal ones) and those the established CustomResourceDefinitions serve.
func (t *readTransport) groupVersions() []schema.GroupVersion {
	seen := map[schema.GroupVersion]bool{}
	for gvk := range t.c.Scheme().AllKnownTypes() {
		if gvk.Version != "" && gvk.Version != runtime.APIVersionInternal {
			seen[gvk.GroupVersion()] = true
		}
	}
	if ck, ok := t.c.(customKinder); ok {
		for _, gv := range ck.CustomGroupVersions() {
			seen[gv] = true
		}
	}
	return slices.SortedFunc(maps.Keys(seen), func(a, b schema.GroupVersion) int {
		return strings.Compare(a.String(), b.String())
	})
}

// resources are the resources of gv that the client's mapper maps, by
// name: the kinds of its scheme and those the cluster's established
// CustomResourceDefinitions serve.
func (t *readTransport) resources(gv schema.GroupVersion) []metav1.APIResource {
	kinds := map[string]bool{}
	scheme := t.c.Scheme()
	for kind := range scheme.KnownTypes(gv) {
		if isMetaKind(kind) {
			continue
		}
		kinds[kind] = true
	}
	if ck, ok := t.c.(customKinder); ok {
		for _, kind := range ck.CustomKinds(gv) {
			kinds[kind] = true
		}
	}
	var out []metav1.APIResource
	for kind := range kinds {
		if strings.HasSuffix(kind, "List") || strings.HasSuffix(kind, "Options") {
			continue
		}
		m, err := t.c.RESTMapper().RESTMapping(gv.WithKind(kind).GroupKind(), gv.Version)
		if err != nil || m.GroupVersionKind.GroupVersion() != gv {
			continue
		}
		out = append(out, metav1.APIResource{Name: m.Resource.Resource, Kind: kind,
			Namespaced: m.Scope.Name() == meta.RESTScopeNameNamespace,
			Verbs:      metav1.Verbs{"create", "delete", "get", "list", "patch", "update", "watch"}})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// isMetaKind reports whether kind is one of the kinds every group version
// of a scheme knows, or one that client-go's scheme registers but
// kube-apiserver serves as no resource of its own (a subresource's body,
// a review, an internal record).
func isMetaKind(kind string) bool {
	switch kind {
	case "WatchEvent", "Status", "APIVersions", "APIGroupList", "APIGroup", "APIResourceList",
		"ConversionReview", "RangeAllocation", "SerializedReference", "Scale", "Eviction", "TokenRequest",
		"DeploymentRollback":
		return true
	}
	return false
}

// splitAPIPath splits /api/v1/REST... and /apis/GROUP/VERSION/REST... into
// the group version and the rest's segments.
func splitAPIPath(path string) (schema.GroupVersion, []string, bool) {
	segs := strings.Split(strings.Trim(path, "/"), "/")
	switch {
	case len(segs) >= 2 && segs[0] == "api":
		return schema.GroupVersion{Version: segs[1]}, segs[2:], true
	case len(segs) >= 3 && segs[0] == "apis":
		return schema.GroupVersion{Group: segs[1], Version: segs[2]}, segs[3:], true
	}
	return schema.GroupVersion{}, nil, false
}

// notFound is kube-apiserver's answer to a path it does not serve: a plain
// 404, which client-go reads as "the server could not find the requested
// resource".
func notFound(req *http.Request) *http.Response {
	r := response(req, http.StatusNotFound, []byte("404 page not found\n"))
	r.Header.Set("Content-Type", "text/plain; charset=utf-8")
	return r
}

// restClientGetter gives helm's actions the REST config of the target
// (lookupConfig), so that `lookup` in templates reads the cluster as with
// Landscaper's helm deployer. It has no discovery client (the actions get
// the capabilities from the releaser, see readAPIVersions) and a mapper
// that helm cannot reset (the kube client keeps its own).
type restClientGetter struct {
	config *rest.Config
	mapper meta.RESTMapper
}

// ToRESTConfig returns the target's REST config.
func (g restClientGetter) ToRESTConfig() (*rest.Config, error) { return rest.CopyConfig(g.config), nil }

// ToDiscoveryClient returns none: helm's actions only use it to refresh
// capabilities they were given.
func (g restClientGetter) ToDiscoveryClient() (discovery.CachedDiscoveryInterface, error) {
	return nil, nil
}

// ToRESTMapper returns the target client's mapper, without helm's Reset.
func (g restClientGetter) ToRESTMapper() (meta.RESTMapper, error) {
	return struct{ meta.RESTMapper }{g.mapper}, nil
}
