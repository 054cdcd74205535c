package deployers

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/lscli/lscli/deployers/deployer"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	lshelper "github.com/gardener/landscaper/apis/core/v1alpha1/helper"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	"github.com/lscli/lscli/deployers/timeout"
	"github.com/lscli/lscli/reconcile"
)

// Operations and reasons in status.lastError for a deployer's own errors,
// as Landscaper's deployer library wraps them.
const (
	opReconcile     = "reconcile"
	opDelete        = "delete"
	reasonReconcile = "Reconcile"
	reasonDelete    = "DeleteWithUninstall"
)

// reconcile adds the finalizer, checks the Target (see validateTarget),
// Context and configuration, sets Progressing (deployer.Traits.Progressing) and calls
// Reconcile, as Landscaper's deployer library does. An error is handled by
// fail: an unrecoverable one fails the item, any other keeps its phase (an
// error of Reconcile in Init moves it to Progressing for a deployer with
// deployer.Traits.ProgressingOnError) and the item is called again; a call
// that is not done after the progressing timeout fails (see overdue). A
// result is recorded (exports, providerStatus, conditions, phase), see
// finish.
func (f *Framework) reconcile(ctx context.Context, c call) (reconcile.Result, error) {
	di := c.di
	if !controllerutil.ContainsFinalizer(di, lsv1alpha1.LandscaperFinalizer) {
		controllerutil.AddFinalizer(di, lsv1alpha1.LandscaperFinalizer)
		if err := f.Client.Update(ctx, di); err != nil {
			return reconcile.Result{}, fmt.Errorf("add finalizer to deploy item %s: %w", di.Name, err)
		}
	}
	err := f.validateTarget(ctx, c.req.Target, opReconcile)
	if err == nil {
		err = f.checkContext(ctx, di, opReconcile)
	}
	if err == nil && (di.Spec.Configuration == nil || len(di.Spec.Configuration.Raw) == 0) {
		err = reconcile.NewError(opReconcile, "ProviderConfigurationMissing", "provider configuration missing",
			lsv1alpha1.ErrorConfigurationProblem)
	}
	if err == nil {
		err = f.enter(ctx, c, lsv1alpha1.DeployItemPhases.Init, lsv1alpha1.DeployItemPhases.Progressing)
	}
	var res deployer.Result
	if err == nil {
		c.req.Progress = f.progress(c)
		res, err = f.deploy(ctx, &c, func() (deployer.Result, error) { return c.d.Reconcile(ctx, c.req) })
		var ended bool
		err, ended = deployer.SplitDeadline(err)
		err = f.overdue(c, "reconcile", res.Phase == "" || res.Phase.IsFinal(), reconcile.Build(err, opReconcile, reasonReconcile), ended)
		failedIn(c, err, lsv1alpha1.DeployItemPhases.Init, lsv1alpha1.DeployItemPhases.Progressing)
	}
	if res.ProviderStatus != nil {
		// Also on error: Landscaper keeps what a failed apply did manage.
		// A new one changes what the retry does (the orphans of a failed
		// apply are forgotten with the inventory it replaces), so it is
		// retried at the next poll as after a change of the cluster.
		if di.Status.ProviderStatus == nil || !bytes.Equal(di.Status.ProviderStatus.Raw, res.ProviderStatus.Raw) {
			c.changed = true
		}
		di.Status.ProviderStatus = res.ProviderStatus
	}
	f.mergeConditions(di, res.Conditions)
	if err != nil {
		return f.fail(ctx, c, err)
	}
	if res.Phase == "" {
		res.Phase = lsv1alpha1.DeployItemPhases.Succeeded
	}
	if err := f.writeExports(ctx, di, res); err != nil {
		return reconcile.Result{}, err
	}
	return f.finish(ctx, c, res)
}

