package dryrun

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/internal/ids"
	"github.com/lscli/lscli/landscape"
	"github.com/lscli/lscli/landscaper/blueprint"
	"github.com/lscli/lscli/landscaper/components"
	"github.com/lscli/lscli/landscaper/dataflow"
)

// walker renders installations depth first.
type walker struct {
	r *Render
	// blueprints parses each inline blueprint once; the walkers of forks
	// share it.
	blueprints *blueprint.Cache
	c          *fakecluster.Cluster
	ids        ids.Source
	res        *Result
	// root is the root installation being rendered, for RootError.
	root types.NamespacedName
}

// roots returns the root installations grouped by namespace, sorted.
func (w *walker) roots(ctx context.Context) ([][]*lsv1alpha1.Installation, error) {
	keys, err := landscape.Roots(ctx, w.c)
	if err != nil {
		return nil, err
	}
	var groups [][]*lsv1alpha1.Installation
	for i, key := range keys {
		inst := &lsv1alpha1.Installation{}
		if err := w.c.Get(ctx, key, inst); err != nil {
			return nil, err
		}
		if i == 0 || keys[i-1].Namespace != key.Namespace {
			groups = append(groups, nil)
		}
		groups[len(groups)-1] = append(groups[len(groups)-1], inst)
	}
	return groups, nil
}

// renderRoots renders the roots of each namespace.
func (w *walker) renderRoots(ctx context.Context, groups [][]*lsv1alpha1.Installation) {
	for g, insts := range groups {
		for _, inst := range insts {
			inst.Status.JobID = w.ids.JobID("Installation", inst.Namespace, inst.Name, string(inst.UID), inst.Status.JobID)
			if err := w.c.UpdateStatus(ctx, inst); err != nil {
				w.problem(fmt.Errorf("installation %s/%s: start job: %w", inst.Namespace, inst.Name, err))
			}
		}
		// Nothing reads the dry run's objects after the last namespace
		// when the caller does not want them.
		takeOver := !w.r.WithoutObjects || g < len(groups)-1
		if nodes, ok := w.renderApart(ctx, insts, takeOver); ok {
			w.res.Roots = append(w.res.Roots, nodes...)
			continue
		}
		w.res.Roots = append(w.res.Roots, w.renderInOrder(ctx, insts, "", fmt.Sprintf("root installations of namespace %s", insts[0].Namespace))...)
	}
}

// renderInOrder renders sibling installations, each after its predecessors.
// A sibling whose predecessor did not export is skipped. what names the
// siblings for messages.
func (w *walker) renderInOrder(ctx context.Context, insts []*lsv1alpha1.Installation, parentPath, what string) []*Installation {
	ordered, err := dataflow.Order(insts)
	if err != nil {
		w.problem(fmt.Errorf("%s: %w", what, err))
		ordered = insts
	}
	preds := dataflow.Predecessors(insts)
	display := map[string]string{}
	for _, inst := range insts {
		display[inst.Name] = displayName(inst)
	}
	incomplete := map[string]bool{}
	var out []*Installation
	for _, inst := range ordered {
		path := displayName(inst)
		if parentPath != "" {
			path = parentPath + "/" + path
		}
		var node *Installation
		if failed := failedOf(preds[inst.Name], incomplete, display); len(failed) > 0 {
			node = &Installation{Path: path, Object: inst,
				Skipped: fmt.Sprintf("it imports exports of %s, which did not render", strings.Join(failed, ", "))}
		} else {
			node = w.render(ctx, inst, path)
		}
		if node.Exports == nil {
			incomplete[inst.Name] = true
		}
		out = append(out, node)
	}
	return out
}

// failedOf returns the display names of the preds that are incomplete, sorted.
func failedOf(preds []string, incomplete map[string]bool, display map[string]string) []string {
	var out []string
	for _, p := range preds {
		if incomplete[p] {
			out = append(out, display[p])
		}
	}
	sort.Strings(out)
	return out
}

// displayName is the template name of a subinstallation, else the name.
func displayName(inst *lsv1alpha1.Installation) string {
	if n := inst.Annotations[lsv1alpha1.SubinstallationNameAnnotation]; n != "" {
		return n
	}
	return inst.Name
}

