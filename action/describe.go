package action

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/landscaper/dataflow"
	"github.com/lscli/lscli/state"
)

// Describe reads one object with what relates to it and its events, and
// runs nothing: `lscli describe KIND NAME`.
type Describe struct {
	cfg *Configuration
	// Namespace narrows the lookup; empty finds the name in any namespace.
	Namespace string
}

// NewDescribe returns the describe action over cfg.
func NewDescribe(cfg *Configuration) *Describe { return &Describe{cfg: cfg} }

// Description is an object, the objects related to it and its events.
type Description struct {
	// Object is the object described.
	Object fakecluster.Object
	// Related are the objects related to it, in the order of Relations.
	Related []Relation
	// Events are the object's events, oldest first.
	Events []state.Event
}

// Relation is one object related to the object described.
type Relation struct {
	// Role says how it relates: "owner", "subinstallation", "execution",
	// "deploy item", "target", "import", "export", "used by", "owns".
	Role   string
	Object fakecluster.Object
}

// Run describes the object of kind (a kind, plural or short name) named
// name. An unknown kind or name is invalid input, and so is any name where
// there is no simulation yet.
func (a *Describe) Run(_ context.Context, kind, name string) (*Description, error) {
	kind, err := ResolveKind(kind)
	if err != nil {
		return nil, err
	}
	r, err := openReading(a.cfg, true)
	if errors.Is(err, state.ErrNoState) {
		return nil, notFoundWithoutState(a.cfg, kind, name)
	}
	if err != nil {
		return nil, err
	}
	defer r.close()
	named, err := r.objects(func(k, ns, n string) bool {
		return k == kind && n == name && (a.Namespace == "" || ns == a.Namespace)
	})
	if err != nil {
		return nil, err
	}
	obj, err := FindOne(named, kind, name, a.Namespace)
	if err != nil {
		return nil, err
	}
	events, err := r.events()
	if err != nil {
		return nil, err
	}
	return r.describe(obj, kind, events)
}

// describe is the description of obj, of kind, with its events among
// events.
func (r *reading) describe(obj fakecluster.Object, kind string, events []state.Event) (*Description, error) {
	objs, err := r.related(obj)
	if err != nil {
		return nil, err
	}
	return &Description{Object: obj, Related: related(objs, obj),
		Events: eventsOf(events, obj.GetNamespace(), kind, obj.GetName())}, nil
}

