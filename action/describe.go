package action

import (
	"context"
	"errors"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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
	objs, err := r.all()
	if err != nil {
		return nil, err
	}
	obj, err := FindOne(objs, kind, name, a.Namespace)
	if err != nil {
		return nil, err
	}
	events, err := r.events()
	if err != nil {
		return nil, err
	}
	return &Description{Object: obj, Related: related(objs, obj),
		Events: eventsOf(events, obj.GetNamespace(), kind, name)}, nil
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
	switch o := obj.(type) {
	case *lsv1alpha1.Installation:
		out = append(out, idx.installationRefs(o)...)
	case *lsv1alpha1.DeployItem:
		if t := o.Spec.Target; t != nil {
			out = idx.add(out, "target", "Target", o.Namespace, t.Name)
		}
	case *lsv1alpha1.Target:
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

// add appends the object kind ns/name to out as role, when it exists.
func (idx *objectIndex) add(out []Relation, role, kind, ns, name string) []Relation {
	if o := idx.byName[strings.Join([]string{kind, ns, name}, "/")]; o != nil {
		return append(out, Relation{Role: role, Object: o})
	}
	return out
}

// installationRefs are the DataObjects and Targets inst imports and exports.
func (idx *objectIndex) installationRefs(inst *lsv1alpha1.Installation) []Relation {
	var out []Relation
	ctx, ns := dataflow.ContextOf(inst), inst.Namespace
	for _, d := range inst.Spec.Imports.Data {
		if d.DataRef != "" {
			out = idx.add(out, "import", "DataObject", ns, dataflow.ObjectName(ctx, d.DataRef))
		}
	}
	for _, t := range inst.Spec.Imports.Targets {
		if t.Target != "" {
			out = idx.add(out, "import", "Target", ns, dataflow.ObjectName(ctx, t.Target))
		}
	}
	for _, d := range inst.Spec.Exports.Data {
		out = idx.add(out, "export", "DataObject", ns, dataflow.ObjectName(ctx, d.DataRef))
	}
	for _, t := range inst.Spec.Exports.Targets {
		out = idx.add(out, "export", "Target", ns, dataflow.ObjectName(ctx, t.Target))
	}
	return out
}