// delete runs the uninstall, unless the item has the delete-without-uninstall
// annotation, and removes the finalizer when it is done, which removes the
// item. Errors are handled as in reconcile, with DeleteFailed (and Deleting
// where reconcile has Progressing).
func (f *Framework) delete(ctx context.Context, c call) (reconcile.Result, error) {
	di := c.di
	// Landscaper's library validates the Target first, also for a
	// deletion without uninstall.
	if err := f.validateTarget(ctx, c.req.Target, opDelete); err != nil {
		return f.fail(ctx, c, err)
	}
	if !lshelper.HasDeleteWithoutUninstallAnnotation(di.ObjectMeta) {
		err := f.checkContext(ctx, di, opDelete)
		if err == nil {
			err = f.enter(ctx, c, lsv1alpha1.DeployItemPhases.InitDelete, lsv1alpha1.DeployItemPhases.Deleting)
		}
		var res deployer.Result
		if err == nil {
			res, err = f.deploy(ctx, &c, func() (deployer.Result, error) { return c.d.Delete(ctx, c.req) })
			var ended bool
			err, ended = deployer.SplitDeadline(err)
			err = f.overdue(c, "delete", res.Phase == "" || res.Phase.IsFinal(), buildDeleteError(err), ended)
			failedIn(c, err, lsv1alpha1.DeployItemPhases.InitDelete, lsv1alpha1.DeployItemPhases.Deleting)
		}
		if err != nil {
			return f.fail(ctx, c, err)
		}
		if res.Phase != "" && res.Phase != lsv1alpha1.DeployItemPhases.Succeeded {
			return f.finish(ctx, c, res)
		}
		if res.DeleteExportSecret {
			if err := f.deleteExportSecret(ctx, di); err != nil {
				return f.fail(ctx, c, buildDeleteError(err))
			}
		}
	}
	controllerutil.RemoveFinalizer(di, lsv1alpha1.LandscaperFinalizer)
	if err := f.Client.Update(ctx, di); err != nil && !apierrors.IsNotFound(err) {
		return reconcile.Result{}, fmt.Errorf("remove finalizer of deploy item %s: %w", di.Name, err)
	}
	return reconcile.Result{}, nil
}

// deleteExportSecret deletes the Secret that di's status.exportReference
// names, if there is one, as Landscaper's mock deployer does in its Delete
// (ensureDeletion in pkg/deployer/mock/controller.go).
func (f *Framework) deleteExportSecret(ctx context.Context, di *lsv1alpha1.DeployItem) error {
	ref := di.Status.ExportReference
	if ref == nil {
		return nil
	}
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ref.Namespace, Name: ref.Name}}
	if err := f.Client.Delete(ctx, secret); err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("delete export secret %s/%s of deploy item %s: %w", ref.Namespace, ref.Name, di.Name, err)
	}
	return nil
}

// buildDeleteError wraps a deployer's Delete error as Landscaper's library
// does (BuildLsError): only an Error itself is kept; any other error,
// also one that wraps an Error, becomes the message of an Error with
// operation "delete" and reason "DeleteWithUninstall" (its codes still
// count).
func buildDeleteError(err error) error {
	if _, ok := err.(*reconcile.Error); ok || err == nil {
		return err
	}
	return reconcile.Wrap(err, opDelete, reasonDelete)
}

// overdue turns a call that did not finish (a recoverable error, or a
// result that is not done) into the progressing timeout once the item's
// deadline has passed (deployer.Traits.ProgressingTimeout), as Landscaper's
// helm and manifest deployers check it at the start of every reconcile
// ("<deployer> deployer: start reconcile", see timeout.StartCheckpoint). It
// runs after the call, so that a deployer that checks the timeout itself
// reports it with its own message.
//
// When ended is true, err is what the call's wait ended in at the deadline
// (deployer.AtDeadline): it is kept beside the timeout, for fail to record
// first (see overdueError).
func (f *Framework) overdue(c call, what string, done bool, err error, ended bool) error {
	if !c.traits.ProgressingTimeout || reconcile.IsUnrecoverable(err) || (done && err == nil) {
		return err
	}
	if _, terr := timeout.Check(c.di, c.req.Now, timeout.StartCheckpoint(c.di.Spec.Type, what)); terr != nil {
		if ended && err != nil {
			return &overdueError{ended: err, timeout: terr}
		}
		return terr
	}
	return err
}

// overdueError is the progressing timeout of a call whose wait ended at the
// deadline with an error of its own (ended). Landscaper's deployer library
// records ended as the item's lastError, and its next reconcile, which
// follows at once, fails the item with the timeout: so firstError and
// lastErrors hold both. It is the timeout to everything but fail.
type overdueError struct {
	ended, timeout error
}

func (e *overdueError) Error() string { return e.timeout.Error() }
func (e *overdueError) Unwrap() error { return e.timeout }

// failedIn moves an item whose deployer call failed (err) from phase from to
// phase to, for deployers with deployer.Traits.ProgressingOnError: the phase
// such a deployer had set when it failed, which Landscaper writes with the
// error. enter is the same move before the call, for Traits.Progressing.
func failedIn(c call, err error, from, to lsv1alpha1.DeployItemPhase) {
	if err != nil && c.traits.ProgressingOnError && c.di.Status.Phase == from {
		c.di.Status.Phase = to
	}
}

