package deployers

import (
	"context"
	"slices"
	"strings"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/deployers/deployer"
	"github.com/lscli/lscli/fakecluster"
)

// Landscaper's deployers call an unfinished deploy item again every
// PollInterval. lscli's framework calls it again only when something can
// have changed for it (see next): its cluster's forecast change, its
// progressing timeout, or, kept here, a write by another deployer to the
// simulated cluster it waits on (a Namespace that another item creates).
// Such a write wakes the waiting items at their next poll after it, when
// Landscaper's next call would see it.

// waiter is an item that waits on a simulated cluster.
type waiter struct {
	// cluster is the key of the cluster.
	cluster string
	// last is the time of the item's last call; zero when not known.
	last time.Time
}

// waitOn notes that c's item waits on its simulated cluster, called last
// at now.
func (f *Framework) waitOn(c call, now time.Time) {
	cc, ok := f.Clusters.(deployer.ChangeCounter)
	if !ok || f.Schedule == nil {
		return
	}
	cluster, ok := cc.ClusterOf(c.req.Target)
	if !ok {
		return
	}
	if f.waiters == nil {
		f.waiters = map[types.NamespacedName]waiter{}
	}
	f.waiters[client.ObjectKeyFromObject(c.di)] = waiter{cluster: cluster, last: now}
}

// stopWaiting forgets that di waits: it is being called (and waits again,
// if it does, from now).
func (f *Framework) stopWaiting(di *lsv1alpha1.DeployItem) {
	delete(f.waiters, client.ObjectKeyFromObject(di))
}

// deploy runs op, the deployer's call for c, and wakes the items that wait
// on c's cluster when the call changed it (c.changed).
func (f *Framework) deploy(ctx context.Context, c *call, op func() (deployer.Result, error)) (deployer.Result, error) {
	cc, ok := f.Clusters.(deployer.ChangeCounter)
	if !ok || f.Schedule == nil {
		return op()
	}
	delete(f.woken, client.ObjectKeyFromObject(c.di))
	before := cc.Changes()
	res, err := op()
	if cc.Changes() != before {
		c.changed = true
		if cluster, ok := cc.ClusterOf(c.req.Target); ok {
			f.wake(ctx, cluster, client.ObjectKeyFromObject(c.di), c.req.Now)
		}
	}
	return res, err
}

// wake schedules every item that waits on cluster, but self, at its next
// poll after now, in the order of their names. An item whose job has
// finished since (interrupted, say) waits no more: Landscaper's deployers
// do not requeue a finished item (pkg/deployer/lib/controller.go).
func (f *Framework) wake(ctx context.Context, cluster string, self types.NamespacedName, now time.Time) {
	f.loadWaiters(ctx, self)
	var keys []types.NamespacedName
	for key, w := range f.waiters {
		if w.cluster != cluster || key == self {
			continue
		}
		di := &lsv1alpha1.DeployItem{}
		if err := f.Client.Get(ctx, key, di); err != nil || di.Status.JobID == di.Status.JobIDFinished {
			delete(f.waiters, key)
			continue
		}
		keys = append(keys, key)
	}
	slices.SortFunc(keys, func(a, b types.NamespacedName) int {
		return strings.Compare(a.String(), b.String())
	})
	for _, key := range keys {
		at := nextPoll(f.waiters[key].last, now)
		f.Schedule(key, at)
		delete(f.waiters, key)
		if f.woken == nil {
			f.woken = map[types.NamespacedName]time.Time{}
		}
		if t, ok := f.woken[key]; !ok || at.Before(t) {
			f.woken[key] = at
		}
	}
}

// wokenAt returns the poll a write woke the item of c for, when its deployer
// has not been called since: a call of the framework that does not call the
// deployer (an item woken by its own status write, see failedJustNow) must
// keep that poll, as its result replaces the item's timer. A poll that is
// not after now is the next one.
func (f *Framework) wokenAt(c call, now time.Time) (time.Time, bool) {
	t, ok := f.woken[client.ObjectKeyFromObject(c.di)]
	if !ok {
		return time.Time{}, false
	}
	if !t.After(now) {
		t = now.Add(PollInterval)
	}
	return t, true
}

// loadWaiters notes, once per process, the unfinished items of the restored
// simulation that wait on a simulated cluster: called last, as far as the
// status tells, at their last error or else when they were picked up. Self,
// the item being called, is not one of them: whether it waits is decided
// when its call ends (see next); noted here, a write of another item would
// wake it after it finished, for a poll Landscaper does not make.
func (f *Framework) loadWaiters(ctx context.Context, self types.NamespacedName) {
	if f.waitersLoaded {
		return
	}
	f.waitersLoaded = true
	list := &lsv1alpha1.DeployItemList{}
	if err := f.Client.ListUnsafe(ctx, list, fakecluster.ListOptions{}); err != nil {
		return
	}
	for i := range list.Items {
		di := &list.Items[i]
		if di.Status.JobID == di.Status.JobIDFinished || di.Status.Phase == "" || di.Status.Phase.IsFinal() ||
			!needsTarget(di) || f.deployerFor(di.Spec.Type) == nil {
			continue
		}
		key := client.ObjectKeyFromObject(di)
		if _, noted := f.waiters[key]; noted || key == self {
			continue
		}
		target, err := f.target(ctx, di)
		if err != nil || target == nil {
			continue
		}
		last := di.Status.LastReconcileTime
		if le := di.Status.LastError; le != nil && !le.LastUpdateTime.IsZero() {
			last = &le.LastUpdateTime
		}
		var at time.Time
		if last != nil {
			at = last.Time
		}
		f.waitOn(call{di: di, req: deployer.Request{Target: target}}, at)
	}
}

// nextPoll is the first poll at or after now of an item called last at
// last, as Landscaper's deployers poll every PollInterval (the poll after
// last when now is last); an item whose last call is not known is called at
// now.
func nextPoll(last, now time.Time) time.Time {
	if last.IsZero() {
		return now
	}
	d := now.Sub(last)
	if d <= 0 {
		return last.Add(PollInterval)
	}
	return last.Add((d + PollInterval - 1) / PollInterval * PollInterval)
}
