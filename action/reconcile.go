package action

import (
	"context"
	"fmt"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	lshelper "github.com/gardener/landscaper/apis/core/v1alpha1/helper"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/engine/standalone"
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
	// NewStandaloneJobs is how many stand-alone Executions and DeployItems
	// got it.
	NewStandaloneJobs int
	// ChangedImports are the objects of the files that changed and that a
	// root installation of the files imports (DataObjects, Targets,
	// Secrets, ConfigMaps), and Importers those installations, when they
	// got no new job: as in Landscaper, a changed import starts none.
	// Empty with All.
	ChangedImports []landscape.ObjectRef
	Importers      []types.NamespacedName
	// PendingJobs and PendingStandaloneJobs are how many unchanged roots
	// and stand-alone objects of the files still carry a reconcile
	// annotation of an earlier command (their job was running): each starts
	// a new job when its running job has finished.
	PendingJobs, PendingStandaloneJobs int
}

// Run loads the files before touching the state, so invalid input (exit 2)
// changes nothing; then it applies them, annotates the roots, runs and saves.
func (r *Reconcile) Run(ctx context.Context) (*ReconcileResult, error) {
	var ls *landscape.Landscape
	if len(r.Paths) > 0 {
		var err error
		loader := &landscape.Loader{DefaultNamespace: r.Namespace, Policy: r.cfg.reads(), MaxYAMLNodes: r.cfg.Limits.YAMLNodes, Stdin: r.cfg.Stdin,
			Skip: r.cfg.Deployers.SeedFiles}
		if ls, err = loader.Load(r.Paths...); err != nil {
			return nil, Invalid(err)
		}
		if err := checkTemplatesOnly(ls, r.Paths); err != nil {
			return nil, err
		}
	}
	ss, err := openSession(r.cfg, createState, r.Paths...)
	if err != nil {
		return nil, err
	}
	defer ss.close()
	roots, applied, err := applyLandscape(ctx, ss.cluster(), ls, r.All, ss.applied)
	if err != nil {
		return nil, err
	}
	res := &ReconcileResult{Loaded: ls, Applied: applied}
	if !r.All && ls != nil {
		insts, err := importerCandidates(ctx, ss.cluster(), ls, applied) // hints_importers.go
		if err != nil {
			return nil, err
		}
		res.ChangedImports, res.Importers = staleImporters(insts, applied)
	}
	if !r.All {
		res.NewJobs, res.NewStandaloneJobs = newJobs(ctx, ss.cluster(), applied)
		res.PendingJobs, res.PendingStandaloneJobs = pendingJobs(ctx, ss.cluster(), applied)
	} else {
		// Stand-alone objects that kept another operation
		// (annotateReconcile) may start none.
		res.NewJobs, res.NewStandaloneJobs = withJobOperation(ctx, ss.cluster(), roots, nil)
	}
	if res.Run, err = runAndSave(ctx, ss, roots, r.RunOptions); err != nil {
		return nil, err
	}
	return res, nil
}

// applyLandscape applies ls (which may be nil) with last, the record of the
// last applies (see landscape.Apply), puts the reconcile annotation
// on the changed roots and stand-alone Executions and DeployItems (all of
// them with all) and returns the objects to report on: those annotated, or,
// when none were, every root and stand-alone object of ls (of the state when
// no files were given).
func applyLandscape(ctx context.Context, c *fakecluster.Cluster, ls *landscape.Landscape, all bool, last landscape.LastApplied) ([]landscape.ObjectRef, landscape.ApplyResult, error) {
	var objs []fakecluster.Object
	var namespaces []string
	if ls != nil {
		for _, d := range ls.Objects {
			objs = append(objs, d.Object)
		}
		namespaces = ls.Namespaces()
	}
	if err := landscape.CheckUpdates(ctx, c, ls); err != nil {
		return nil, landscape.ApplyResult{}, Invalid(err)
	}
	if err := landscape.EnsureDefaultContexts(ctx, c, namespaces); err != nil {
		return nil, landscape.ApplyResult{}, err
	}
	applied, err := landscape.Apply(ctx, c, objs, last)
	if err != nil {
		return nil, applied, err
	}
	refs := append(installationRefs(applied.ChangedRoots), applied.ChangedStandalone...)
	if all {
		if refs, err = everyRoot(ctx, c); err != nil {
			return nil, applied, err
		}
	}
	for _, ref := range refs {
		if !all && reconcilesIfChanged(ctx, c, ref) {
			continue // its controller adds the annotation itself
		}
		if err := annotateReconcile(ctx, c, ref); err != nil {
			return nil, applied, err
		}
	}
	if !all {
		// Which objects are roots or stand-alone, all operatedRoots asks
		// of them, is the same after the annotations above.
		refs = appendNewRefs(refs, operatedRoots(ctx, c, applied)...)
	}
	switch {
	case len(refs) > 0:
		return refs, applied, nil
	case ls == nil:
		refs, err = everyRoot(ctx, c)
		return refs, applied, err
	}
	return rootsOf(c, objs), applied, nil
}

