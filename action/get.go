package action

import (
	"context"
	"errors"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"

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
// target that reqs (ParseClusterArgs) ask for and the label selector
// selects, and the names asked for that the cluster does not have (see
// selectClusterObjects). A resource the cluster does not serve, and an
// unknown or ambiguous Target, are invalid input.
func (a *Get) RunTarget(ctx context.Context, target string, reqs []ClusterRequest) (objs []*unstructured.Unstructured, missing []string, err error) {
	ss, err := openExisting(a.cfg, readState)
	if err != nil {
		if errors.Is(err, state.ErrNoState) {
			return nil, nil, notFoundWithoutState(a.cfg, "Target", target)
		}
		return nil, nil, err
	}
	defer ss.close()
	t, err := findTarget(ss.cluster().Objects(), a.Namespace, target)
	if err != nil {
		return nil, nil, err
	}
	c, err := ss.clusters.ClusterFor(ctx, t)
	if err != nil {
		return nil, nil, err
	}
	if objs, err = c.Objects(ctx); err != nil {
		return nil, nil, err
	}
	objs, missing, err = selectClusterObjects(c.Client().RESTMapper(), objs, reqs)
	if err != nil {
		return nil, nil, Invalidf("%v (Target %s/%s)", err, t.Namespace, t.Name)
	}
	if objs, err = inRequestedVersions(ctx, c.Client(), objs, reqs); err != nil { // get_target_versions.go
		return nil, nil, err
	}
	if a.Selector == nil {
		return objs, missing, nil
	}
	out := objs[:0:0]
	for _, o := range objs {
		if a.Selector.Matches(labels.Set(o.GetLabels())) {
			out = append(out, o)
		}
	}
	return out, missing, nil
}
