package installation

import (
	"context"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/lscli/lscli/engine/flow"
	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/internal/ids"
	"github.com/lscli/lscli/landscaper/blueprint"
	"github.com/lscli/lscli/landscaper/components"
	"github.com/lscli/lscli/landscaper/dataflow"
	"github.com/lscli/lscli/reconcile"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// Options are what the installation controller needs.
type Options struct {
	// Cluster is the API server. Required; the indexes of AddIndexes must be
	// registered on it.
	Cluster *fakecluster.Cluster
	// Clock stamps phase transitions. Required.
	Clock reconcile.Clock
	// IDs derives job IDs from the seed and the installation's identity.
	IDs ids.Source
	// Blueprints resolves spec.blueprint.ref.resourceName to blueprints kept
	// outside the installation. Nil means only inline blueprints are found.
	Blueprints blueprint.Resolver
	// Components finds component versions. Nil finds only inline component
	// descriptors.
	Components *components.Registry
}

// Controller is Landscaper's installation controller: it starts jobs at root
// installations and walks an installation through its phases.
type Controller struct {
	cfg *Options
	// blueprints parses each inline blueprint once.
	blueprints blueprint.Cache
	machine    *flow.Machine[*lsv1alpha1.Installation, lsv1alpha1.InstallationPhase]
	// kids is the last view of an installation's children (childrenView).
	kids flow.ViewMemo[[]child]
	// started is the subinstallation cache an installation had when its
	// job started, for the Init that follows in the same pass (see
	// initCache).
	started flow.StartMemo[*lsv1alpha1.SubInstCache]
}

// New returns the installation controller over opts.
func New(opts Options) *Controller {
	c := &Controller{cfg: &opts}
	phases := lsv1alpha1.InstallationPhases
	c.machine = &flow.Machine[*lsv1alpha1.Installation, lsv1alpha1.InstallationPhase]{
		Client: opts.Cluster, Clock: opts.Clock, Status: flow.InstallationStatus,
		Init: phases.Init, InitDelete: phases.InitDelete, Failed: phases.Failed, DeleteFailed: phases.DeleteFailed,
		OnStart:  c.starting,
		OnFinish: c.finishing,
		Run:      c.runPhase,
	}
	return c
}

var (
	_ reconcile.ObjectReconciler[*lsv1alpha1.Installation] = (*Controller)(nil)
	_ reconcile.Idler[*lsv1alpha1.Installation]            = (*Controller)(nil)
)

// Idle reports whether a reconcile of inst would change nothing: nothing
// asks for more (no operation annotation, no automatic reconcile, no
// dependents to trigger, no new job to start, and its finalizer is in
// place), and its job has finished or waits in Progressing as recorded (see
// waitsAsRecorded). It is conservative: a false answer only means the full
// reconcile runs.
func (c *Controller) Idle(ctx context.Context, inst *lsv1alpha1.Installation) bool {
	st := inst.Status
	switch {
	case inst.Spec.AutomaticReconcile != nil || st.AutomaticReconcileStatus != nil:
		return false
	case inst.Annotations[lsv1alpha1.OperationAnnotation] != "" || reconcileOnSpecChange(inst):
		return false
	case inst.DeletionTimestamp == nil && !controllerutil.ContainsFinalizer(inst, lsv1alpha1.LandscaperFinalizer):
		return false
	case len(st.DependentsToTrigger) > 0 || startsNewJob(inst):
		return false
	}
	return st.JobID == st.JobIDFinished || c.waitsAsRecorded(ctx, inst)
}

// Reconcile runs one pass over inst as Landscaper's controller does: a root
// with reconcile-if-changed whose spec changed gets the reconcile
// annotation; the automatic reconcile status is reset for a reconcile
// annotation that a user set; then the pass itself (see reconcileOnce); and
// last the automatic reconcile of spec.automaticReconcile decides whether a
// finished root starts again, now or at a scheduled time (see retry.go).
func (c *Controller) Reconcile(ctx context.Context, inst *lsv1alpha1.Installation) (reconcile.Result, error) {
	if reconcileOnSpecChange(inst) {
		metav1.SetMetaDataAnnotation(&inst.ObjectMeta, lsv1alpha1.OperationAnnotation, string(lsv1alpha1.ReconcileOperation))
		if err := c.cfg.Cluster.Update(ctx, inst); err != nil {
			return reconcile.Result{}, fmt.Errorf("add reconcile annotation: %w", err)
		}
	}
	if err := c.preProcessRetry(ctx, inst); err != nil {
		return reconcile.Result{}, err
	}
	res, err := c.reconcileOnce(ctx, inst)
	return c.recomputeRetry(ctx, inst, res, err)
}

// reconcileOnce is one pass over inst, in Landscaper's order: add the
// finalizer, trigger dependents recorded by the last job (and go on), forward an
// interrupt, strip a reconcile annotation from a non-root, start a new job at
// a root (and look at its automatic reconcile then, as Landscaper's pass
// ends there), then handle the current phase.
func (c *Controller) reconcileOnce(ctx context.Context, inst *lsv1alpha1.Installation) (reconcile.Result, error) {
	if inst.DeletionTimestamp == nil && !controllerutil.ContainsFinalizer(inst, lsv1alpha1.LandscaperFinalizer) {
		controllerutil.AddFinalizer(inst, lsv1alpha1.LandscaperFinalizer)
		return reconcile.Result{}, c.cfg.Cluster.Update(ctx, inst)
	}
	if len(inst.Status.DependentsToTrigger) > 0 {
		// As in Landscaper, triggering them does not end the pass.
		if err := c.triggerDependents(ctx, inst); err != nil {
			return reconcile.Result{}, err
		}
	}
	if flow.HasOperation(inst, lsv1alpha1.InterruptOperation) {
		return reconcile.Result{}, c.interrupt(ctx, inst)
	}
	if !dataflow.IsRoot(inst) && flow.HasOperation(inst, lsv1alpha1.ReconcileOperation) {
		return reconcile.Result{}, c.removeReconcileAnnotation(ctx, inst)
	}
	if startsNewJob(inst) {
		if err := c.startJob(ctx, inst); err != nil {
			return reconcile.Result{}, err
		}
		// Landscaper's pass ends here, and its automatic reconcile looks at
		// the installation with the phase of the last job: a Failed root
		// whose status a user's annotation reset is annotated for a retry
		// while the new job runs. Its timer is dropped, as the pass that
		// follows (the rest of this one) computes the next.
		if _, err := c.recomputeRetry(ctx, inst, reconcile.Result{}, nil); err != nil {
			return reconcile.Result{}, err
		}
	}
	if inst.Status.JobID == inst.Status.JobIDFinished {
		return reconcile.Result{}, nil
	}
	return reconcile.Result{}, c.machine.Handle(ctx, inst)
}

// startsNewJob reports whether a root installation starts a job now: the
// previous job has finished, and it has a reconcile annotation or was just
// deleted for the first time.
func startsNewJob(inst *lsv1alpha1.Installation) bool {
	if !dataflow.IsRoot(inst) || inst.Status.JobID != inst.Status.JobIDFinished {
		return false
	}
	if flow.HasOperation(inst, lsv1alpha1.ReconcileOperation) {
		return true
	}
	return inst.DeletionTimestamp != nil && !inst.Status.InstallationPhase.IsDeletion()
}

// startJob gives inst a new job ID (and new transition times), then removes
// the reconcile annotation, in Landscaper's order.
func (c *Controller) startJob(ctx context.Context, inst *lsv1alpha1.Installation) error {
	now := metav1.NewTime(c.cfg.Clock.Now())
	inst.Status.JobID = c.cfg.IDs.JobID("Installation", inst.Namespace, inst.Name, string(inst.UID), inst.Status.JobID)
	inst.Status.TransitionTimes = &lsv1alpha1.TransitionTimes{TriggerTime: &now}
	if err := c.cfg.Cluster.UpdateStatus(ctx, inst); err != nil {
		return fmt.Errorf("start job: %w", err)
	}
	return c.removeReconcileAnnotation(ctx, inst)
}

// removeReconcileAnnotation removes the reconcile annotation and the
// reconcile-reason annotation that may come with it.
func (c *Controller) removeReconcileAnnotation(ctx context.Context, inst *lsv1alpha1.Installation) error {
	if !flow.HasOperation(inst, lsv1alpha1.ReconcileOperation) {
		return nil
	}
	delete(inst.Annotations, lsv1alpha1.OperationAnnotation)
	delete(inst.Annotations, lsv1alpha1.ReconcileReasonAnnotation)
	if err := c.cfg.Cluster.Update(ctx, inst); err != nil {
		return fmt.Errorf("remove reconcile annotation: %w", err)
	}
	return nil
}

// finishing runs in the status write that finishes a job of an installation
// that is not being deleted, whatever the final phase (Failed included): it
// records the dependents to trigger, as Landscaper does.
func (c *Controller) finishing(ctx context.Context, inst *lsv1alpha1.Installation) error {
	deps, err := dependentsOf(ctx, c.cfg.Cluster, inst)
	if err != nil {
		return reconcile.Wrap(err, "setInstallationPhaseAndUpdate", "DetermineDependents")
	}
	inst.Status.DependentsToTrigger = deps
	return nil
}

// starting runs when a job of inst enters Init or InitDelete: as
// Landscaper's handleReconcilePhase, it clears status.subInstCache and
// keeps the cache of the job before for the Init of this pass (an empty
// one when inst never had a phase), see initCache.
func (c *Controller) starting(inst *lsv1alpha1.Installation) {
	old := inst.Status.SubInstCache
	if inst.Status.InstallationPhase == "" {
		old = &lsv1alpha1.SubInstCache{}
	}
	if inst.DeletionTimestamp == nil {
		c.started.Keep(inst.UID, old)
	} else {
		c.started.Forget()
	}
	inst.Status.SubInstCache = nil
}

// initCache is the subinstallation cache Init reads the existing
// subinstallations through, as Landscaper's handlePhaseInit gets it: the
// cache of the job before when the job started in this pass, else the
// status's (which the start cleared: all are listed).
func (c *Controller) initCache(inst *lsv1alpha1.Installation) *lsv1alpha1.SubInstCache {
	if cache, ok := c.started.Take(inst.UID); ok {
		return cache
	}
	return inst.Status.SubInstCache
}
