package helm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	helmv1alpha1 "github.com/gardener/landscaper/apis/deployer/helm/v1alpha1"
	"github.com/gardener/landscaper/apis/deployer/utils/managedresource"
	"helm.sh/helm/v3/pkg/release"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/lscli/lscli/deployers/deployer"
	"github.com/lscli/lscli/deployers/exports"
	"github.com/lscli/lscli/deployers/manifest/apply"
	"github.com/lscli/lscli/deployers/manifest/deletion"
	"github.com/lscli/lscli/deployers/readiness"
	"github.com/lscli/lscli/deployers/timeout"
	"github.com/lscli/lscli/reconcile"
)

// Reconcile deploys the item's chart and reports Succeeded once its objects
// are ready and its exports can be read.
//
// The first call of a job (phase Init), and a call after one that failed,
// loads and renders the chart and installs or upgrades the helm release
// (helmDeployment true, the default), or applies the rendered manifests
// (helmDeployment false); the managed objects go to providerStatus. Later
// calls (phase Progressing after a call without error) only look:
// while an object is not ready or an export cannot be read yet, the result
// is Progressing and the framework calls again after the poll interval (5s
// of virtual time), until spec.timeout (default 10m, from
// status.transitionTimes.initTime) fails the item with ProgressingTimeout.
// This is how Landscaper's helm deployer deploys once per reconcile and then
// polls inside it.
//
// A bad configuration or a chart that cannot be rendered is a terminal
// error (Failed); a chart that cannot be loaded, a failing helm action or
// apply is a normal error: the item is Progressing, as Landscaper's helm
// deployer sets it first thing, and the retry deploys again.
func (d *Deployer) Reconcile(ctx context.Context, req deployer.Request) (deployer.Result, error) {
	// A call that only looks stands for Landscaper's waits inside its one
	// call, which end in their own errors at the deadline (see check).
	// So does a call that goes on waiting for the orphans of an apply
	// (helmDeployment: false).
	checkpoint := checkpointStartReconcile
	if !deployer.Deploys(req.Item) || deployer.WaitsForOrphans(req.Item, req.Now) {
		checkpoint = ""
	}
	it, err := d.prepare(ctx, req, checkpoint)
	if e, ok := err.(*reconcile.Error); ok && e.Operation == "InitHelmOperation" {
		err = reconcile.Wrap(err, "Reconcile", "newRootLogger") // as Landscaper's helm deployer wraps it
	}
	if err != nil {
		return deployer.Result{}, err
	}
	tpl, err := guard(func() (*templated, error) { return d.template(ctx, it) })
	if err != nil {
		return deployer.Result{}, err
	}
	if err := constructValueExports(it.cfg, tpl); err != nil {
		return deployer.Result{}, err
	}
	status, err := providerStatus(req.Item)
	if err != nil {
		return deployer.Result{}, err
	}
	deploys, resume := deployer.Deploys(req.Item), false
	if !deploys && helmDeployment(it.cfg) {
		// The last call left helm's action waiting (for a hook, or with
		// wait for its objects to be ready): go on.
		resume = d.waitsForHook(ctx, it, tpl)
		deploys = resume
	}
	if deploys {
		var stop *deployer.Result
		if status, stop, err = d.deploy(ctx, it, tpl, status, resume); stop != nil {
			return *stop, err
		}
		// Written Progressing as Landscaper's helm deployer writes it
		// before its readiness check.
		raw, err := encodeStatus(status)
		if err == nil {
			err = req.ReportProgress(ctx, raw)
		}
		if err != nil {
			return deployer.Result{}, err
		}
	}
	return d.check(ctx, it, tpl, status)
}

