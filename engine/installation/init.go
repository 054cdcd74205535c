package installation

import (
	"context"
	"errors"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	lshelper "github.com/gardener/landscaper/apis/core/v1alpha1/helper"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/engine/flow"
	"github.com/lscli/lscli/internal/semantic"
	"github.com/lscli/lscli/landscaper/blueprint"
	"github.com/lscli/lscli/landscaper/components"
	"github.com/lscli/lscli/landscaper/dataflow"
	"github.com/lscli/lscli/reconcile"
)

// Operations and reasons of Landscaper's Init errors.
const (
	opInit        = "handlePhaseInit"
	opCreate      = "CreateImportsAndSubobjects"
	reasonImports = "ImportsSatisfied"
)

// init is the Init phase, as Landscaper's handlePhaseInit: delete what the
// installation exported in an earlier job, then check what Landscaper's
// init checks (see prerequisites), write the imports into the
// installation's own context, render and create or update the
// subinstallations (orphans are marked for deletion) and the Execution, and
// record the imports hash. It moves to CleanupOrphaned. The existing
// subinstallations are read through the cache of the job before (see
// initCache). Waiting for a
// predecessor is a normal error; every other error is fatal.
func (c *Controller) init(ctx context.Context, inst *lsv1alpha1.Installation) (lsv1alpha1.InstallationPhase, error) {
	cl := c.cfg.Cluster
	cache := c.initCache(inst)
	if err := dataflow.CleanupExports(ctx, cl, inst); err != nil {
		return "", reconcile.Fatal(reconcile.Wrap(err, opInit, "CleanupExports"))
	}
	bp, tree, imps, err := c.prerequisites(ctx, inst, false)
	if err != nil {
		return "", err
	}
	if err := c.createSubobjects(ctx, inst, cache, bp, tree, imps); err != nil {
		return "", reconcile.Fatal(reconcile.Wrap(err, opInit, opCreate))
	}
	inst.Status.ImportsHash = imps.Hash
	return lsv1alpha1.InstallationPhases.CleanupOrphaned, nil
}

// prerequisites is Landscaper's init, which Init and Completing run: read
// the Context (see dataflow.CheckContext), the blueprint, require finished (see checkPredecessors) and succeeded
// predecessors, and read the imports (a missing import object is fatal, see
// dataflow.ImportLoadError). With waitFatal (Completing), an unfinished
// predecessor is fatal too.
func (c *Controller) prerequisites(ctx context.Context, inst *lsv1alpha1.Installation, waitFatal bool) (*blueprint.Blueprint, *components.Tree, *dataflow.Imports, error) {
	if err := dataflow.CheckContext(ctx, c.cfg.Cluster, inst); err != nil {
		reason := "CalculateContext"
		if dataflow.IsRegistriesError(err) {
			reason = "SetupRegistries"
		}
		return nil, nil, nil, reconcile.Fatal(reconcile.Wrap(err, "InitPrerequisites", reason))
	}
	cond, err := dataflow.ComponentOverwrite(ctx, c.cfg.Cluster, inst)
	if err != nil {
		return nil, nil, nil, reconcile.Fatal(reconcile.Wrap(err, "InitPrerequisites", "CalculateContext"))
	}
	if cond != nil {
		c.setCondition(inst, lsv1alpha1.ComponentReferenceOverwriteCondition, cond.Status, cond.Reason, cond.Message)
	}
	bp, tree, err := c.blueprintFor(ctx, inst)
	switch {
	case dataflow.IsContextError(err):
		return nil, nil, nil, reconcile.Fatal(reconcile.Wrap(err, "InitPrerequisites", "CalculateContext"))
	case dataflow.IsOperationError(inst, err):
		return nil, nil, nil, reconcile.Fatal(reconcile.Wrap(err, "InitPrerequisites", "InitInstallationOperation"))
	case err != nil:
		return nil, nil, nil, reconcile.Fatal(reconcile.Wrap(err, "InitPrerequisites", "ResolveBlueprint"))
	}
	if err := checkPredecessors(ctx, c.cfg.Cluster, inst, waitFatal); err != nil {
		return nil, nil, nil, err
	}
	imps, err := dataflow.ResolveImports(ctx, c.cfg.Cluster, inst, bp, tree)
	if importExecutionsFailed(err) {
		c.importExecutionsFailed(inst, err)
	}
	var constructErr *dataflow.ImportError
	if errors.As(err, &constructErr) {
		// Landscaper's import constructor gives its errors their reason as
		// operation and reason.
		err = reconcile.Wrap(err, constructErr.Reason, constructErr.Reason)
	}
	switch {
	case dataflow.IsImportLoadError(err):
		return nil, nil, nil, reconcile.Fatal(reconcile.Wrap(err, "init", reasonImports))
	case err != nil && waitFatal:
		return nil, nil, nil, reconcile.Fatal(reconcile.Wrap(err, "handlePhaseCompleting", importsReason(err, "ConstructImportsForExports", "RenderImportExecutionsForExports")))
	case err != nil:
		return nil, nil, nil, reconcile.Fatal(reconcile.Wrap(reconcile.Wrap(err, opCreate, importsReason(err, "ConstructImports", "RenderImportExecutions")), opInit, opCreate))
	}
	return bp, tree, imps, nil
}

