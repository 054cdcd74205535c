package action

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/state"
)

// Get reads objects of the saved simulation and runs nothing: `lscli get`.
type Get struct {
	cfg *Configuration
	// Namespace narrows the objects; empty means every namespace.
	Namespace string
	// Selector narrows the objects by label (-l); nil means every object.
	Selector labels.Selector
	// Fields narrows the objects by field (--field-selector; see
	// CheckFieldSelector); nil means every object.
	Fields fields.Selector
}

// fieldLabels are the fields a cluster selects objects of a kind by:
// metadata.name and metadata.namespace for custom resources such as
// Landscaper's (their CRDs declare no selectable fields), and a Secret's
// type besides.
func fieldLabels(kind string) []string {
	if kind == "Secret" {
		return []string{"metadata.name", "metadata.namespace", "type"}
	}
	return []string{"metadata.name", "metadata.namespace"}
}

// fieldSet is the set of o's fields that fieldLabels names.
func fieldSet(o fakecluster.Object) fields.Set {
	set := fields.Set{"metadata.name": o.GetName(), "metadata.namespace": o.GetNamespace()}
	if s, ok := o.(*corev1.Secret); ok {
		set["type"] = string(s.Type)
	}
	return set
}

// CheckFieldSelector reports a field selector that names a field a cluster
// cannot select objects of kinds by (every kind, when kinds is empty), with
// the API server's words and the fields there are: invalid input.
func CheckFieldSelector(sel fields.Selector, kinds []string) error {
	if len(kinds) == 0 {
		kinds = kindList()
	}
	for _, r := range sel.Requirements() {
		for _, kind := range kinds {
			supported := fieldLabels(kind)
			if !slices.Contains(supported, r.Field) {
				return Invalidf("invalid --field-selector %q: field label not supported: %s (%ss can be selected by %s, as on a cluster)",
					sel.String(), r.Field, kind, andList(supported))
			}
		}
	}
	return nil
}

// andList joins words as "a, b and c".
func andList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// NewGet returns the get action over cfg.
func NewGet(cfg *Configuration) *Get { return &Get{cfg: cfg} }

// Run returns the objects that match args, [KIND [NAME]], and the selector.
// An unknown kind, or a name that matches nothing, is invalid input. Where
// there is no simulation yet, it returns a NoStateError (invalid input when
// a name was asked for).
func (a *Get) Run(_ context.Context, args []string) ([]fakecluster.Object, error) {
	if len(args) > 0 {
		if _, err := ResolveKind(args[0]); err != nil {
			return nil, err
		}
	}
	r, err := openReading(a.cfg, true)
	if err != nil {
		if errors.Is(err, state.ErrNoState) && len(args) == 2 {
			kind, _ := ResolveKind(args[0])
			return nil, notFoundWithoutState(a.cfg, kind, args[1])
		}
		return nil, err
	}
	defer r.close()
	stored, err := r.objects(a.matches(args))
	if err != nil {
		return nil, err
	}
	objs, err := selectObjects(stored, a.Namespace, args)
	if err != nil || a.Selector == nil && a.Fields == nil {
		return objs, err
	}
	out := objs[:0:0]
	for _, o := range objs {
		if (a.Selector == nil || a.Selector.Matches(labels.Set(o.GetLabels()))) &&
			(a.Fields == nil || a.Fields.Matches(fieldSet(o))) {
			out = append(out, o)
		}
	}
	return out, nil
}

// RunStored returns, for a state file that a View reads and a request of
// [KIND] without a selector, the stored JSON of the objects Run would
// return (see state.StoredObject), without decoding them. ok is false, and
// nothing else is returned, when the objects must be decoded: for KIND
// NAME, a selector, a file edited by hand or not in Save's layout, a kind
// the scheme does not know, or any error, which Run then reports.
func (a *Get) RunStored(_ context.Context, args []string) (objs []state.StoredObject, ok bool) {
	if len(args) > 1 || a.Selector != nil || a.Fields != nil {
		return nil, false
	}
	if len(args) == 1 {
		if _, err := ResolveKind(args[0]); err != nil {
			return nil, false
		}
	}
	r, err := openReading(a.cfg, true)
	if err != nil {
		return nil, false
	}
	defer r.close()
	if r.view == nil {
		return nil, false
	}
	matches := a.matches(args)
	return r.view.Stored(func(h state.ObjectHeader) bool { return matches(h.Kind, h.Namespace, h.Name) })
}