// render renders one installation and, recursively, its subinstallations.
func (w *walker) render(ctx context.Context, inst *lsv1alpha1.Installation, path string) *Installation {
	if dataflow.IsRoot(inst) {
		defer func(outer types.NamespacedName) { w.root = outer }(w.root)
		w.root = types.NamespacedName{Namespace: inst.Namespace, Name: inst.Name}
	}
	node := &Installation{Path: path, Object: inst}
	if err := dataflow.CheckContext(ctx, w.c, inst); err != nil {
		return w.stop(node, err)
	}
	bp, tree, err := dataflow.InstallationBlueprint(ctx, w.c, inst,
		dataflow.Sources{Blueprints: w.r.Blueprints, Components: w.r.Components, Cache: w.blueprints})
	if err != nil {
		return w.stop(node, err)
	}
	node.Blueprint = bp.Source
	if node.Imports, err = dataflow.ResolveImports(ctx, w.c, inst, bp, tree); err != nil {
		return w.stop(node, dataflow.Explained(err))
	}
	if err := dataflow.WriteImports(ctx, w.c, inst, node.Imports); err != nil {
		return w.stop(node, err)
	}
	tmpls, err := dataflow.RenderSubinstallations(ctx, w.c, inst, bp, node.Imports)
	if err != nil {
		return w.stop(node, err)
	}
	children, err := w.createChildren(ctx, inst, bp, tree, tmpls)
	if err != nil {
		return w.stop(node, err)
	}
	node.Subinstallations = w.renderInOrder(ctx, children, path, fmt.Sprintf("installation %s/%s: subinstallations", inst.Namespace, inst.Name))
	items, err := dataflow.RenderDeployItems(ctx, w.c, inst, bp, node.Imports)
	if err != nil {
		return w.stop(node, err)
	}
	if node.DeployItems, err = w.execute(ctx, inst, path, items); err != nil {
		return w.stop(node, err)
	}
	w.checkItems(ctx, inst, items)
	w.export(ctx, node, bp)
	return node
}

// export constructs and writes the exports of node, unless a
// subinstallation did not export.
func (w *walker) export(ctx context.Context, node *Installation, bp *blueprint.Blueprint) {
	for _, sub := range node.Subinstallations {
		if sub.Exports == nil {
			return
		}
	}
	exps, err := dataflow.ConstructExports(ctx, w.c, node.Object, bp, node.Imports)
	if err != nil {
		err = withExportsHint(err, node)
		var he *hintError
		if errors.As(err, &he) {
			node.Unchecked = err
			w.res.Warnings = append(w.res.Warnings, w.ofRoot(err))
			return
		}
		w.stop(node, err)
		return
	}
	if err := dataflow.WriteExports(ctx, w.c, node.Object, exps); err != nil {
		w.stop(node, err)
		return
	}
	node.Exports = exps
}

// stop records err as the problem that stopped node.
func (w *walker) stop(node *Installation, err error) *Installation {
	node.Err = err
	w.problem(err)
	return node
}

// problem records a problem.
func (w *walker) problem(err error) {
	w.res.Problems = append(w.res.Problems, w.ofRoot(err))
}

// createChildren creates the subinstallations of inst as the installation
// controller does, with inst's job ID, in template order.
func (w *walker) createChildren(ctx context.Context, inst *lsv1alpha1.Installation, bp *blueprint.Blueprint, tree *components.Tree, tmpls []*lsv1alpha1.InstallationTemplate) ([]*lsv1alpha1.Installation, error) {
	out := make([]*lsv1alpha1.Installation, 0, len(tmpls))
	for _, tmpl := range tmpls {
		spec, err := dataflow.SubinstallationSpec(inst, bp, tree, tmpl, w.r.Blueprints)
		if err != nil {
			return nil, err
		}
		child := dataflow.NewSubinstallation(inst, tmpl, spec)
		lsv1alpha1.SetDefaults_Installation(child)
		if err := w.c.Create(ctx, child); err != nil {
			return nil, fmt.Errorf("installation %s/%s: create subinstallation %q: %w", inst.Namespace, inst.Name, tmpl.Name, err)
		}
		child.Status.JobID = inst.Status.JobID
		if err := w.c.UpdateStatus(ctx, child); err != nil {
			return nil, err
		}
		if err := w.c.Get(ctx, types.NamespacedName{Namespace: child.Namespace, Name: child.Name}, child); err != nil {
			return nil, err
		}
		out = append(out, child)
	}
	return out, nil
}

// ofRoot says which root err was found under, when a root is being
// rendered.
func (w *walker) ofRoot(err error) error {
	if w.root.Name == "" {
		return err
	}
	return &RootError{Root: w.root, Err: err}
}

// RootError is a problem or warning found while rendering the root
// installation Root or one of its subinstallations, so that it can be
// told which file the root came from. Its text is Err's.
type RootError struct {
	Root types.NamespacedName
	Err  error
}

// Error returns Err's text: the root is for the caller to name.
func (e *RootError) Error() string { return e.Err.Error() }

// Unwrap returns Err.
func (e *RootError) Unwrap() error { return e.Err }
