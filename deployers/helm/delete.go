package helm

import (
	"context"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/deployers/deployer"
	"github.com/lscli/lscli/deployers/timeout"
)

// Delete uninstalls what Reconcile deployed. For a helm release it runs helm
// uninstall without history (a release that is not there is fine; CRDs from
// crds/ stay, as with helm); for helmDeployment: false it deletes the managed
// objects by deletion groups, and reports Deleting until they are gone.
// Delete does not load the chart, so a chart that is no longer available does
// not block the deletion. An item without a provider status never deployed:
// its deletion uninstalls nothing.
func (d *Deployer) Delete(ctx context.Context, req deployer.Request) (deployer.Result, error) {
	// A call after one that left helm's uninstall waiting for a hook goes
	// on with it (see hookRun), also past the progressing timeout, where
	// the uninstall fails as helm's does when its timeout passes.
	checkpoint := checkpointStartDelete
	if deployer.DeletePolls(req.Item) {
		checkpoint = ""
	}
	it, err := d.prepare(ctx, req, checkpoint)
	if err != nil {
		return deployer.Result{}, err
	}
	if !helmDeployment(it.cfg) {
		return d.deleteManifests(ctx, it)
	}
	if req.Item.Status.ProviderStatus == nil {
		// Never deployed (the chart could not be loaded or rendered):
		// Landscaper's helm deployer only removes the finalizer then, and
		// leaves a release of the same name alone.
		return deployer.Result{}, nil
	}
	left, terr := timeout.Check(req.Item, req.Now, checkpointStartDelete)
	if terr != nil && !deployer.DeletePolls(req.Item) {
		return deployer.Result{}, terr
	}
	if left <= 0 {
		left = timeout.Default
	}
	caps := landscaperCapabilities()
	r := newReleaser(ctx, it.client, it.real, it.cfg.Name, it.cfg.Namespace, caps, req.Now)
	resume := deployer.DeletePolls(req.Item)
	if _, err := guard(func() (struct{}, error) {
		return struct{}{}, r.uninstall(it.cfg, left, resume, terr != nil)
	}); err != nil {
		if resume && terr != nil {
			// The resumed uninstall's wait ended at the deadline, in err.
			err = deployer.AtDeadline(err)
		}
		return deployer.Result{}, err
	}
	if r.paused() {
		return deployer.Result{Phase: lsv1alpha1.DeployItemPhases.Deleting}, nil
	}
	return deployer.Result{}, nil
}
