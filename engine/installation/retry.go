package installation

import (
	"context"
	"fmt"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	lshelper "github.com/gardener/landscaper/apis/core/v1alpha1/helper"
	"github.com/robfig/cron/v3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lscli/lscli/engine/flow"
	"github.com/lscli/lscli/landscaper/dataflow"
	"github.com/lscli/lscli/reconcile"
)

// The defaults and the reason of spec.automaticReconcile, as Landscaper's.
const (
	defaultFailedInterval    = 5 * time.Minute
	defaultSucceededInterval = 24 * time.Hour
	reasonRetry              = "retry"
)

// reconcileOnSpecChange is Landscaper's check for the reconcile-if-changed
// annotation: a root with it ("true"), no reconcile annotation, a finished
// job and a spec changed since (generation != observedGeneration) gets the
// reconcile annotation, without a reason.
func reconcileOnSpecChange(inst *lsv1alpha1.Installation) bool {
	return dataflow.IsRoot(inst) && lshelper.HasReconcileIfChangedAnnotation(inst.ObjectMeta) &&
		!flow.HasOperation(inst, lsv1alpha1.ReconcileOperation) &&
		inst.Status.JobID == inst.Status.JobIDFinished && inst.Generation != inst.Status.ObservedGeneration
}

// preProcessRetry resets status.automaticReconcileStatus when inst has a
// reconcile annotation that the automatic reconcile did not set (reason
// "retry"): a job a user asked for starts the count anew.
func (c *Controller) preProcessRetry(ctx context.Context, inst *lsv1alpha1.Installation) error {
	if !flow.HasOperation(inst, lsv1alpha1.ReconcileOperation) || inst.Annotations[lsv1alpha1.ReconcileReasonAnnotation] == reasonRetry {
		return nil
	}
	return c.setRetryStatus(ctx, inst, nil)
}

// recomputeRetry is Landscaper's automatic reconcile (spec.automaticReconcile),
// run after every pass over an installation without an operation annotation
// whose spec has been seen. A Failed (or DeleteFailed) installation with
// failedReconcile gets the reconcile annotation with reason "retry" at once
// the first time, then every interval (default 5m) or at the times of
// cronSpec, numberOfReconciles times at most; a Succeeded one with
// succeededReconcile every interval (default 24h) or by cronSpec, counted
// from when it succeeded. A reconcile that is not due yet is a scheduled
// timer (reconcile.Result.Scheduled). Landscaper starts it when now is after
// the due time; on the virtual clock the timer fires exactly at that time,
// so lscli starts it when now is not before it.
func (c *Controller) recomputeRetry(ctx context.Context, inst *lsv1alpha1.Installation, res reconcile.Result, err error) (reconcile.Result, error) {
	if _, ok := inst.Annotations[lsv1alpha1.OperationAnnotation]; ok || inst.Status.ObservedGeneration != inst.Generation {
		return res, err
	}
	phase := inst.Status.InstallationPhase
	if st := inst.Status.AutomaticReconcileStatus; st != nil && (st.Generation != inst.Generation ||
		(phase == lsv1alpha1.InstallationPhases.Succeeded && st.OnFailed) || (phase.IsFailed() && !st.OnFailed)) {
		if err := c.setRetryStatus(ctx, inst, nil); err != nil {
			return reconcile.Result{}, err
		}
	}
	ar := inst.Spec.AutomaticReconcile
	switch {
	case ar != nil && ar.FailedReconcile != nil && (ar.FailedReconcile.NumberOfReconciles == nil || *ar.FailedReconcile.NumberOfReconciles > 0) && phase.IsFailed():
		return c.retryFailed(ctx, inst, res, err)
	case ar != nil && ar.SucceededReconcile != nil && phase == lsv1alpha1.InstallationPhases.Succeeded:
		return c.retrySucceeded(ctx, inst)
	}
	return res, err
}