// operatedRoots returns the root installations and stand-alone objects on
// which applied put back an operation annotation (see
// landscape.ApplyResult.Operated): their controllers act on it.
func operatedRoots(ctx context.Context, c *fakecluster.Cluster, applied landscape.ApplyResult) []landscape.ObjectRef {
	var out []landscape.ObjectRef
	for _, ref := range applied.Operated {
		if _, ok := liveOperation(ctx, c, ref); ok {
			out = append(out, ref)
		}
	}
	return out
}

// liveOperation returns the operation annotation of the object ref names
// when it is a root installation or a stand-alone Execution or DeployItem;
// ok is false for any other object.
func liveOperation(ctx context.Context, c *fakecluster.Cluster, ref landscape.ObjectRef) (op string, ok bool) {
	obj, err := newObject(c, ref.Kind)
	if err != nil {
		return "", false
	}
	if c.GetUnsafe(ctx, types.NamespacedName{Namespace: ref.Namespace, Name: ref.Name}, obj) != nil {
		return "", false
	}
	inst, isInst := obj.(*lsv1alpha1.Installation)
	if !(isInst && dataflow.IsRoot(inst)) && !landscape.IsStandalone(ref.Kind, obj) {
		return "", false
	}
	return obj.GetAnnotations()[lsv1alpha1.OperationAnnotation], true
}

// newJobs counts the root installations and the stand-alone objects that
// applied gives a new job: those created or whose spec changed, and those on
// which the file put back an operation that starts one (reconcile, and
// test-reconcile on a DeployItem: the deployer library's).
//
// A changed object counts when its live operation starts a job (a
// stand-alone object keeps its file's interrupt, see annotateReconcile), or
// when it is a root with reconcile-if-changed, whose controller annotates it
// itself.
func newJobs(ctx context.Context, c *fakecluster.Cluster, applied landscape.ApplyResult) (roots, standalone int) {
	changed := append(installationRefs(applied.ChangedRoots), applied.ChangedStandalone...)
	skip := map[landscape.ObjectRef]bool{}
	for _, ref := range changed {
		if reconcilesIfChanged(ctx, c, ref) {
			skip[ref] = true
			roots++
		}
	}
	r, st := withJobOperation(ctx, c, appendNewRefs(changed, applied.Operated...), skip)
	return roots + r, standalone + st
}

// pendingJobs counts the unchanged roots and stand-alone objects of the
// files whose live object still has an operation that starts a job.
func pendingJobs(ctx context.Context, c *fakecluster.Cluster, applied landscape.ApplyResult) (roots, standalone int) {
	return withJobOperation(ctx, c, applied.Unchanged, nil)
}

// withJobOperation counts the root installations and the stand-alone
// objects of refs, but those in skip, whose live object has an operation
// that starts a job.
func withJobOperation(ctx context.Context, c *fakecluster.Cluster, refs []landscape.ObjectRef, skip map[landscape.ObjectRef]bool) (roots, standalone int) {
	for _, ref := range refs {
		op, ok := liveOperation(ctx, c, ref)
		switch {
		case !ok || skip[ref] || !startsJob(ref.Kind, op):
		case ref.Kind == "Installation":
			roots++
		default:
			standalone++
		}
	}
	return roots, standalone
}

