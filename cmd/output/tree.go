package output

import (
	"cmp"
	"slices"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/fakecluster"
)

// NoInstallations is what Tree prints for a landscape without
// Installations, Executions and DeployItems.
const NoInstallations = "No installations.\n"

// TreeOptions change what Tree shows. The zero value is the default view.
type TreeOptions struct {
	// Wide adds, for every object, generation=<g> observedGeneration=<og>,
	// for DeployItems type=<spec.type> and target=<spec.target.name>, and
	// shows full job IDs instead of their first 8 characters.
	// Defaults to false.
	Wide bool
	// Explain, when set, returns lscli's own text of a node's lastError
	// message in its job, "" for none (a run's report passes
	// reconcile.Explanations.Lookup): the status has Landscaper's words,
	// lscli's name the object and often say what to do. A node with one has
	// a line `lscli: <text>` after its last error.
	Explain func(kind string, key types.NamespacedName, jobID, message string) string
}

// Tree draws the Installations, Executions and DeployItems among objs as
// trees, the way `landscaper-cli installations inspect` does. Other kinds
// are ignored. It is a pure function: no IO, no clock, no terminal width.
//
// Roots are Installations without an owner reference to an Installation,
// sorted by namespace and name. Under a node come its subinstallations
// (Installations it is the owner of, by owner reference UID, or that carry
// the label landscaper.gardener.cloud/encompassed-by: <its name> in its
// namespace), sorted by name, then its Execution (owned by it, or named by
// its status.executionRef). Under an Execution come its DeployItems (owned by
// it, or labelled execution.landscaper.gardener.cloud/managed-by: <its name>
// in its namespace), sorted by name. Objects whose parent is not among objs
// (an Execution or DeployItem without a known owner, a subinstallation whose
// parent is gone) follow as extra roots, sorted by kind, namespace and name.
// Roots are separated by a blank line.
//
// A node reads `<Kind> <namespace>/<name>  <phase>  job <jobID[:8]>` plus
// markers: "(running)" when the object has not finished its job
// (jobID != jobIDFinished), "(outdated)" when its jobID differs from its
// root's, "(deleting)" when it has a deletionTimestamp. A node with a
// status.lastError has a second line `Last error: <message>`, and, with
// opts.Explain, a third one with lscli's text of it.
//
// Tree returns NoInstallations when there is nothing to draw. The result
// ends with a newline and no line has trailing spaces.
func Tree(objs []fakecluster.Object, st Styles, opts TreeOptions) string {
	f := newForest(objs)
	if len(f.nodes) == 0 {
		return NoInstallations
	}
	d := drawer{st: st, opts: opts}
	var b strings.Builder
	// The roots' subtrees are apart (every node has one parent).
	roots := f.roots()
	b.WriteString(DrawTrees(len(roots), func(i int) *TreeNode { return d.build(roots[i], rootJobIDOf(roots[i])) }))
	// Objects owning each other in a cycle are no root's descendants;
	// drawing one of them draws the others, so these go one by one.
	for _, n := range f.unvisited() {
		if n.drawn {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		DrawTree(&b, d.build(n, rootJobIDOf(n)))
	}
	b.WriteByte('\n')
	return b.String()
}

// node is one object of the tree and its children, in display order.
type node struct {
	obj      fakecluster.Object
	kind     string
	children []*node
	// rank, namespace and name are the sort key, cached.
	rank            int
	namespace, name string
	// parent is nil for roots. orphan marks an object whose owner is not
	// among the objects (or which sits in an ownership cycle).
	parent *node
	orphan bool
	// drawn is set when the node is drawn, by the one drawer of its tree.
	drawn bool
}

// forest indexes the objects once, by UID and by namespace/name, so that
// linking every object to its parent costs O(n log n) for the whole forest.
type forest struct {
	nodes []*node
	// installations and executions by UID and by namespace/name.
	instByUID, execByUID map[types.UID]*node
	instByKey, execByKey map[types.NamespacedName]*node
	// instByExecRef finds the Installation whose status.executionRef names
	// an Execution.
	instByExecRef map[types.NamespacedName]*node
}

func newForest(objs []fakecluster.Object) *forest {
	f := &forest{
		instByUID:     map[types.UID]*node{},
		execByUID:     map[types.UID]*node{},
		instByKey:     map[types.NamespacedName]*node{},
		execByKey:     map[types.NamespacedName]*node{},
		instByExecRef: map[types.NamespacedName]*node{},
	}
	for _, o := range objs {
		f.add(o)
	}
	for _, n := range f.nodes {
		f.link(n)
	}
	for _, n := range f.nodes {
		slices.SortFunc(n.children, compareNodes)
	}
	return f
}

func (f *forest) add(o fakecluster.Object) {
	n := &node{obj: o, kind: kindOf(o), namespace: o.GetNamespace(), name: o.GetName()}
	n.rank = kindOrder[n.kind]
	key := types.NamespacedName{Namespace: n.namespace, Name: n.name}
	switch o := o.(type) {
	case *lsv1alpha1.Installation:
		f.instByUID[o.UID], f.instByKey[key] = n, n
		if ref := o.Status.ExecutionReference; ref != nil {
			f.instByExecRef[types.NamespacedName{Namespace: cmp.Or(ref.Namespace, o.Namespace), Name: ref.Name}] = n
		}
	case *lsv1alpha1.Execution:
		f.execByUID[o.UID], f.execByKey[key] = n, n
	case *lsv1alpha1.DeployItem:
	default:
		return
	}
	f.nodes = append(f.nodes, n)
}

// link attaches n to its parent, or marks it as an orphan.
func (f *forest) link(n *node) {
	o := n.obj
	var parent *node
	var wantsParent bool
	switch n.kind {
	case kindInstallation:
		parent, wantsParent = ownerNode(o, kindInstallation, f.instByUID)
		if parent == nil {
			parent = f.labelled(o, lsv1alpha1.EncompassedByLabel, f.instByKey)
		}
	case kindExecution:
		parent, _ = ownerNode(o, kindInstallation, f.instByUID)
		if parent == nil {
			parent = f.instByExecRef[types.NamespacedName{Namespace: o.GetNamespace(), Name: o.GetName()}]
		}
		wantsParent = true
	case kindDeployItem:
		parent, _ = ownerNode(o, kindExecution, f.execByUID)
		if parent == nil {
			parent = f.labelled(o, lsv1alpha1.ExecutionManagedByLabel, f.execByKey)
		}
		wantsParent = true
	}
	if parent == nil || parent == n {
		n.orphan = wantsParent
		return
	}
	n.parent = parent
	parent.children = append(parent.children, n)
}

// labelled finds the object that o's label names in o's namespace.
func (f *forest) labelled(o fakecluster.Object, label string, byKey map[types.NamespacedName]*node) *node {
	name, ok := o.GetLabels()[label]
	if !ok {
		return nil
	}
	return byKey[types.NamespacedName{Namespace: o.GetNamespace(), Name: name}]
}

// ownerNode finds o's owner of the given kind among byUID, preferring the
// controller reference. hasRef reports whether o has any owner reference
// of that kind, known or not.
func ownerNode(o metav1.Object, kind string, byUID map[types.UID]*node) (owner *node, hasRef bool) {
	for _, ref := range o.GetOwnerReferences() {
		if ref.Kind != kind {
			continue
		}
		hasRef = true
		if n := byUID[ref.UID]; n != nil && (owner == nil || ref.Controller != nil && *ref.Controller) {
			owner = n
		}
	}
	return owner, hasRef
}

// roots returns the nodes to draw as roots, in order: the real roots, then
// the orphans.
func (f *forest) roots() []*node {
	var roots, orphans []*node
	for _, n := range f.nodes {
		switch {
		case n.parent == nil && !n.orphan:
			roots = append(roots, n)
		case n.parent == nil:
			orphans = append(orphans, n)
		}
	}
	slices.SortFunc(roots, compareNodes)
	slices.SortFunc(orphans, compareNodes)
	return append(roots, orphans...)
}

// unvisited returns the nodes not drawn yet, sorted.
func (f *forest) unvisited() []*node {
	var rest []*node
	for _, n := range f.nodes {
		if !n.drawn {
			rest = append(rest, n)
		}
	}
	slices.SortFunc(rest, compareNodes)
	return rest
}

// compareNodes orders by kind (Installations first), namespace and name.
// All nodes are of the three known kinds, so rank orders kinds.
func compareNodes(a, b *node) int {
	return cmp.Or(
		cmp.Compare(a.rank, b.rank),
		cmp.Compare(a.namespace, b.namespace),
		cmp.Compare(a.name, b.name),
	)
}

// drawer turns nodes into trees to draw. It draws each node once.
type drawer struct {
	st   Styles
	opts TreeOptions
}

// rootJobIDOf is the job ID a tree's nodes are compared with.
func rootJobIDOf(n *node) string {
	s, _ := statusOf(n.obj)
	return s.jobID
}

// build makes the tree of n and its descendants not drawn yet, and marks
// them drawn.
func (d *drawer) build(n *node, rootJobID string) *TreeNode {
	n.drawn = true
	t := &TreeNode{Label: d.label(n, rootJobID)}
	for _, c := range n.children {
		if !c.drawn {
			t.Add(d.build(c, rootJobID))
		}
	}
	return t
}