// deploy runs the apply step and returns the new provider status. A result
// means the call ends here: the apply failed (a normal error, with the
// objects applied so far) or, for manifests, dropped objects are still being
// deleted (Init again after deletion.PollInterval).
//
// resume goes on with a helm action that the last call left waiting for a
// hook Job, or with wait for its objects to be ready (see hookRun); while
// it still waits, the call ends Progressing, with the provider status it
// had. Past the progressing timeout the resumed action fails as helm's
// does when its timeout passes (context deadline exceeded for objects
// not ready: the release is failed, with atomic uninstalled or rolled
// back).
func (d *Deployer) deploy(ctx context.Context, it *item, tpl *templated, old *helmv1alpha1.ProviderStatus, resume bool) (*helmv1alpha1.ProviderStatus, *deployer.Result, error) {
	left, err := timeout.Check(it.req.Item, it.req.Now, checkpointStartApply)
	// While orphans are being deleted, the deadline ends the wait with the
	// applier's error; the apply is repeated all the same, for the new
	// inventory that Landscaper writes with it.
	var orphansTimeout error
	if deployer.WaitsForOrphans(it.req.Item, it.req.Now) {
		left, orphansTimeout = apply.OrphansTimeout(it.req.Item, it.req.Now)
		err = nil
	}
	expired := false
	if err != nil {
		if !resume {
			return nil, &deployer.Result{}, err
		}
		expired = true
	}
	status, paused, err := d.apply(ctx, it, tpl, old, resume, expired)
	if paused {
		raw, err := encodeStatus(old)
		return nil, &deployer.Result{Phase: lsv1alpha1.DeployItemPhases.Progressing, ProviderStatus: raw}, err
	}
	if orphansTimeout != nil {
		err = orphansTimeout
	}
	if err == nil {
		return status, nil, nil
	}
	if errors.Is(err, errOrphansPending) {
		// The previous inventory stays, so that the next call still knows
		// the orphans; Landscaper writes the status only after its wait.
		return nil, &deployer.Result{Phase: lsv1alpha1.DeployItemPhases.Init,
			RequeueAfter: timeout.Poll(deletion.PollInterval, left)}, nil
	}
	stop := &deployer.Result{}
	if status == nil && helmDeployment(it.cfg) {
		// A failed release leaves the provider status as it was, and
		// Landscaper's Helm.ApplyFiles writes it all the same: an empty one
		// for an item that never deployed.
		status = old
	}
	if status != nil {
		stop.ProviderStatus, err = joinEncode(status, err)
	}
	if expired && orphansTimeout == nil {
		// The resumed action's wait ended at the deadline, in this error.
		err = deployer.AtDeadline(err)
	}
	return nil, stop, err
}

// joinEncode encodes status and joins an encoding error to err. Without
// one, err stays as it is: a joined error hides err's codes (such as the
// applier's ERR_UNAUTHORIZED) from reconcile.CollectCodes.
func joinEncode(status *helmv1alpha1.ProviderStatus, err error) (*runtime.RawExtension, error) {
	raw, eerr := encodeStatus(status)
	if eerr != nil {
		err = errors.Join(err, eerr)
	}
	return raw, err
}

// apply deploys the chart as a helm release or as plain manifests and
// returns the provider status with the managed objects.
// paused says the helm action waits for a hook or for its objects (see
// hookRun).
func (d *Deployer) apply(ctx context.Context, it *item, tpl *templated, old *helmv1alpha1.ProviderStatus,
	resume, expired bool) (status *helmv1alpha1.ProviderStatus, paused bool, err error) {
	if !helmDeployment(it.cfg) {
		status, err = d.applyManifests(ctx, it, tpl, old)
		return status, false, err
	}
	left, _ := timeout.Check(it.req.Item, it.req.Now, checkpointStartApply)
	if left <= 0 {
		left = timeout.Default
	}
	r := newReleaser(ctx, it.client, it.real, it.cfg.Name, it.cfg.Namespace, tpl.caps, it.req.Now)
	rel, err := guard(func() (*release.Release, error) {
		return r.deploy(ctx, it.cfg, tpl.chart, tpl.values, left, resume, expired)
	})
	if err != nil || r.paused() {
		return nil, r.paused(), err
	}
	refs, err := managedResources(rel.Manifest, it.cfg.Namespace)
	if err != nil {
		return nil, false, err
	}
	return &helmv1alpha1.ProviderStatus{ManagedResources: refs}, false, nil
}