// progress is deployer.Request.Progress for the call c: it writes c's item
// with phase Progressing and the provider status given, keeping all else
// (lastError too, which the end of the call clears), as Landscaper's
// deployers' UpdateDeployItemStatus in the middle of their reconcile does.
// A status that does not change is not written.
func (f *Framework) progress(c call) func(context.Context, *runtime.RawExtension) error {
	return func(ctx context.Context, providerStatus *runtime.RawExtension) error {
		c.di.Status.Phase = lsv1alpha1.DeployItemPhases.Progressing
		if providerStatus != nil {
			c.di.Status.ProviderStatus = providerStatus
		}
		if err := f.Client.UpdateStatus(ctx, c.di); err != nil {
			return fmt.Errorf("update status of deploy item %s: %w", c.di.Name, err)
		}
		c.req.Item.Status = *c.di.Status.DeepCopy()
		return nil
	}
}

// enter moves an item from phase from to phase to before the deployer is
// called, for deployers with deployer.Traits.Progressing.
func (f *Framework) enter(ctx context.Context, c call, from, to lsv1alpha1.DeployItemPhase) error {
	if !c.traits.Progressing || c.di.Status.Phase != from {
		return nil
	}
	c.di.Status.Phase = to
	if err := f.Client.UpdateStatus(ctx, c.di); err != nil {
		return fmt.Errorf("set phase %s of deploy item %s: %w", to, c.di.Name, err)
	}
	c.req.Item.Status = *c.di.Status.DeepCopy()
	return nil
}

// finish writes the phase of res and clears lastError; a final phase
// finishes the job, any other asks to be called again (see next).
func (f *Framework) finish(ctx context.Context, c call, res deployer.Result) (reconcile.Result, error) {
	setPhase(c.di, res.Phase, f.Clock.Now())
	// The call ended without error: Landscaper's HandleReconcileResult
	// clears lastError (firstError and lastErrors stay).
	reconcile.SetDeployItemError(&c.di.Status, nil)
	if err := f.Client.UpdateStatus(ctx, c.di); err != nil {
		return reconcile.Result{}, fmt.Errorf("update status of deploy item %s: %w", c.di.Name, err)
	}
	if res.Phase.IsFinal() {
		return reconcile.Result{}, nil
	}
	return f.next(c, res), nil
}

// fail records err as Landscaper's HandleReconcileResult does: lastError
// (also firstError and lastErrors); an unrecoverable error code
// (reconcile.IsUnrecoverable) moves the item to Failed (DeleteFailed) and
// finishes the job. Any other error keeps the phase, and the deployer is
// called again as for a plain poll; the mock deployer, which never checks a
// timeout, is then called again for ever.
func (f *Framework) fail(ctx context.Context, c call, err error) (reconcile.Result, error) {
	di := c.di
	now := f.Clock.Now()
	op, reason := opReconcile, reasonReconcile
	if di.DeletionTimestamp != nil {
		op, reason = opDelete, reasonDelete
	}
	var od *overdueError
	if errors.As(err, &od) {
		reconcile.SetDeployItemError(&di.Status, reconcile.LastError(di.Status.LastError, od.ended, op, reason, now))
	}
	reconcile.SetDeployItemError(&di.Status, reconcile.LastError(di.Status.LastError, err, op, reason, now))
	unrecoverable := reconcile.IsUnrecoverable(err)
	if unrecoverable {
		setPhase(di, failedPhase(di), now)
	}
	if uerr := f.Client.UpdateStatus(ctx, di); uerr != nil {
		return reconcile.Result{}, fmt.Errorf("update status of deploy item %s: %w", di.Name, uerr)
	}
	if unrecoverable {
		return reconcile.Result{}, nil
	}
	return f.next(c, f.retry(c)), nil
}

// retry is when to call a failed item again. Landscaper's deployer library
// requeues every unfinished item after PollInterval, and the call deploys
// again (a helm install that failed becomes an upgrade of the failed
// release, which runs other hooks). A call that failed and left its
// simulated cluster as it was would fail the same way until the cluster
// changes, which wakes the item anyway; one that changed it (a hook Job
// created or deleted, a failed release record written), or that wrote a new
// providerStatus (the inventory the next apply starts from), is called again
// at the next poll, as a deadline, while the item has a progressing timeout
// that ends the retries.
func (f *Framework) retry(c call) deployer.Result {
	if !c.changed || !c.traits.ProgressingTimeout {
		return deployer.Result{}
	}
	if _, ok := timeout.Deadline(c.di); !ok {
		return deployer.Result{}
	}
	if f.retries == nil {
		f.retries = map[types.NamespacedName]time.Time{}
	}
	f.retries[client.ObjectKeyFromObject(c.di)] = f.Clock.Now().Add(PollInterval)
	return deployer.Result{RequeueAfter: PollInterval, Deadline: true}
}

// pendingRetry keeps the retry of c's item (see retry) for a call that does
// not call the deployer: its result replaces the item's timer.
func (f *Framework) pendingRetry(c call) deployer.Result {
	t, ok := f.retries[client.ObjectKeyFromObject(c.di)]
	now := f.Clock.Now()
	if !ok || !t.After(now) {
		return deployer.Result{}
	}
	return deployer.Result{RequeueAfter: t.Sub(now), Deadline: true}
}