// Landscaper's operation and reasons of the errors of its subinstallation
// step (subinstallations.Operation.Ensure) with the templates.
const (
	opEnsureSubinstallations = "EnsureSubInstallations"
	reasonGetTemplates       = "GetInstallationTemplates"
	reasonValidateTemplates  = "ValidateSubInstallations"
)

// templatesError gives an error of RenderSubinstallations (not a cycle) the
// operation and reason Landscaper's subinstallation step wraps it in:
// ValidateSubInstallations for templates that fail its checks,
// GetInstallationTemplates (with its message) for templates that cannot be
// read or rendered.
func templatesError(err error) error {
	var invalid *dataflow.TemplatesInvalidError
	if errors.As(err, &invalid) {
		return reconcile.Wrap(err, opEnsureSubinstallations, reasonValidateTemplates)
	}
	return reconcile.WrapError(err, opEnsureSubinstallations, reasonGetTemplates, "unable to get installation templates of blueprint")
}

// importsReason tells the construction of the imports (construct) from
// their import executions (executions) for an error of ResolveImports.
func importsReason(err error, construct, executions string) string {
	if importExecutionsFailed(err) {
		return executions
	}
	return construct
}

// importExecutionsFailed reports whether err, an error of ResolveImports,
// is one of the import executions.
func importExecutionsFailed(err error) bool {
	t := reconcile.AsTerminal(err)
	return t != nil && t.Reason == dataflow.ReasonTemplatingFailed
}

// createSubobjects is Landscaper's CreateImportsAndSubobjects after the
// imports are constructed: write them, ensure the subinstallations, render
// the deploy items and ensure the execution.
func (c *Controller) createSubobjects(ctx context.Context, inst *lsv1alpha1.Installation, cache *lsv1alpha1.SubInstCache, bp *blueprint.Blueprint, tree *components.Tree, imps *dataflow.Imports) error {
	cl := c.cfg.Cluster
	if err := dataflow.WriteImports(ctx, cl, inst, imps); err != nil {
		c.writeFailed(inst, err)
		return reconcile.Wrap(err, opCreate, "CreateOrUpdateImports")
	}
	subs, existing, err := c.existingSubinstallations(ctx, inst, cache)
	if err != nil {
		return reconcile.Wrap(err, opCreate, "EnsureSubinstallations")
	}
	templates, err := dataflow.RenderSubinstallations(ctx, cl, inst, bp, imps)
	// Templates in an import cycle: Landscaper's controller deletes the
	// orphans, then creates and updates nothing, and goes on.
	var cycle *dataflow.CycleError
	if err == nil || errors.As(err, &cycle) {
		err = c.ensureSubinstallations(ctx, inst, subs, existing, bp, tree, templates, cycle == nil)
	} else {
		err = templatesError(err)
	}
	if err != nil {
		return reconcile.Wrap(err, opCreate, "EnsureSubinstallations")
	}
	c.setCondition(inst, lsv1alpha1.EnsureSubInstallationsCondition, lsv1alpha1.ConditionTrue,
		"InstallationsInstalled", "All Installations are successfully installed")
	items, err := dataflow.RenderDeployItems(ctx, cl, inst, bp, imps)
	var itemErr *dataflow.DeployItemError
	switch {
	case err == nil:
		err = c.ensureExecution(ctx, inst, items)
	case errors.As(err, &itemErr):
		// What is wrong with a rendered item Landscaper returns as it is,
		// without the template error's wrapping and code.
		c.deployItemsFailed(inst, err)
	default:
		c.deployItemsFailed(inst, err)
		err = reconcile.WrapError(err, "RenderDeployItemTemplates", "Template", "unable to template executions", lsv1alpha1.ErrorForInfoOnly)
	}
	return reconcile.Wrap(err, opCreate, "ReconcileExecution")
}

// ensureExecution creates or updates the Execution of inst, named after it
// and controlled by it, and records it in status.executionRef. As in
// Landscaper, a blueprint that renders no deploy items leaves everything as
// it is: no Execution is created, an existing one keeps its deploy items
// (and runs them again in this job), status.executionRef is not touched.
func (c *Controller) ensureExecution(ctx context.Context, inst *lsv1alpha1.Installation, templates lsv1alpha1.DeployItemTemplateList) error {
	if len(templates) == 0 {
		return nil
	}
	exec, err := c.executionByName(ctx, inst)
	if err != nil {
		return err
	}
	if exec, err = c.applyExecution(ctx, inst, exec, templates); err != nil {
		c.setCondition(inst, lsv1alpha1.ReconcileExecutionCondition, lsv1alpha1.ConditionFalse,
			"CreateOrUpdateExecution", "Unable to create or update execution")
		return err
	}
	c.setCondition(inst, lsv1alpha1.ReconcileExecutionCondition, lsv1alpha1.ConditionTrue,
		"ExecutionDeployed", "Deployed execution item")
	ref := &lsv1alpha1.ObjectReference{Name: exec.Name, Namespace: exec.Namespace}
	if !semantic.DeepEqual(inst.Status.ExecutionReference, ref) {
		inst.Status.ExecutionReference = ref
		return c.cfg.Cluster.UpdateStatus(ctx, inst)
	}
	return nil
}

