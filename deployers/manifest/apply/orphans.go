package apply

import (
	"context"
	"fmt"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/gardener/landscaper/apis/deployer/utils/managedresource"
	corev1 "k8s.io/api/core/v1"

	"github.com/lscli/lscli/deployers/manifest/deletion"
	"github.com/lscli/lscli/deployers/timeout"
	"github.com/lscli/lscli/reconcile"
)

// cleanupOrphans deletes the objects of the previous inventory that are not
// in current and that their recorded policy lets go, after their
// before-delete hooks, through opts.DeletionGroupsDuringUpdate.
func cleanupOrphans(ctx context.Context, opts Options, current managedresource.ManagedResourceStatusList) (deletion.Progress, error) {
	var orphans managedresource.ManagedResourceStatusList
	for i := range opts.ManagedResources {
		mr := &opts.ManagedResources[i]
		ok, err := deletion.Deletable(ctx, opts.Client, mr, opts.DeployItem)
		if err != nil {
			return deletion.Progress{}, err
		}
		if ok && !Contains(current, mr.Resource) {
			orphans = append(orphans, *mr)
		}
	}
	for i := range orphans {
		if _, err := deletion.PrepareForDelete(ctx, opts.Client, &orphans[i]); err != nil {
			return deletion.Progress{}, err
		}
	}
	groups := deletion.Groups{Client: opts.Client, Definitions: opts.DeletionGroupsDuringUpdate, Secondary: opts.Secondary}
	return groups.Settle(ctx, orphans)
}

// Contains reports whether list has the object ref: the same uid when both
// have one, or else the same group, kind, namespace and name (the version
// may differ).
func Contains(list managedresource.ManagedResourceStatusList, ref corev1.ObjectReference) bool {
	gk := ref.GroupVersionKind().GroupKind()
	for _, mr := range list {
		found := mr.Resource
		if ref.UID != "" && found.UID != "" && ref.UID == found.UID {
			return true
		}
		if found.GroupVersionKind().GroupKind() == gk && found.Name == ref.Name && found.Namespace == ref.Namespace {
			return true
		}
	}
	return false
}

// OrphansTimeout checks the progressing timeout of item at now while the
// orphans of an earlier apply are still being deleted
// (deployer.WaitsForOrphans), and returns the time left. Past the deadline
// the error is Landscaper's: its applier waits for them inside the call of
// the apply, and its deletion group's timeout check ("deployer: delete
// resources") ends the wait, wrapped by cleanupOrphanedResourcesInGroups
// (operation ApplyObjects, ERR_TIMEOUT).
func OrphansTimeout(item *lsv1alpha1.DeployItem, now time.Time) (time.Duration, error) {
	left, err := timeout.Check(item, now, deletion.Checkpoint)
	if err != nil {
		err = fmt.Errorf("unable to cleanup orphaned resources: timeout during processing deletiongroup: %w", err)
		return 0, reconcile.WrapError(err, "ApplyObjects", "cleanupOrphanedResourcesInGroups", err.Error())
	}
	return left, nil
}