// startsJob reports whether the operation annotation op on a root or
// stand-alone object of kind starts a job.
func startsJob(kind, op string) bool {
	return op == string(lsv1alpha1.ReconcileOperation) ||
		kind == "DeployItem" && op == string(lsv1alpha1.TestReconcileOperation)
}

// appendNewRefs appends to refs those of more it does not hold yet.
func appendNewRefs(refs []landscape.ObjectRef, more ...landscape.ObjectRef) []landscape.ObjectRef {
	seen := make(map[landscape.ObjectRef]bool, len(refs))
	for _, r := range refs {
		seen[r] = true
	}
	for _, r := range more {
		if !seen[r] {
			seen[r] = true
			refs = append(refs, r)
		}
	}
	return refs
}

// reconcilesIfChanged reports whether ref is a root installation with the
// reconcile-if-changed annotation ("true"): Landscaper's controller then
// starts a job on a spec change by itself, so lscli does not annotate it.
func reconcilesIfChanged(ctx context.Context, c *fakecluster.Cluster, ref landscape.ObjectRef) bool {
	inst := &lsv1alpha1.Installation{}
	return ref.Kind == "Installation" &&
		c.Get(ctx, types.NamespacedName{Namespace: ref.Namespace, Name: ref.Name}, inst) == nil &&
		lshelper.HasReconcileIfChangedAnnotation(inst.ObjectMeta)
}

// annotateReconcile puts the reconcile annotation on the object ref names.
// A stand-alone object that carries another operation (test-reconcile,
// interrupt) keeps it: that starts its job, or ends it.
func annotateReconcile(ctx context.Context, c *fakecluster.Cluster, ref landscape.ObjectRef) error {
	obj, err := newObject(c, ref.Kind)
	if err != nil {
		return err
	}
	key := types.NamespacedName{Namespace: ref.Namespace, Name: ref.Name}
	if ref.Kind != "Installation" {
		if err := c.Get(ctx, key, obj); err != nil {
			return err
		}
		if obj.GetAnnotations()[lsv1alpha1.OperationAnnotation] != "" {
			return nil
		}
	}
	if err := SetOperation(ctx, c, obj, key, lsv1alpha1.ReconcileOperation); err != nil {
		return fmt.Errorf("annotate %s: %w", ref, err)
	}
	return nil
}

// everyRoot returns every root installation and stand-alone object.
func everyRoot(ctx context.Context, c *fakecluster.Cluster) ([]landscape.ObjectRef, error) {
	roots, err := landscape.Roots(ctx, c)
	if err != nil {
		return nil, err
	}
	alone, err := standaloneObjects(ctx, c)
	return append(installationRefs(roots), alone...), err
}

// standaloneObjects returns every stand-alone Execution and DeployItem,
// Executions first, each sorted by namespace and name.
func standaloneObjects(ctx context.Context, c *fakecluster.Cluster) ([]landscape.ObjectRef, error) {
	opts := fakecluster.ListOptions{Field: &fakecluster.FieldMatch{Index: standalone.IndexName, Value: "true"}}
	execs := &lsv1alpha1.ExecutionList{}
	if err := c.List(ctx, execs, opts); err != nil {
		return nil, err
	}
	var out []landscape.ObjectRef
	for _, e := range execs.Items {
		out = append(out, landscape.ObjectRef{Kind: "Execution", Namespace: e.Namespace, Name: e.Name})
	}
	items := &lsv1alpha1.DeployItemList{}
	if err := c.List(ctx, items, opts); err != nil {
		return nil, err
	}
	for _, di := range items.Items {
		out = append(out, landscape.ObjectRef{Kind: "DeployItem", Namespace: di.Namespace, Name: di.Name})
	}
	return out, nil
}

