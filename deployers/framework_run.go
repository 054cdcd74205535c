package deployers

import (
	"context"
	"fmt"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	lshelper "github.com/gardener/landscaper/apis/core/v1alpha1/helper"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	"github.com/lscli/lscli/engine"
)

// reconcile adds the finalizer, calls d.Reconcile and records its result.
func (f *Framework) reconcile(ctx context.Context, d Deployer, di *lsv1alpha1.DeployItem, req Request) (engine.Result, error) {
	if !controllerutil.ContainsFinalizer(di, lsv1alpha1.LandscaperFinalizer) {
		controllerutil.AddFinalizer(di, lsv1alpha1.LandscaperFinalizer)
		if err := f.Client.Update(ctx, di); err != nil {
			return engine.Result{}, fmt.Errorf("add finalizer: %w", err)
		}
	}
	var res Result
	var err error
	if di.Spec.Configuration == nil || len(di.Spec.Configuration.Raw) == 0 {
		err = engine.TerminalError(fmt.Errorf("deploy item %s has no spec.config", di.Name))
	} else {
		res, err = d.Reconcile(ctx, req)
	}
	if err != nil {
		return engine.Result{}, f.fail(ctx, di, "Reconcile", lsv1alpha1.DeployItemPhases.Failed, err)
	}
	if res.Phase == "" {
		res.Phase = lsv1alpha1.DeployItemPhases.Succeeded
	}
	if err := f.writeExports(ctx, di, res); err != nil {
		return engine.Result{}, err
	}
	if res.ProviderStatus != nil {
		di.Status.ProviderStatus = res.ProviderStatus
	}
	return f.finish(ctx, di, res)
}

// delete runs the uninstall (skipped with delete-without-uninstall) and
// removes the finalizer when it is done, which removes the item.
func (f *Framework) delete(ctx context.Context, d Deployer, di *lsv1alpha1.DeployItem, req Request) (engine.Result, error) {
	if !lshelper.HasDeleteWithoutUninstallAnnotation(di.ObjectMeta) {
		res, err := d.Delete(ctx, req)
		if err != nil {
			return engine.Result{}, f.fail(ctx, di, "Delete", lsv1alpha1.DeployItemPhases.DeleteFailed, err)
		}
		if res.Phase != "" && res.Phase != lsv1alpha1.DeployItemPhases.Succeeded {
			return f.finish(ctx, di, res)
		}
	}
	controllerutil.RemoveFinalizer(di, lsv1alpha1.LandscaperFinalizer)
	if err := f.Client.Update(ctx, di); err != nil && !apierrors.IsNotFound(err) {
		return engine.Result{}, fmt.Errorf("remove finalizer: %w", err)
	}
	return engine.Result{}, nil
}

// finish writes the phase of res; a final phase finishes the job, any other
// asks to be called again.
func (f *Framework) finish(ctx context.Context, di *lsv1alpha1.DeployItem, res Result) (engine.Result, error) {
	setPhase(di, res.Phase, f.Clock.Now())
	if err := f.Client.UpdateStatus(ctx, di); err != nil {
		return engine.Result{}, fmt.Errorf("update status: %w", err)
	}
	if res.Phase.IsFinal() {
		return engine.Result{}, nil
	}
	if res.RequeueAfter <= 0 {
		return engine.Result{RequeueAfter: PollInterval}, nil
	}
	return engine.Result{RequeueAfter: res.RequeueAfter, Deadline: res.Deadline}, nil
}

// fail records err. A terminal error moves the item to failed and finishes
// the job; a normal one is returned, so the call is retried.
func (f *Framework) fail(ctx context.Context, di *lsv1alpha1.DeployItem, op string, failed lsv1alpha1.DeployItemPhase, err error) error {
	di.Status.LastError = engine.NewLastError(di.Status.LastError, op, "", err, f.Clock.Now())
	if engine.IsTerminal(err) {
		setPhase(di, failed, f.Clock.Now())
	}
	if uerr := f.Client.UpdateStatus(ctx, di); uerr != nil {
		return uerr
	}
	if engine.IsTerminal(err) {
		return nil
	}
	return err
}

// setPhase sets phase; a final phase sets jobIDFinished = jobID.
func setPhase(di *lsv1alpha1.DeployItem, phase lsv1alpha1.DeployItemPhase, now time.Time) {
	di.Status.Phase = phase
	if !phase.IsFinal() {
		return
	}
	di.Status.JobIDFinished = di.Status.JobID
	if di.Status.TransitionTimes != nil {
		ts := metav1.NewTime(now)
		di.Status.TransitionTimes.FinishedTime = &ts
	}
}

// writeExports stores res.Exports in the item's export Secret (key "config",
// owned by the item) and points status.exportRef at it.
func (f *Framework) writeExports(ctx context.Context, di *lsv1alpha1.DeployItem, res Result) error {
	if res.Exports == nil {
		return nil
	}
	secret := &corev1.Secret{}
	exists := false
	if ref := di.Status.ExportReference; ref != nil {
		err := f.Client.Get(ctx, types.NamespacedName{Namespace: ref.Namespace, Name: ref.Name}, secret)
		if err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("read export secret: %w", err)
		}
		exists = err == nil
	}
	secret.Data = map[string][]byte{lsv1alpha1.DataObjectSecretDataKey: res.Exports}
	if exists {
		return f.Client.Update(ctx, secret)
	}
	secret.ObjectMeta = metav1.ObjectMeta{Namespace: di.Namespace, Name: di.Name + "-export",
		OwnerReferences: []metav1.OwnerReference{ownerRef(di)}}
	if res.ExportSecretGenerateName != "" {
		secret.Name, secret.GenerateName = "", res.ExportSecretGenerateName
	}
	if err := f.Client.Create(ctx, secret); err != nil {
		return fmt.Errorf("write export secret: %w", err)
	}
	di.Status.ExportReference = &lsv1alpha1.ObjectReference{Name: secret.Name, Namespace: secret.Namespace}
	return nil
}

// ownerRef is a (non-controller) owner reference to di.
func ownerRef(di *lsv1alpha1.DeployItem) metav1.OwnerReference {
	return metav1.OwnerReference{APIVersion: lsv1alpha1.SchemeGroupVersion.String(), Kind: "DeployItem",
		Name: di.Name, UID: di.UID}
}