// matches returns whether an object of kind, namespace and name is one
// that args, [KIND [NAME]], and the namespace ask for; KIND must resolve.
func (a *Get) matches(args []string) func(kind, namespace, name string) bool {
	want := ""
	if len(args) > 0 {
		want, _ = ResolveKind(args[0])
	}
	return func(kind, namespace, name string) bool {
		return (a.Namespace == "" || namespace == a.Namespace) && (want == "" || kind == want) && (len(args) < 2 || name == args[1])
	}
}

// RunTarget returns the objects of the simulated cluster behind Target
// target that match args, [KIND [NAME]], and the label selector, where KIND is a kind in any case,
// singular or plural, or kubectl's short name for it, and NAME may be
// NAMESPACE/NAME, as lscli's messages name the objects deployers apply. An unknown or
// ambiguous Target is invalid input.
func (a *Get) RunTarget(ctx context.Context, target string, args []string) ([]*unstructured.Unstructured, error) {
	ss, err := openExisting(a.cfg, readState)
	if err != nil {
		if errors.Is(err, state.ErrNoState) {
			return nil, notFoundWithoutState(a.cfg, "Target", target)
		}
		return nil, err
	}
	defer ss.close()
	t, err := findTarget(ss.cluster().Objects(), a.Namespace, target)
	if err != nil {
		return nil, err
	}
	c, err := ss.clusters.ClusterFor(ctx, t)
	if err != nil {
		return nil, err
	}
	objs, err := c.Objects(ctx)
	if err != nil {
		return nil, err
	}
	if len(args) > 0 {
		if err := checkResourceTypes(c.Client().RESTMapper(), objs, args[0]); err != nil {
			return nil, Invalidf("%v (Target %s/%s)", err, t.Namespace, t.Name)
		}
	}
	objs = selectClusterObjects(objs, args)
	if a.Selector == nil {
		return objs, nil
	}
	out := objs[:0:0]
	for _, o := range objs {
		if a.Selector.Matches(labels.Set(o.GetLabels())) {
			out = append(out, o)
		}
	}
	return out, nil
}

// kindShortNames are kubectl's short names of the built-in kinds, so that
// `lscli get --target cluster cm` works as `kubectl get cm` does.
var kindShortNames = map[string]string{
	"cm": "configmap", "crd": "customresourcedefinition", "crds": "customresourcedefinition",
	"deploy": "deployment", "ds": "daemonset", "ep": "endpoints", "hpa": "horizontalpodautoscaler",
	"ing": "ingress", "netpol": "networkpolicy", "ns": "namespace", "pdb": "poddisruptionbudget",
	"po": "pod", "pv": "persistentvolume", "pvc": "persistentvolumeclaim", "rs": "replicaset",
	"sa": "serviceaccount", "sts": "statefulset", "svc": "service",
}

// kindQuery is a KIND[,KIND...] argument as kubectl reads it (singular,
// plural or short name, or RESOURCE.GROUP; for a custom resource also the
// names its CRD declares), against the objects of one cluster.
type kindQuery struct {
	wants []schema.GroupResource
	// short tells which of wants was a short name lscli knows.
	short []bool
	// crdNames are the names the CRDs among the objects declare
	// (customResourceNames).
	crdNames map[schema.GroupKind][]string
}

// newKindQuery reads kinds against objs.
func newKindQuery(objs []*unstructured.Unstructured, kinds string) kindQuery {
	q := kindQuery{crdNames: customResourceNames(objs)}
	for _, kind := range strings.Split(strings.ToLower(kinds), ",") {
		want := schema.ParseGroupResource(kind)
		long, short := kindShortNames[want.Resource]
		if short {
			want.Resource = long
		}
		q.wants = append(q.wants, want)
		q.short = append(q.short, short && want.Group == "")
	}
	return q
}

