package helm

import (
	"context"
	"errors"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	helmv1alpha1 "github.com/gardener/landscaper/apis/deployer/helm/v1alpha1"
	manifestv1alpha2 "github.com/gardener/landscaper/apis/deployer/manifest/v1alpha2"
	"github.com/gardener/landscaper/apis/deployer/utils/managedresource"

	"github.com/lscli/lscli/deployers/deployer"
	"github.com/lscli/lscli/deployers/manifest/apply"
	"github.com/lscli/lscli/deployers/manifest/deletion"
	"github.com/lscli/lscli/deployers/timeout"
)

// errOrphansPending says that objects dropped from the chart are still being
// deleted; the apply is repeated after deletion.PollInterval.
var errOrphansPending = errors.New("orphaned objects are still being deleted")

// applyManifests applies the rendered chart (helmDeployment: false) with the
// manifest deployer's applier, as Landscaper's helm deployer does: the
// release namespace as default namespace, the helm deploy item label on every
// object, updateStrategy, and the previous managed objects, of which those
// the chart no longer renders are deleted (deletionGroupsDuringUpdate). A
// failed apply keeps the objects applied so far in the provider status.
func (d *Deployer) applyManifests(ctx context.Context, it *item, tpl *templated, old *helmv1alpha1.ProviderStatus) (*helmv1alpha1.ProviderStatus, error) {
	manifests, err := guard(func() ([]managedresource.Manifest, error) { return renderManifests(it.cfg, tpl) })
	if err != nil {
		return nil, err
	}
	res, err := apply.Apply(ctx, apply.Options{
		Client:                     it.client,
		DeployItem:                 it.req.Item.Name,
		UpdateStrategy:             manifestv1alpha2.UpdateStrategy(it.cfg.UpdateStrategy),
		Manifests:                  manifests,
		ManagedResources:           old.ManagedResources,
		Labels:                     map[string]string{helmv1alpha1.ManagedDeployItemLabel: it.req.Item.Name},
		DefaultNamespace:           it.cfg.Namespace,
		DeletionGroupsDuringUpdate: it.cfg.DeletionGroupsDuringUpdate,
		Secondary:                  deletion.SecondaryClient(d.secondary(it)),
	})
	status := &helmv1alpha1.ProviderStatus{ManagedResources: res.ManagedResources}
	if err != nil {
		return status, err // as it is, as Landscaper's Helm.ApplyFiles returns it
	}
	if !res.Orphans.Done {
		return status, errOrphansPending
	}
	return status, nil
}

// deleteManifests deletes the objects applied for helmDeployment: false by
// deletionGroups (default: namespaced, cluster-scoped, CRDs). Unlike the
// manifest deployer, and as in Landscaper, it does not filter by policy: the
// release Namespace (policy keep) goes too unless the groups leave it out.
// While objects stay (held by finalizers) the phase is Deleting and the
// framework calls again after deletion.PollInterval.
func (d *Deployer) deleteManifests(ctx context.Context, it *item) (deployer.Result, error) {
	status, err := providerStatus(it.req.Item)
	if err != nil || len(status.ManagedResources) == 0 {
		return deployer.Result{}, err
	}
	checkpoint := checkpointStartDelete
	if deployer.DeletePolls(it.req.Item) {
		checkpoint = deletion.Checkpoint
	}
	left, err := timeout.Check(it.req.Item, it.req.Now, checkpoint)
	if err != nil {
		return deployer.Result{}, err
	}
	groups := deletion.Groups{Client: it.client, Definitions: it.cfg.DeletionGroups,
		Secondary: deletion.SecondaryClient(d.secondary(it)), Resumed: deployer.DeletePolls(it.req.Item)}
	progress, err := groups.Settle(ctx, status.ManagedResources)
	if err != nil {
		// as Landscaper's Helm.deleteManifestsInGroups words it
		return deployer.Result{}, fmt.Errorf("failed deleting managed resources: %w", err)
	}
	if !progress.Done {
		return deployer.Result{Phase: lsv1alpha1.DeployItemPhases.Deleting,
			RequeueAfter: timeout.Poll(deletion.PollInterval, left)}, nil
	}
	return deployer.Result{}, nil
}
