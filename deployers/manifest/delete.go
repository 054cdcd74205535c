package manifest

import (
	"context"
	"fmt"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/gardener/landscaper/apis/deployer/utils/managedresource"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/deployers/deployer"
	"github.com/lscli/lscli/deployers/manifest/deletion"
	"github.com/lscli/lscli/deployers/timeout"
)

// Delete deletes the item's managed objects and reports done once they are
// gone. Objects with policy keep or ignore, and fallback objects no longer
// labelled as this item's, stay. The others get their before-delete hooks
// and are deleted group by group (deletionGroups, default: namespaced,
// cluster-scoped, CRDs); objects no group matches stay. While objects of a
// group stay (held by finalizers) the phase is Deleting and the framework
// calls again after a second of virtual time; later groups wait. At
// spec.timeout the item fails with reason ProgressingTimeout (DeleteFailed).
// An item without managed objects is done at once.
func (d *Deployer) Delete(ctx context.Context, req deployer.Request) (deployer.Result, error) {
	cfg, err := decodeConfig(req.Item)
	if err != nil {
		return deployer.Result{}, err
	}
	managed, err := decodeStatus(req.Item)
	if err != nil || len(managed) == 0 {
		return deployer.Result{}, err
	}
	left, err := checkDeleteTimeout(req)
	if err != nil {
		return deployer.Result{}, err
	}
	c, err := d.target(ctx, req)
	if err != nil {
		return deployer.Result{}, err
	}
	todo, err := deletable(ctx, c, managed, req.Item.Name)
	if err != nil {
		return deployer.Result{}, err
	}
	groups := deletion.Groups{Client: c, Definitions: cfg.DeletionGroups, Secondary: deletion.SecondaryClient(d.secondary(req)),
		Resumed: deployer.DeletePolls(req.Item)}
	progress, err := groups.Settle(ctx, todo)
	if err != nil {
		return deployer.Result{}, fmt.Errorf("failed deleting managed resources: %w", err)
	}
	if !progress.Done {
		return deployer.Result{Phase: lsv1alpha1.DeployItemPhases.Deleting, RequeueAfter: timeout.Poll(deletion.PollInterval, left)}, nil
	}
	return deployer.Result{}, nil
}

// checkDeleteTimeout checks the timeout at the start of the deletion or,
// while objects are being deleted (deployer.DeletePolls), with Landscaper's
// message.
func checkDeleteTimeout(req deployer.Request) (time.Duration, error) {
	if !deployer.DeletePolls(req.Item) {
		return timeout.Check(req.Item, req.Now, CheckpointStartDelete)
	}
	left, err := timeout.Check(req.Item, req.Now, deletion.Checkpoint)
	if err != nil {
		return 0, fmt.Errorf("failed deleting managed resources: timeout during processing deletiongroup: %w", err)
	}
	return left, nil
}

// deletable filters managed by policy and runs the before-delete hooks of
// the objects that will be deleted; objects already gone are left out.
func deletable(ctx context.Context, c client.Client, managed managedresource.ManagedResourceStatusList, item string) (managedresource.ManagedResourceStatusList, error) {
	var todo managedresource.ManagedResourceStatusList
	for i := range managed {
		mr := &managed[i]
		ok, err := deletion.Deletable(ctx, c, mr, item)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		notFound, err := deletion.PrepareForDelete(ctx, c, mr)
		if err != nil {
			return nil, err
		}
		if !notFound {
			todo = append(todo, *mr)
		}
	}
	return todo, nil
}