// names reports whether want names objects of kind gvk.
func (q kindQuery) names(want schema.GroupResource, gvk schema.GroupVersionKind) bool {
	return (want.Group == "" || want.Group == gvk.Group) && slices.Contains(resourceNames(gvk, q.crdNames[gvk.GroupKind()]), want.Resource)
}

// selectClusterObjects keeps the objects that match args: [KIND[,KIND...]
// [NAME]], the kinds as kindQuery reads them, and NAME with or without its
// NAMESPACE/.
func selectClusterObjects(objs []*unstructured.Unstructured, args []string) []*unstructured.Unstructured {
	if len(args) == 0 {
		return objs
	}
	q := newKindQuery(objs, args[0])
	var out []*unstructured.Unstructured
	for _, o := range objs {
		gvk := o.GroupVersionKind()
		named := slices.ContainsFunc(q.wants, func(w schema.GroupResource) bool { return q.names(w, gvk) })
		if named && (len(args) < 2 || o.GetName() == args[1] || o.GetNamespace()+"/"+o.GetName() == args[1]) {
			out = append(out, o)
		}
	}
	return out
}

// checkResourceTypes returns kubectl's error for a kind in kinds
// (KIND[,KIND...]) that the cluster does not serve: one that is no short
// name lscli knows, names no object in objs, no CRD's names in objs, and
// that mapper, the cluster's discovery, does not know either.
func checkResourceTypes(mapper meta.RESTMapper, objs []*unstructured.Unstructured, kinds string) error {
	q := newKindQuery(objs, kinds)
	for i, want := range q.wants {
		switch {
		case q.short[i]:
		case slices.ContainsFunc(objs, func(o *unstructured.Unstructured) bool { return q.names(want, o.GroupVersionKind()) }):
		case crdServes(q.crdNames, want):
		default:
			if _, err := mapper.KindFor(want.WithVersion("")); err != nil {
				return fmt.Errorf("the server doesn't have a resource type %q", want.Resource)
			}
		}
	}
	return nil
}

// crdServes reports whether a CRD in names (customResourceNames) declares
// the resource want, in its group when want names one.
func crdServes(names map[schema.GroupKind][]string, want schema.GroupResource) bool {
	for gk, ns := range names {
		if (want.Group == "" || want.Group == gk.Group) && slices.Contains(ns, want.Resource) {
			return true
		}
	}
	return false
}

// resourceNames are the lower-case names kubectl takes for objects of kind
// gvk: the kind, its plural as Kubernetes guesses it (networkpolicies) and
// the kind with s or es, and the names of its CRD, crd.
func resourceNames(gvk schema.GroupVersionKind, crd []string) []string {
	k := strings.ToLower(gvk.Kind)
	plural, _ := meta.UnsafeGuessKindToResource(gvk)
	return append([]string{k, k + "s", k + "es", plural.Resource}, crd...)
}

// customResourceNames maps the group and kind of each CustomResourceDefinition
// among objs to the names it declares for them (plural, singular and short
// names, lower case), as a cluster's discovery lists them for kubectl.
func customResourceNames(objs []*unstructured.Unstructured) map[schema.GroupKind][]string {
	out := map[schema.GroupKind][]string{}
	for _, o := range objs {
		if o.GetKind() != "CustomResourceDefinition" || o.GroupVersionKind().Group != "apiextensions.k8s.io" {
			continue
		}
		group, _, _ := unstructured.NestedString(o.Object, "spec", "group")
		kind, _, _ := unstructured.NestedString(o.Object, "spec", "names", "kind")
		plural, _, _ := unstructured.NestedString(o.Object, "spec", "names", "plural")
		singular, _, _ := unstructured.NestedString(o.Object, "spec", "names", "singular")
		short, _, _ := unstructured.NestedStringSlice(o.Object, "spec", "names", "shortNames")
		gk := schema.GroupKind{Group: group, Kind: kind}
		for _, n := range append([]string{plural, singular}, short...) {
			if n != "" {
				out[gk] = append(out[gk], strings.ToLower(n))
			}
		}
	}
	return out
}