// executionByName returns the Execution named after inst, whoever controls
// it, or nil: Landscaper's CreateOrUpdate of the Execution reads it by name
// alone.
func (c *Controller) executionByName(ctx context.Context, inst *lsv1alpha1.Installation) (*lsv1alpha1.Execution, error) {
	exec := &lsv1alpha1.Execution{}
	err := c.cfg.Cluster.Get(ctx, types.NamespacedName{Namespace: inst.Namespace, Name: inst.Name}, exec)
	switch {
	case apierrors.IsNotFound(err):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("get execution %s: %w", inst.Name, err)
	}
	return exec, nil
}

// Landscaper's write ID of the Execution's CreateOrUpdate
// (executions.ExecutionOperation.Ensure), which its read_write_layer puts in
// the message of a failed write.
const writeExecution = "W000022"

// applyExecution creates the Execution of inst with templates, or updates
// exec, the existing one of that name, when anything changed, and returns
// it. As Landscaper's controllerutil.SetControllerReference, an existing
// Execution without a controller is taken over (inst becomes its
// controller), and one controlled by another object is not touched: that is
// the error Landscaper's write returns (controllerutil.AlreadyOwnedError
// in errorWithWriteID's wrapping).
func (c *Controller) applyExecution(ctx context.Context, inst *lsv1alpha1.Installation, exec *lsv1alpha1.Execution, templates lsv1alpha1.DeployItemTemplateList) (*lsv1alpha1.Execution, error) {
	if exec == nil {
		exec = newExecution(inst, templates)
		if err := c.cfg.Cluster.Create(ctx, exec); err != nil {
			return nil, reconcile.WithWriteID(err, writeExecution)
		}
		return exec, nil
	}
	before := exec.DeepCopy()
	exec.Spec.DeployItems = templates
	exec.Spec.Context = inst.Spec.Context
	setExecutionAnnotations(&exec.ObjectMeta, inst)
	if err := flow.SetController(inst, exec, c.cfg.Cluster.Scheme(), writeExecution, ""); err != nil {
		return nil, err
	}
	if !semantic.DeepEqual(before, exec) {
		if err := c.cfg.Cluster.Update(ctx, exec); err != nil {
			return nil, reconcile.WithWriteID(err, writeExecution)
		}
	}
	return exec, nil
}

// newExecution returns the Execution Landscaper creates for inst, with its
// finalizer.
func newExecution(inst *lsv1alpha1.Installation, templates lsv1alpha1.DeployItemTemplateList) *lsv1alpha1.Execution {
	exec := &lsv1alpha1.Execution{
		ObjectMeta: metav1.ObjectMeta{
			Name:            inst.Name,
			Namespace:       inst.Namespace,
			OwnerReferences: []metav1.OwnerReference{dataflow.ControllerRef(inst, "Installation")},
			Finalizers:      []string{lsv1alpha1.LandscaperFinalizer},
		},
		Spec: lsv1alpha1.ExecutionSpec{Context: inst.Spec.Context, DeployItems: templates},
	}
	setExecutionAnnotations(&exec.ObjectMeta, inst)
	return exec
}

// setExecutionAnnotations gives the Execution obj of inst the annotations
// Landscaper writes whenever it creates or updates one: the operation
// annotation (force-reconcile when inst carries it, else reconcile; only
// informational, the execution controller acts on interrupt alone), and
// cache-helm-charts as setCacheHelmCharts does.
func setExecutionAnnotations(obj *metav1.ObjectMeta, inst *lsv1alpha1.Installation) {
	op := lsv1alpha1.ReconcileOperation
	if flow.HasOperation(inst, lsv1alpha1.ForceReconcileOperation) {
		op = lsv1alpha1.ForceReconcileOperation
	}
	metav1.SetMetaDataAnnotation(obj, lsv1alpha1.OperationAnnotation, string(op))
	setCacheHelmCharts(obj, inst)
}

// setCacheHelmCharts gives obj the cache-helm-charts annotation when inst
// has it ("true") and removes it otherwise, as Landscaper passes it down.
func setCacheHelmCharts(obj *metav1.ObjectMeta, inst *lsv1alpha1.Installation) {
	delete(obj.Annotations, lsv1alpha1.CacheHelmChartsAnnotation)
	if lshelper.HasCacheHelmChartsAnnotation(&inst.ObjectMeta) {
		metav1.SetMetaDataAnnotation(obj, lsv1alpha1.CacheHelmChartsAnnotation, "true")
	}
}