// retryFailed is the failedReconcile branch of recomputeRetry.
func (c *Controller) retryFailed(ctx context.Context, inst *lsv1alpha1.Installation, res reconcile.Result, err error) (reconcile.Result, error) {
	st, fr := inst.Status.AutomaticReconcileStatus, inst.Spec.AutomaticReconcile.FailedReconcile
	if st == nil {
		return reconcile.Result{}, c.retryNow(ctx, inst, 1, true)
	}
	if fr.NumberOfReconciles != nil && *fr.NumberOfReconciles <= st.NumberOfReconciles {
		return res, err
	}
	return c.retryWhenDue(ctx, inst, nextRetry(st.LastReconcileTime.Time, fr.CronSpec, fr.Interval, defaultFailedInterval), true)
}

// retrySucceeded is the succeededReconcile branch of recomputeRetry.
func (c *Controller) retrySucceeded(ctx context.Context, inst *lsv1alpha1.Installation) (reconcile.Result, error) {
	st, sr := inst.Status.AutomaticReconcileStatus, inst.Spec.AutomaticReconcile.SucceededReconcile
	if st == nil {
		return reconcile.Result{}, c.setRetryStatus(ctx, inst, c.retryStatus(inst, 0, false))
	}
	return c.retryWhenDue(ctx, inst, nextRetry(st.LastReconcileTime.Time, sr.CronSpec, sr.Interval, defaultSucceededInterval), false)
}

// retryWhenDue starts the next automatic reconcile when next has come, and
// otherwise schedules a timer for then.
func (c *Controller) retryWhenDue(ctx context.Context, inst *lsv1alpha1.Installation, next time.Time, onFailed bool) (reconcile.Result, error) {
	now := c.cfg.Clock.Now()
	if now.Before(next) {
		return reconcile.Result{RequeueAfter: next.Sub(now), Scheduled: true}, nil
	}
	return reconcile.Result{}, c.retryNow(ctx, inst, inst.Status.AutomaticReconcileStatus.NumberOfReconciles+1, onFailed)
}

// retryNow puts the reconcile annotation with reason "retry" on inst and
// counts the automatic reconcile in its status.
func (c *Controller) retryNow(ctx context.Context, inst *lsv1alpha1.Installation, n int, onFailed bool) error {
	metav1.SetMetaDataAnnotation(&inst.ObjectMeta, lsv1alpha1.OperationAnnotation, string(lsv1alpha1.ReconcileOperation))
	metav1.SetMetaDataAnnotation(&inst.ObjectMeta, lsv1alpha1.ReconcileReasonAnnotation, reasonRetry)
	if err := c.cfg.Cluster.Update(ctx, inst); err != nil {
		return fmt.Errorf("trigger automatic reconcile: %w", err)
	}
	return c.setRetryStatus(ctx, inst, c.retryStatus(inst, n, onFailed))
}

// retryStatus is the automatic reconcile status after n reconciles, now.
func (c *Controller) retryStatus(inst *lsv1alpha1.Installation, n int, onFailed bool) *lsv1alpha1.AutomaticReconcileStatus {
	return &lsv1alpha1.AutomaticReconcileStatus{Generation: inst.Generation, NumberOfReconciles: n,
		LastReconcileTime: metav1.NewTime(c.cfg.Clock.Now()), OnFailed: onFailed}
}

// setRetryStatus writes st as status.automaticReconcileStatus.
func (c *Controller) setRetryStatus(ctx context.Context, inst *lsv1alpha1.Installation, st *lsv1alpha1.AutomaticReconcileStatus) error {
	inst.Status.AutomaticReconcileStatus = st
	if err := c.cfg.Cluster.UpdateStatus(ctx, inst); err != nil {
		return fmt.Errorf("update automatic reconcile status: %w", err)
	}
	return nil
}

// nextRetry is when the automatic reconcile after last is due: the next
// time of cronSpec (five fields, evaluated in UTC), else last + interval
// (def when unset).
func nextRetry(last time.Time, cronSpec string, interval *lsv1alpha1.Duration, def time.Duration) time.Time {
	if cronSpec != "" {
		if sched, err := cron.ParseStandard(cronSpec); err == nil {
			return sched.Next(time.UnixMilli(last.UnixMilli()).UTC())
		}
	}
	if interval != nil {
		return last.Add(interval.Duration)
	}
	return last.Add(def)
}