// installationRefs names the installations keys.
func installationRefs(keys []types.NamespacedName) []landscape.ObjectRef {
	out := make([]landscape.ObjectRef, len(keys))
	for i, k := range keys {
		out[i] = landscape.ObjectRef{Kind: "Installation", Namespace: k.Namespace, Name: k.Name}
	}
	return out
}

// rootsOf returns the root installations and stand-alone objects among objs.
func rootsOf(c *fakecluster.Cluster, objs []fakecluster.Object) []landscape.ObjectRef {
	var out []landscape.ObjectRef
	for _, o := range objs {
		kind, _ := fakecluster.KindOf(c.Scheme(), o)
		inst, isInst := o.(*lsv1alpha1.Installation)
		if isInst && dataflow.IsRoot(inst) || landscape.IsStandalone(kind, o) {
			out = append(out, landscape.ObjectRef{Kind: kind, Namespace: o.GetNamespace(), Name: o.GetName()})
		}
	}
	return out
}

// staleImporters returns the objects that applied updated and that a
// root installation of insts imports by name, and those installations, leaving
// out the installations that got a new job anyway (a changed spec, or the
// reconcile annotation the file put back). Landscaper starts no job
// when an import changes (only the reconcile annotation or
// spec.automaticReconcile do), so the user is to be told.
func staleImporters(insts []*lsv1alpha1.Installation, applied landscape.ApplyResult) ([]landscape.ObjectRef, []types.NamespacedName) {
	if len(applied.Updated) == 0 {
		return nil, nil
	}
	updated := map[landscape.ObjectRef]bool{}
	for _, ref := range applied.Updated {
		updated[ref] = true
	}
	restarted := map[types.NamespacedName]bool{}
	for _, k := range applied.ChangedRoots {
		restarted[k] = true
	}
	operated := map[landscape.ObjectRef]bool{}
	for _, ref := range applied.Operated {
		operated[ref] = true
	}
	var changed []landscape.ObjectRef
	var importers []types.NamespacedName
	seen := map[landscape.ObjectRef]bool{}
	for _, inst := range insts {
		if !dataflow.IsRoot(inst) {
			continue
		}
		key := types.NamespacedName{Namespace: inst.Namespace, Name: inst.Name}
		ref := landscape.ObjectRef{Kind: "Installation", Namespace: inst.Namespace, Name: inst.Name}
		if restarted[key] || operated[ref] && startsJob(ref.Kind, inst.Annotations[lsv1alpha1.OperationAnnotation]) {
			continue // the file's reconcile annotation starts its job
		}
		var found bool
		for _, ref := range importRefs(inst) {
			if updated[ref] {
				found = true
				if !seen[ref] {
					seen[ref] = true
					changed = append(changed, ref)
				}
			}
		}
		if found {
			importers = append(importers, key)
		}
	}
	return changed, importers
}

// importRefs returns the objects a root installation imports by name: the
// DataObjects of dataRef, the Secrets and ConfigMaps of secretRef and
// configMapRef, the Targets of target and targets ("#name" or "name").
func importRefs(inst *lsv1alpha1.Installation) []landscape.ObjectRef {
	ns := inst.Namespace
	var out []landscape.ObjectRef
	for _, imp := range inst.Spec.Imports.Data {
		switch {
		case imp.DataRef != "":
			out = append(out, landscape.ObjectRef{Kind: "DataObject", Namespace: ns, Name: imp.DataRef})
		case imp.SecretRef != nil:
			out = append(out, landscape.ObjectRef{Kind: "Secret", Namespace: ns, Name: imp.SecretRef.Name})
		case imp.ConfigMapRef != nil:
			out = append(out, landscape.ObjectRef{Kind: "ConfigMap", Namespace: ns, Name: imp.ConfigMapRef.Name})
		}
	}
	for _, imp := range inst.Spec.Imports.Targets {
		for _, name := range append([]string{imp.Target}, imp.Targets...) {
			if name = strings.TrimPrefix(name, "#"); name != "" {
				out = append(out, landscape.ObjectRef{Kind: "Target", Namespace: ns, Name: name})
			}
		}
	}
	return out
}