// RunAll describes every object of kind (in list order, by namespace and
// name) that selector selects (nil: every one), as kubectl describe KIND
// does. No such object is an empty answer; no simulation yet a
// *NoStateError.
func (a *Describe) RunAll(_ context.Context, kind string, selector labels.Selector) ([]*Description, error) {
	kind, err := ResolveKind(kind)
	if err != nil {
		return nil, err
	}
	r, err := openReading(a.cfg, true)
	if err != nil {
		return nil, err
	}
	defer r.close()
	objs, err := r.objects(func(k, ns, _ string) bool {
		return k == kind && (a.Namespace == "" || ns == a.Namespace)
	})
	if err != nil {
		return nil, err
	}
	events, err := r.events()
	if err != nil {
		return nil, err
	}
	var out []*Description
	for _, obj := range objs {
		if selector != nil && !selector.Matches(labels.Set(obj.GetLabels())) {
			continue
		}
		d, err := r.describe(obj, kind, events)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

// related returns the objects related to obj: its owner, the objects it
// refers to, and those that own or refer to it.
func related(objs []fakecluster.Object, obj fakecluster.Object) []Relation {
	idx := newObjectIndex(objs)
	var out []Relation
	if ref := metav1.GetControllerOf(obj); ref != nil {
		if owner := idx.byUID[ref.UID]; owner != nil {
			out = append(out, Relation{Role: "owner", Object: owner})
		}
	}
	for _, ref := range namedRefs(obj) {
		if o := idx.byName[strings.Join([]string{ref.kind, ref.namespace, ref.name}, "/")]; o != nil {
			out = append(out, Relation{Role: ref.role, Object: o})
		}
	}
	if o, ok := obj.(*lsv1alpha1.Target); ok {
		for _, di := range idx.byKind["DeployItem"] {
			if t := di.(*lsv1alpha1.DeployItem).Spec.Target; t != nil && di.GetNamespace() == o.Namespace && t.Name == o.Name {
				out = append(out, Relation{Role: "used by", Object: di})
			}
		}
	}
	for _, child := range idx.byOwner[obj.GetUID()] {
		out = append(out, Relation{Role: childRole(child), Object: child})
	}
	return out
}

// childRole names an object owned by the object described.
func childRole(child fakecluster.Object) string {
	switch child.GetObjectKind().GroupVersionKind().Kind {
	case "Installation":
		return "subinstallation"
	case "Execution":
		return "execution"
	case "DeployItem":
		return "deploy item"
	}
	return "owns"
}

// objectIndex finds objects by UID, owner, kind and name.
type objectIndex struct {
	byUID   map[types.UID]fakecluster.Object
	byOwner map[types.UID][]fakecluster.Object
	byKind  map[string][]fakecluster.Object
	byName  map[string]fakecluster.Object
}

func newObjectIndex(objs []fakecluster.Object) *objectIndex {
	idx := &objectIndex{byUID: map[types.UID]fakecluster.Object{}, byOwner: map[types.UID][]fakecluster.Object{},
		byKind: map[string][]fakecluster.Object{}, byName: map[string]fakecluster.Object{}}
	for _, o := range objs {
		kind := o.GetObjectKind().GroupVersionKind().Kind
		idx.byUID[o.GetUID()] = o
		idx.byKind[kind] = append(idx.byKind[kind], o)
		idx.byName[strings.Join([]string{kind, o.GetNamespace(), o.GetName()}, "/")] = o
		if ref := metav1.GetControllerOf(o); ref != nil {
			idx.byOwner[ref.UID] = append(idx.byOwner[ref.UID], o)
		}
	}
	return idx
}

// namedRef is an object that another refers to by kind, namespace and name.
type namedRef struct {
	role, kind, namespace, name string
}

// namedRefs are the objects obj refers to by name: the DataObjects,
// Targets, ConfigMaps and Secrets an installation imports and what it
// exports, a deploy item's Target.
func namedRefs(obj fakecluster.Object) []namedRef {
	switch o := obj.(type) {
	case *lsv1alpha1.Installation:
		return dataRefsOf(o)
	case *lsv1alpha1.DeployItem:
		if t := o.Spec.Target; t != nil {
			return []namedRef{{"target", "Target", o.Namespace, t.Name}}
		}
	}
	return nil
}

// dataRefsOf are the DataObjects, Targets (also of target lists and
// maps), ConfigMaps and Secrets inst imports, and what it exports.
func dataRefsOf(inst *lsv1alpha1.Installation) []namedRef {
	var out []namedRef
	ctx, ns := dataflow.ContextOf(inst), inst.Namespace
	for _, d := range inst.Spec.Imports.Data {
		switch {
		case d.DataRef != "":
			out = append(out, namedRef{"import", "DataObject", ns, dataflow.ObjectName(ctx, d.DataRef)})
		case d.ConfigMapRef != nil:
			out = append(out, namedRef{"import", "ConfigMap", ns, d.ConfigMapRef.Name})
		case d.SecretRef != nil:
			out = append(out, namedRef{"import", "Secret", ns, d.SecretRef.Name})
		}
	}
	for _, t := range inst.Spec.Imports.Targets {
		if t.Target != "" {
			out = append(out, namedRef{"import", "Target", ns, dataflow.ObjectName(ctx, t.Target)})
		}
		for _, name := range t.Targets {
			out = append(out, namedRef{"import", "Target", ns, dataflow.ObjectName(ctx, name)})
		}
		for _, key := range slices.Sorted(maps.Keys(t.TargetMap)) {
			out = append(out, namedRef{"import", "Target", ns, dataflow.ObjectName(ctx, t.TargetMap[key])})
		}
	}
	for _, d := range inst.Spec.Exports.Data {
		out = append(out, namedRef{"export", "DataObject", ns, dataflow.ObjectName(ctx, d.DataRef)})
	}
	for _, t := range inst.Spec.Exports.Targets {
		out = append(out, namedRef{"export", "Target", ns, dataflow.ObjectName(ctx, t.Target)})
	}
	// An object imported several times (one ConfigMap, a key per import)
	// is shown once.
	seen := map[namedRef]bool{}
	return slices.DeleteFunc(out, func(r namedRef) bool {
		dup := seen[r]
		seen[r] = true
		return dup
	})
}

// mayRelate reports whether the stored object kind ns/name with uid and
// owners may be among the objects related returns for obj (or is obj): its
// owner, an object it refers to by name, one it owns, or, for a Target, a
// deploy item of its namespace.
func mayRelate(obj fakecluster.Object, refs []namedRef, kind, ns, name string, uid types.UID, owners []types.UID) bool {
	if ref := metav1.GetControllerOf(obj); (ref != nil && ref.UID == uid) || uid == obj.GetUID() || slices.Contains(owners, obj.GetUID()) {
		return true
	}
	if _, isTarget := obj.(*lsv1alpha1.Target); isTarget && kind == "DeployItem" && ns == obj.GetNamespace() {
		return true
	}
	return slices.ContainsFunc(refs, func(r namedRef) bool { return r.kind == kind && r.namespace == ns && r.name == name })
}
