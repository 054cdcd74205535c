package simcluster

import (
	"context"
	"fmt"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// A finished Job (condition Complete or Failed) with
// spec.ttlSecondsAfterFinished is deleted that many seconds after it
// finished, as kube-controller-manager's TTL-after-finished controller
// (pkg/controller/ttlafterfinished) deletes it: the finish time is the
// lastTransitionTime of that condition, the deletion uses propagation
// Foreground with the Job's uid as precondition, a Job that is being
// deleted is left alone, and every write of the Job looks again (a TTL
// changed on a finished Job moves or brings the deletion). The deletion is
// a wake-up of the cluster (NextChange) at the expiry.
//
// A simulated Job finishes the instant the fake controller fills its
// status (at its creation, or when a rule's duration has passed), where a
// real one runs its pods for seconds: a client that created it and looks
// at it at once (helm's watch of a hook Job, Landscaper's first readiness
// look) sees it on a real cluster before it is gone, with TTL 0 too. So
// the controller does not delete a Job in the virtual instant at which
// the fake controller finished it in this process: every client sees the
// finished Job then, and the Job goes at the first controller step after
// that (a later virtual time, or a later lscli command).

var jobGVK = schema.GroupVersionKind{Group: "batch", Version: "v1", Kind: "Job"}

// jobFinishTime returns when j finished, as the TTL-after-finished
// controller reads it: the lastTransitionTime of its Complete or Failed
// condition with status True; false when j has not finished or the time is
// unset (the controller logs an error then and deletes nothing).
func jobFinishTime(j *batchv1.Job) (time.Time, bool) {
	for _, c := range j.Status.Conditions {
		if (c.Type == batchv1.JobComplete || c.Type == batchv1.JobFailed) && c.Status == corev1.ConditionTrue {
			return c.LastTransitionTime.Time, !c.LastTransitionTime.IsZero()
		}
	}
	return time.Time{}, false
}

// jobExpiry returns when the TTL-after-finished controller deletes j: false
// when it never does (no TTL, not finished, being deleted).
func jobExpiry(j *batchv1.Job) (time.Time, bool) {
	if j.DeletionTimestamp != nil || j.Spec.TTLSecondsAfterFinished == nil {
		return time.Time{}, false
	}
	finished, ok := jobFinishTime(j)
	if !ok {
		return time.Time{}, false
	}
	return finished.Add(time.Duration(*j.Spec.TTLSecondsAfterFinished) * time.Second), true
}

// noteFinished remembers that the fake controller has just finished the Job
// obj (see the rule above); other kinds are ignored.
func (c *Cluster) noteFinished(ref objectRef, obj client.Object) {
	j, ok := obj.(*batchv1.Job)
	if !ok {
		return
	}
	if at, ok := jobFinishTime(j); ok {
		c.finished[ref] = finishMark{at: at, uid: string(j.UID)}
	}
}

// finishMark is when the fake controller finished one Job in this process.
type finishMark struct {
	at  time.Time
	uid string
}

// expireJob is the TTL-after-finished controller's look at the Job ref:
// it deletes the Job when its TTL has expired (but in the instant the fake
// controller finished it), else remembers when to look again. The caller
// holds the lock.
func (c *Cluster) expireJob(ctx context.Context, ref objectRef) error {
	if ref.gvk != jobGVK {
		return nil
	}
	delete(c.expiring, ref)
	job := &batchv1.Job{}
	err := c.inner.Get(ctx, client.ObjectKey{Namespace: ref.namespace, Name: ref.name}, job)
	if apierrors.IsNotFound(err) {
		delete(c.finished, ref)
		return nil
	}
	if err != nil {
		return fmt.Errorf("simulated cluster %s: TTL-after-finished controller: get Job %s/%s: %w", c.key, ref.namespace, ref.name, err)
	}
	expire, ok := jobExpiry(job)
	if !ok {
		return nil
	}
	now := c.set.opts.Now()
	mark, seen := c.finished[ref]
	if now.Before(expire) || seen && mark.uid == string(job.UID) && now.Equal(mark.at) {
		c.expiring[ref] = expire
		return nil
	}
	delete(c.finished, ref)
	opts := []client.DeleteOption{client.PropagationPolicy(metav1.DeletePropagationForeground), client.Preconditions{UID: &job.UID}}
	err = c.inner.Delete(ctx, job, opts...) // the store hands it to the garbage collector (gc.go)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("simulated cluster %s: TTL-after-finished controller: delete Job %s/%s: %w", c.key, ref.namespace, ref.name, err)
	}
	return c.afterDelete(ctx, ref.gvk, ref.namespace, ref.name)
}

// noteExpiring remembers when a restored Job expires: a restored cluster
// forgot in which instant its Jobs finished, so one whose TTL has expired
// goes at the first controller step.
func (c *Cluster) noteExpiring(ref objectRef, obj client.Object) {
	if j, ok := obj.(*batchv1.Job); ok {
		if expire, ok := jobExpiry(j); ok {
			c.expiring[ref] = expire
		}
	}
}
