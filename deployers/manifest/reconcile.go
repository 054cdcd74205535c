package manifest

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	manifestv1alpha2 "github.com/gardener/landscaper/apis/deployer/manifest/v1alpha2"
	"github.com/gardener/landscaper/apis/deployer/utils/managedresource"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/deployers/deployer"
	"github.com/lscli/lscli/deployers/exports"
	"github.com/lscli/lscli/deployers/manifest/apply"
	"github.com/lscli/lscli/deployers/manifest/deletion"
	"github.com/lscli/lscli/deployers/readiness"
	"github.com/lscli/lscli/deployers/timeout"
	"github.com/lscli/lscli/reconcile"
)

// reconcileRun is one Reconcile call.
type reconcileRun struct {
	d       *Deployer
	req     deployer.Request
	cfg     *manifestv1alpha2.ProviderConfiguration
	managed managedresource.ManagedResourceStatusList
	client  client.Client
	// applied is true when this call applied; patches are then its
	// patchAfterDeployment hooks.
	applied bool
	patches []apply.Patch
}

// Reconcile applies the item's manifests and reports Succeeded once its
// objects are ready, its exports can be read and the patchAfterDeployment
// hooks ran.
//
// The first call of a job (phase Init), and a call after one that failed,
// applies: create and update the objects, delete orphans, write
// providerStatus. While orphans held by
// finalizers are not gone the phase stays Init and the call repeats after a
// second (Landscaper waits inside its call, and writes the status only
// afterwards); at spec.timeout the item fails with the error of that wait.
// Later calls (phase Progressing) only look: while an object is not ready or
// an export cannot be read, the result is Progressing and the framework calls
// again after 5 seconds of virtual time. At spec.timeout (default 10m, from
// status.transitionTimes.initTime) the item fails with reason
// ProgressingTimeout. A bad configuration is a terminal error; a failed apply
// is a normal error, retried (in phase Progressing, as Landscaper's manifest
// deployer sets it first thing), with the objects applied so far in the
// result's ProviderStatus.
func (d *Deployer) Reconcile(ctx context.Context, req deployer.Request) (deployer.Result, error) {
	cfg, err := decodeConfig(req.Item)
	if err != nil {
		return deployer.Result{}, err
	}
	managed, err := decodeStatus(req.Item)
	if err != nil {
		return deployer.Result{}, err
	}
	r := &reconcileRun{d: d, req: req, cfg: cfg, managed: managed}
	if deployer.Deploys(req.Item) {
		return r.apply(ctx)
	}
	if r.client, err = d.target(ctx, req); err != nil {
		return deployer.Result{}, err
	}
	return r.wait(ctx)
}

// apply applies the manifests, then goes on waiting (see wait).
func (r *reconcileRun) apply(ctx context.Context) (deployer.Result, error) {
	// A call that goes on waiting for orphans stands for Landscaper's wait
	// inside the call of the apply, which ends in its own error at the
	// deadline; the apply is repeated all the same, for the new inventory
	// that Landscaper writes with that error.
	var left time.Duration
	var err, orphansTimeout error
	if deployer.WaitsForOrphans(r.req.Item, r.req.Now) {
		left, orphansTimeout = apply.OrphansTimeout(r.req.Item, r.req.Now)
	} else if left, err = timeout.Check(r.req.Item, r.req.Now, CheckpointStartReconcile); err != nil {
		return deployer.Result{}, err
	}
	if r.client, err = r.d.target(ctx, r.req); err != nil {
		return deployer.Result{}, err
	}
	res, err := apply.Apply(ctx, r.applyOptions())
	if orphansTimeout != nil {
		err = orphansTimeout
	}
	if err != nil {
		// Joined only with an encoding error: a joined error hides the
		// apply error's codes (ERR_UNAUTHORIZED) from reconcile.CollectCodes.
		status, serr := encodeStatus(res.ManagedResources)
		if serr != nil {
			err = errors.Join(err, serr)
		}
		return deployer.Result{ProviderStatus: status}, err
	}
	if !res.Orphans.Done {
		return deployer.Result{Phase: lsv1alpha1.DeployItemPhases.Init, RequeueAfter: timeout.Poll(deletion.PollInterval, left)}, nil
	}
	r.managed, r.applied, r.patches = res.ManagedResources, true, res.Patches
	// Written Progressing as Landscaper's manifest deployer writes it before
	// its readiness check.
	status, err := encodeStatus(r.managed)
	if err == nil {
		err = r.req.ReportProgress(ctx, status)
	}
	if err != nil {
		return deployer.Result{}, err
	}
	return r.wait(ctx)
}