// next says when to call the deployer again for an unfinished item. A
// deadline of the deployer (a simulated duration) stands, but not past the
// progressing timeout. A plain poll would change nothing in a simulation
// where the world only changes at known times: the framework waits for the
// next of them instead, the progressing timeout (deployer.Traits.ProgressingTimeout)
// or a change of the target cluster (deployer.Forecaster). Without either it stays a
// plain poll after res.RequeueAfter (default PollInterval), which the engine
// counts as idle. A real cluster changes unpredictably: its deployer's
// requeue is kept as it is.
func (f *Framework) next(c call, res deployer.Result) reconcile.Result {
	now := f.Clock.Now()
	after := res.RequeueAfter
	if after <= 0 {
		after = PollInterval
	}
	wake, deadline := now.Add(after), res.Deadline
	if fc, ok := f.Clusters.(deployer.Forecaster); ok && fc.Unpredictable(c.req.Target) {
		return reconcile.Result{RequeueAfter: after, Deadline: deadline}
	}
	f.waitOn(c, now)
	if t, ok := f.nextEvent(c); ok && (!deadline || t.Before(wake)) {
		wake, deadline = t, true
	}
	if t, ok := f.wokenAt(c, now); ok && (!deadline || t.Before(wake)) {
		wake, deadline = t, true
	}
	if !wake.After(now) {
		return reconcile.Result{RequeueAfter: PollInterval}
	}
	return reconcile.Result{RequeueAfter: wake.Sub(now), Deadline: deadline}
}

// nextEvent is the earliest known time something changes for the item.
func (f *Framework) nextEvent(c call) (time.Time, bool) {
	var next time.Time
	if c.traits.ProgressingTimeout {
		next, _ = timeout.Deadline(c.di)
	}
	if fc, ok := f.Clusters.(deployer.Forecaster); ok && c.req.Target != nil {
		if t, ok := fc.NextChange(c.req.Target); ok && (next.IsZero() || t.Before(next)) {
			next = t
		}
	}
	return next, !next.IsZero()
}

// setPhase sets phase; a final phase sets jobIDFinished = jobID and the
// finished time.
func setPhase(di *lsv1alpha1.DeployItem, phase lsv1alpha1.DeployItemPhase, now time.Time) {
	di.Status.Phase = phase
	if !phase.IsFinal() {
		return
	}
	di.Status.JobIDFinished = di.Status.JobID
	if di.Status.TransitionTimes == nil {
		di.Status.TransitionTimes = &lsv1alpha1.TransitionTimes{}
	}
	ts := metav1.NewTime(now)
	di.Status.TransitionTimes.FinishedTime = &ts
}

// writeExports stores res.Exports in the item's export Secret (key "config",
// owned by the item) and points status.exportRef at it, as Landscaper's
// CreateOrUpdateExport does.
func (f *Framework) writeExports(ctx context.Context, di *lsv1alpha1.DeployItem, res deployer.Result) error {
	if res.Exports == nil {
		return nil
	}
	secret := &corev1.Secret{}
	exists := false
	if ref := di.Status.ExportReference; ref != nil {
		err := f.Client.Get(ctx, types.NamespacedName{Namespace: ref.Namespace, Name: ref.Name}, secret)
		if err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("read export secret of deploy item %s: %w", di.Name, err)
		}
		exists = err == nil
	}
	secret.Data = map[string][]byte{lsv1alpha1.DataObjectSecretDataKey: res.Exports}
	if exists {
		return f.Client.Update(ctx, secret)
	}
	ref := ownerRef(di)
	if res.ExportSecretController {
		ref.Controller, ref.BlockOwnerDeletion = ptr.To(true), ptr.To(true)
	}
	secret.ObjectMeta = metav1.ObjectMeta{Namespace: di.Namespace, Name: di.Name + "-export",
		OwnerReferences: []metav1.OwnerReference{ref}}
	if res.ExportSecretGenerateName != "" {
		secret.Name, secret.GenerateName = "", res.ExportSecretGenerateName
	}
	if err := f.Client.Create(ctx, secret); err != nil {
		return fmt.Errorf("write export secret of deploy item %s: %w", di.Name, err)
	}
	di.Status.ExportReference = &lsv1alpha1.ObjectReference{Name: secret.Name, Namespace: secret.Namespace}
	return nil
}

// ownerRef is a (non-controller) owner reference to di.
func ownerRef(di *lsv1alpha1.DeployItem) metav1.OwnerReference {
	return metav1.OwnerReference{APIVersion: lsv1alpha1.SchemeGroupVersion.String(), Kind: "DeployItem",
		Name: di.Name, UID: di.UID}
}
