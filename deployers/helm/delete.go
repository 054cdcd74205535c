package helm

import (
	"context"

	"helm.sh/helm/v3/pkg/chartutil"

	"github.com/lscli/lscli/deployers/deployer"
	"github.com/lscli/lscli/deployers/timeout"
)

// Delete uninstalls what Reconcile deployed. For a helm release it runs helm
// uninstall without history (a release that is not there is fine; CRDs from
// crds/ stay, as with helm); for helmDeployment: false it deletes the managed
// objects by deletion groups, and reports Deleting until they are gone.
// Delete does not load the chart, so a chart that is no longer available does
// not block the deletion.
func (d *Deployer) Delete(ctx context.Context, req deployer.Request) (deployer.Result, error) {
	it, err := d.prepare(ctx, req, checkpointStartDelete)
	if err != nil {
		return deployer.Result{}, err
	}
	if !helmDeployment(it.cfg) {
		return d.deleteManifests(ctx, it)
	}
	left, _ := timeout.Check(req.Item, req.Now, checkpointStartDelete)
	if left <= 0 {
		left = timeout.Default
	}
	caps := chartutil.DefaultCapabilities.Copy()
	r := newReleaser(ctx, it.client, it.real, it.cfg.Name, it.cfg.Namespace, caps, req.Now)
	if _, err := guard(func() (struct{}, error) { return struct{}{}, r.uninstall(it.cfg, left) }); err != nil {
		return deployer.Result{}, err
	}
	return deployer.Result{}, nil
}