// applyOptions are the applier's options for the item.
func (r *reconcileRun) applyOptions() apply.Options {
	return apply.Options{
		Client:                     r.client,
		DeployItem:                 r.req.Item.Name,
		UpdateStrategy:             r.cfg.UpdateStrategy,
		Manifests:                  r.cfg.Manifests,
		ManagedResources:           r.managed,
		DeletionGroupsDuringUpdate: r.cfg.DeletionGroupsDuringUpdate,
		Secondary:                  deletion.SecondaryClient(r.d.secondary(r.req)),
	}
}

// wait runs the readiness checks, reads the exports and, once both pass,
// the patchAfterDeployment hooks. The result carries the provider status.
// At the deadline the item fails with the error of what it was waiting for,
// as Landscaper's readiness and export polls end.
func (r *reconcileRun) wait(ctx context.Context) (deployer.Result, error) {
	status, err := encodeStatus(r.managed)
	if err != nil {
		return deployer.Result{}, err
	}
	res := deployer.Result{ProviderStatus: status}
	values, pending, err := r.look(ctx)
	left, terr := timeout.Check(r.req.Item, r.req.Now, CheckpointStartReconcile)
	switch {
	case pending != nil && terr != nil:
		return deployer.Result{}, pending.timeout()
	case terr != nil:
		return deployer.Result{}, terr
	case err != nil:
		return deployer.Result{}, err
	case pending != nil:
		res.Phase = lsv1alpha1.DeployItemPhases.Progressing
		res.RequeueAfter = timeout.Poll(readiness.PollInterval, left)
		return res, nil
	}
	if err := r.patch(ctx); err != nil {
		return deployer.Result{}, err
	}
	res.Phase = lsv1alpha1.DeployItemPhases.Succeeded
	if r.cfg.Exports != nil {
		res.Exports, err = json.Marshal(values)
	}
	return res, err
}

// waiting is what a job waits for: an object to become ready or an export
// to become readable.
type waiting struct {
	// timeout is the error when the deadline passes while waiting.
	timeout func() error
}

// look runs the readiness checks and then reads the exports. It returns
// the exports, or what is not there yet, or an error.
func (r *reconcileRun) look(ctx context.Context) (map[string]any, *waiting, error) {
	err := readiness.Check(ctx, r.cfg.ReadinessChecks, readiness.Options{
		Client:              r.client,
		Resources:           r.managed.TypedObjectReferenceList(),
		FailOnMissingObject: true,
		Secondary:           readiness.SecondaryClient(r.d.secondary(r.req)),
	})
	var nr *readiness.NotReadyError
	if errors.As(err, &nr) {
		return nil, &waiting{timeout: nr.Timeout}, nil
	}
	if err != nil {
		return nil, nil, err // as it is, as Landscaper's Manifest.Reconcile returns it
	}
	values, err := exports.Read(ctx, r.client, r.cfg.Exports, exports.SecondaryClient(r.d.secondary(r.req)))
	var pe *exports.PendingError
	if errors.As(err, &pe) {
		// as Landscaper's Manifest.Reconcile wraps the exporter's error
		return nil, &waiting{timeout: func() error {
			return reconcile.Wrap(pe.Timeout(), "ReconcileManifests", "ReadExportValues")
		}}, nil
	}
	return values, nil, err
}

// patch runs the patchAfterDeployment hooks: those of this call's apply, or
// else those of the configuration for the recorded objects.
func (r *reconcileRun) patch(ctx context.Context) error {
	patches := r.patches
	if !r.applied {
		var err error
		if patches, err = apply.Patches(r.applyOptions()); err != nil {
			return err
		}
	}
	// as Landscaper's Manifest.Reconcile wraps the applier's error
	return reconcile.Wrap(apply.PatchAfterDeployment(ctx, r.client, patches), "ReconcileManifests", "PatchAfterDeployment")
}
