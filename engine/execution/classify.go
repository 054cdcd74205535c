package execution

import (
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/reconcile"
)

// Operation and reasons of the execution's own errors in status.lastError,
// as Landscaper's execution controller writes them.
const (
	opPhase             = "handleReconcilePhase"
	reasonProgressing   = "handlePhaseProgressing"
	reasonDeleting      = "handlePhaseDeleting"
	msgFailedItems      = "has failed or missing deploy items"
	msgNotStarted       = "items could not be started"
	msgRunning          = "some running items"
	msgDeleteFailed     = "has failed items"
	msgDeletePending    = "has pending items"
	reasonNotFoundDeps  = "DependentDeployItemNotFound"
	operationIsRunnable = "IsRunnable"
)

// item is a deploy item of an execution with the template it belongs to.
// di is nil when the item does not exist; an orphan has no template.
type item struct {
	name      string // template name, or the item's name for an orphan
	dependsOn []string
	di        *lsv1alpha1.DeployItem
}

// classes sort items as Landscaper's classification does, by what they are
// doing in the execution's job: running (have the job, unfinished),
// succeeded, failed (have the job, finished and not succeeded, or missing),
// runnable (an older job, may get this one) and pending (an older job, must
// wait for others).
type classes struct {
	running, succeeded, failed, runnable, pending []item
}

// allSucceeded is true when every item succeeded (or there are none).
func (c classes) allSucceeded() bool {
	return len(c.running)+len(c.failed)+len(c.runnable)+len(c.pending) == 0
}

// classify sorts the items of a reconcile job. An item whose dependsOn names
// no item of the execution is an error (Landscaper's IsRunnable): the
// execution stays in Progressing.
func classify(jobID string, items []item) (classes, error) {
	var cl classes
	byName := indexByName(items)
	for _, it := range items {
		switch {
		case it.di == nil:
			cl.failed = append(cl.failed, it)
		case it.di.Status.JobID == jobID && it.di.Status.JobIDFinished != jobID:
			cl.running = append(cl.running, it)
		case it.di.Status.JobID == jobID && it.di.Status.Phase == lsv1alpha1.DeployItemPhases.Succeeded:
			cl.succeeded = append(cl.succeeded, it)
		case it.di.Status.JobID == jobID:
			cl.failed = append(cl.failed, it)
		default:
			runnable, err := isRunnable(jobID, it, byName)
			if err != nil {
				return cl, err
			}
			if runnable {
				cl.runnable = append(cl.runnable, it)
			} else {
				cl.pending = append(cl.pending, it)
			}
		}
	}
	return cl, nil
}

// isRunnable reports whether every item it depends on finished the job (not
// necessarily successfully). byName indexes the items (indexByName).
func isRunnable(jobID string, it item, byName map[string]*item) (bool, error) {
	for _, dep := range it.dependsOn {
		d := byName[dep]
		if d == nil {
			return false, reconcile.NewError(operationIsRunnable, reasonNotFoundDeps,
				fmt.Sprintf("dependent deployitem %s of deployitem %s not found", dep, it.name))
		}
		if d.di == nil || d.di.Status.JobIDFinished != jobID {
			return false, nil
		}
	}
	return true, nil
}

// indexByName maps each template name to its (first) item, so that an
// execution of many items that depend on each other is not classified in
// time that grows with the square of their number.
func indexByName(items []item) map[string]*item {
	byName := make(map[string]*item, len(items))
	for i := range items {
		if _, dup := byName[items[i].name]; !dup {
			byName[items[i].name] = &items[i]
		}
	}
	return byName
}

// classifyForDelete sorts the items of a deletion (or orphans being deleted):
// a missing item succeeded; an item that has the job and has not failed is
// still running (it exists: its deletion is not done); an item of an older
// job is runnable when no other existing item depends on it.
func classifyForDelete(jobID string, items []item) classes {
	var cl classes
	dependedOn := dependedOnByExisting(items)
	for _, it := range items {
		switch {
		case it.di == nil:
			cl.succeeded = append(cl.succeeded, it)
		case it.di.Status.JobID == jobID && (it.di.Status.JobIDFinished != jobID || !it.di.Status.Phase.IsFailed()):
			cl.running = append(cl.running, it)
		case it.di.Status.JobID == jobID:
			cl.failed = append(cl.failed, it)
		case !dependedOn[it.name]:
			cl.runnable = append(cl.runnable, it)
		default:
			cl.pending = append(cl.pending, it)
		}
	}
	return cl
}

// dependedOnByExisting is the set of names that an existing item lists in
// dependsOn: an item of an older job may be deleted when its name is not in
// it.
func dependedOnByExisting(items []item) map[string]bool {
	out := map[string]bool{}
	for _, other := range items {
		if other.di == nil {
			continue
		}
		for _, dep := range other.dependsOn {
			out[dep] = true
		}
	}
	return out
}
