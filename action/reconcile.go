package action

import (
	"context"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	lshelper "github.com/gardener/landscaper/apis/core/v1alpha1/helper"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/landscape"
	"github.com/lscli/lscli/landscaper/dataflow"
)

// Reconcile applies a landscape to the simulation and runs it to its end:
// `lscli reconcile`.
type Reconcile struct {
	cfg *Configuration
	// Paths are the files and folders to apply (folders recursively). None
	// means: apply nothing, run what the state has.
	Paths []string
	// Namespace is the namespace of objects without one. Empty means "default".
	Namespace string
	// All starts a new job at every root installation, not only at those that
	// were created or changed.
	All bool
	// RunOptions bound the run.
	RunOptions RunOptions
}

// NewReconcile returns the reconcile action over cfg.
func NewReconcile(cfg *Configuration) *Reconcile { return &Reconcile{cfg: cfg} }

// ReconcileResult is what reconcile did.
type ReconcileResult struct {
	*Run
	// Loaded is the landscape that was applied; nil when no paths were given.
	Loaded *landscape.Landscape
	// Applied says what happened to each object of the landscape.
	Applied landscape.ApplyResult
	// NewJobs is how many roots got the reconcile annotation.
	NewJobs int
}

// Run loads the files before touching the state, so invalid input (exit 2)
// changes nothing; then it applies them, annotates the roots, runs and saves.
func (r *Reconcile) Run(ctx context.Context) (*ReconcileResult, error) {
	var ls *landscape.Landscape
	if len(r.Paths) > 0 {
		var err error
		loader := &landscape.Loader{DefaultNamespace: r.Namespace}
		if ls, err = loader.Load(r.Paths...); err != nil {
			return nil, Invalid(err)
		}
	}
	ss, err := openSession(r.cfg)
	if err != nil {
		return nil, err
	}
	defer ss.close()
	roots, applied, err := applyLandscape(ctx, ss.cluster(), ls, r.All)
	if err != nil {
		return nil, err
	}
	res := &ReconcileResult{Loaded: ls, Applied: applied, NewJobs: len(applied.ChangedRoots)}
	if r.All {
		res.NewJobs = len(roots)
	}
	if res.Run, err = runAndSave(ctx, ss, roots, r.RunOptions); err != nil {
		return nil, err
	}
	return res, nil
}

// applyLandscape applies ls (which may be nil), puts the reconcile annotation
// on the changed roots (all roots with all) and returns the roots to report on:
// those annotated, or, when none were, every root of ls (every root in the
// state when no files were given).
func applyLandscape(ctx context.Context, c *fakecluster.Cluster, ls *landscape.Landscape, all bool) ([]types.NamespacedName, landscape.ApplyResult, error) {
	var objs []fakecluster.Object
	var namespaces []string
	if ls != nil {
		for _, d := range ls.Objects {
			objs = append(objs, d.Object)
		}
		namespaces = ls.Namespaces()
	}
	if err := landscape.EnsureDefaultContexts(ctx, c, namespaces); err != nil {
		return nil, landscape.ApplyResult{}, err
	}
	applied, err := landscape.Apply(ctx, c, objs)
	if err != nil {
		return nil, applied, err
	}
	roots := applied.ChangedRoots
	if all {
		if roots, err = landscape.Roots(ctx, c); err != nil {
			return nil, applied, err
		}
	}
	for _, key := range roots {
		if !all && reconcilesIfChanged(ctx, c, key) {
			continue // its controller adds the annotation itself
		}
		if err := SetOperation(ctx, c, &lsv1alpha1.Installation{}, key, lsv1alpha1.ReconcileOperation); err != nil {
			return nil, applied, fmt.Errorf("annotate %s: %w", key, err)
		}
	}
	switch {
	case len(roots) > 0:
		return roots, applied, nil
	case ls == nil:
		roots, err = landscape.Roots(ctx, c)
		return roots, applied, err
	}
	return rootsOf(objs), applied, nil
}

// reconcilesIfChanged reports whether the root key has the
// reconcile-if-changed annotation ("true"): Landscaper's controller then
// starts a job on a spec change by itself, so lscli does not annotate it.
func reconcilesIfChanged(ctx context.Context, c *fakecluster.Cluster, key types.NamespacedName) bool {
	inst := &lsv1alpha1.Installation{}
	return c.Get(ctx, key, inst) == nil && lshelper.HasReconcileIfChangedAnnotation(inst.ObjectMeta)
}

// rootsOf returns the root installations among objs.
func rootsOf(objs []fakecluster.Object) []types.NamespacedName {
	var out []types.NamespacedName
	for _, o := range objs {
		if inst, ok := o.(*lsv1alpha1.Installation); ok && dataflow.IsRoot(inst) {
			out = append(out, types.NamespacedName{Namespace: inst.Namespace, Name: inst.Name})
		}
	}
	return out
}