// waitsForHook reports whether the last call left the item's helm action
// waiting on its simulated cluster, for a hook or for its objects (see
// releaser.waiting).
func (d *Deployer) waitsForHook(ctx context.Context, it *item, tpl *templated) bool {
	_, ok := newReleaser(ctx, it.client, it.real, it.cfg.Name, it.cfg.Namespace, tpl.caps, it.req.Now).waiting()
	return ok
}

// check runs the readiness checks and reads the exports. Not ready yet, or an
// export that cannot be read yet, is Progressing with a poll; at the deadline
// it is the error Landscaper's wait for it ends in.
func (d *Deployer) check(ctx context.Context, it *item, tpl *templated, status *helmv1alpha1.ProviderStatus) (deployer.Result, error) {
	raw, err := encodeStatus(status)
	if err != nil {
		return deployer.Result{}, err
	}
	res := deployer.Result{ProviderStatus: raw}
	exp, pending, err := d.look(ctx, it, tpl, status)
	left, terr := timeout.Check(it.req.Item, it.req.Now, checkpointStartReconcile)
	switch {
	case pending != nil && terr != nil:
		return deployer.Result{}, pending()
	case terr != nil:
		return deployer.Result{}, terr
	case err != nil:
		return deployer.Result{}, err
	case pending != nil:
		return progressing(res, left), nil
	}
	res.Phase, res.Exports = lsv1alpha1.DeployItemPhases.Succeeded, exp
	return res, nil
}

// look runs the readiness checks and then reads the exports. It returns the
// exports, or, while an object is not ready or an export cannot be read,
// the error for when the deadline passes meanwhile: Landscaper's
// WaitForObjectsReady error, or its exporter's wrapped by
// Helm.readExportValues (ApplyFile/ReadExportValues).
func (d *Deployer) look(ctx context.Context, it *item, tpl *templated, status *helmv1alpha1.ProviderStatus) ([]byte, func() error, error) {
	err := readiness.Check(ctx, it.cfg.ReadinessChecks, readiness.Options{
		Client:              it.client,
		Resources:           status.ManagedResources.TypedObjectReferenceList(),
		FailOnMissingObject: !helmDeployment(it.cfg),
		Secondary:           d.secondary(it),
	})
	var nr *readiness.NotReadyError
	if errors.As(err, &nr) {
		return nil, nr.Timeout, nil
	}
	if err != nil {
		return nil, nil, err // as it is, as Landscaper's Helm.ApplyFiles returns it
	}
	exp, err := d.exports(ctx, it, tpl, status)
	var pe *exports.PendingError
	if errors.As(err, &pe) {
		return nil, func() error { return reconcile.Wrap(pe.Timeout(), "ApplyFile", "ReadExportValues") }, nil
	}
	return exp, nil, err
}

// progressing turns res into "not done yet, poll again".
func progressing(res deployer.Result, left time.Duration) deployer.Result {
	res.Phase = lsv1alpha1.DeployItemPhases.Progressing
	res.RequeueAfter = timeout.Poll(readiness.PollInterval, left)
	return res
}

// providerStatus decodes the item's provider status; none is an empty one.
func providerStatus(di *lsv1alpha1.DeployItem) (*helmv1alpha1.ProviderStatus, error) {
	status := &helmv1alpha1.ProviderStatus{}
	if di.Status.ProviderStatus == nil || len(di.Status.ProviderStatus.Raw) == 0 {
		return status, nil
	}
	if err := json.Unmarshal(di.Status.ProviderStatus.Raw, status); err != nil {
		return nil, fmt.Errorf("decode provider status of deploy item %s: %w", di.Name, err)
	}
	return status, nil
}

// encodeStatus is the provider status as the raw extension the item keeps.
func encodeStatus(status *helmv1alpha1.ProviderStatus) (*runtime.RawExtension, error) {
	s := *status
	s.APIVersion, s.Kind = helmv1alpha1.SchemeGroupVersion.String(), "ProviderStatus"
	if s.ManagedResources == nil {
		s.ManagedResources = managedresource.ManagedResourceStatusList{}
	}
	raw, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("encode provider status: %w", err)
	}
	return &runtime.RawExtension{Raw: raw}, nil
}
