package deployers

import (
	"context"
	"time"

	"github.com/lscli/lscli/deployers/deployer"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/deployers/timeout"
	"github.com/lscli/lscli/reconcile"
)

// The deploy item types of Landscaper's deployers besides the mock.
const (
	ManifestType  lsv1alpha1.DeployItemType = "landscaper.gardener.cloud/kubernetes-manifest"
	HelmType      lsv1alpha1.DeployItemType = "landscaper.gardener.cloud/helm"
	ContainerType lsv1alpha1.DeployItemType = "landscaper.gardener.cloud/container"
)

// FailureReason is the reason in status.lastError of an item that a rule
// makes fail.
const FailureReason = "SimulatedFailure"

// Fake simulates a deployer without side effects. The first of Rules that
// selects an item decides how long its reconcile and deletion take (virtual
// time; the item is Progressing or Deleting meanwhile), whether they fail,
// hang, and what the item exports. An item no rule selects succeeds at once
// and is deleted at once. For container items it does what Landscaper's
// container deployer does around its pod: it checks the configuration
// (CheckContainerConfig), sets Progressing, reports the timeout at that
// deployer's checkpoints and gives the export Secret a controller
// reference.
type Fake struct {
	Rules Rules
}

var (
	_ deployer.Deployer = Fake{}
	_ deployer.Picker   = Fake{}
)

// Reconcile runs the reconcile step of the item's rule. A container item's
// configuration is checked first, as Landscaper's container deployer does
// (CheckContainerConfig).
func (f Fake) Reconcile(ctx context.Context, req deployer.Request) (deployer.Result, error) {
	if err := checkConfig(req.Item); err != nil {
		return deployer.Result{}, err
	}
	if err := startPod(ctx, req); err != nil {
		return deployer.Result{}, err
	}
	r := f.Rules.Find(req.Item)
	if r == nil {
		return deployer.Result{}, nil
	}
	res, err := run(req, r.Reconcile, honoursTimeout(r, req.Item), lsv1alpha1.DeployItemPhases.Progressing, "reconcile")
	if err == nil && res.Phase == "" {
		res.Exports = r.Exports
		// Landscaper's container deployer makes its export Secret with
		// a controller reference (SyncExport).
		res.ExportSecretController = req.Item.Spec.Type == ContainerType
	}
	return res, err
}

// Delete runs the delete step of the item's rule. A container item's
// configuration is checked first, as Landscaper's container deployer
// decodes it in its delete too: a bad one fails the deletion.
func (f Fake) Delete(_ context.Context, req deployer.Request) (deployer.Result, error) {
	if err := checkConfig(req.Item); err != nil {
		return deployer.Result{}, err
	}
	r := f.Rules.Find(req.Item)
	if r == nil {
		return deployer.Result{}, nil
	}
	return run(req, r.Delete, honoursTimeout(r, req.Item), lsv1alpha1.DeployItemPhases.Deleting, "delete")
}

// checkConfig checks the configuration of an item of a type whose
// Landscaper deployer lscli fakes but whose configuration it knows: the
// container type's (CheckContainerConfig).
func checkConfig(item *lsv1alpha1.DeployItem) error {
	if item.Spec.Type == ContainerType {
		return CheckContainerConfig(item)
	}
	return nil
}

// startPod writes phase Progressing for a container item in Init, as
// Landscaper's container deployer does once it has created the item's pod
// (Reconcile in pkg/deployer/container/container_reconcile.go): its item
// is Progressing until a later reconcile finds the pod done, also when the
// fake's step ends at once.
func startPod(ctx context.Context, req deployer.Request) error {
	if req.Item.Spec.Type != ContainerType || req.Item.Status.Phase != lsv1alpha1.DeployItemPhases.Init || req.Progress == nil {
		return nil
	}
	return req.Progress(ctx, nil)
}

// PicksUp is false for items a rule keeps from being picked up.
func (f Fake) PicksUp(item *lsv1alpha1.DeployItem) bool { return f.Rules.PicksUp(item) }

// honoursTimeout says whether the progressing timeout applies to item: as
// the rule says, else as Landscaper's deployer for the item's type does.
func honoursTimeout(r *Rule, item *lsv1alpha1.DeployItem) bool {
	if r.ProgressingTimeout != nil {
		return *r.ProgressingTimeout
	}
	return checksTimeout(item.Spec.Type)
}

// checksTimeout says whether Landscaper's deployer of typ checks the
// progressing timeout: the helm, manifest and container deployers do.
func checksTimeout(typ lsv1alpha1.DeployItemType) bool {
	switch typ {
	case ManifestType, HelmType, ContainerType:
		return true
	}
	return false
}

// run does one step (op "reconcile" or "delete") at req.Now: not done before
// initTime + Duration (the item stays in phase busy), then failed (Fail, with
// ERR_CONFIGURATION_PROBLEM, which fails the item) or done. A hanging step is
// never done. With the progressing timeout, a step that outlasts it fails.
func run(req deployer.Request, s Step, honour bool, busy lsv1alpha1.DeployItemPhase, op string) (deployer.Result, error) {
	left := time.Duration(0) // time until the progressing timeout; 0: none
	if honour {
		var err error
		if left, err = timeout.Check(req.Item, req.Now, checkpoint(req.Item.Spec.Type, op)); err != nil {
			return deployer.Result{}, err
		}
	}
	if s.Hang {
		return deployer.Result{Phase: busy, RequeueAfter: left, Deadline: left > 0}, nil
	}
	if remaining := startOf(req).Add(s.Duration).Sub(req.Now); remaining > 0 {
		if left > 0 && left < remaining {
			remaining = left
		}
		return deployer.Result{Phase: busy, RequeueAfter: remaining, Deadline: true}, nil
	}
	if s.Fail != "" {
		return deployer.Result{}, reconcile.NewError(op, FailureReason, s.Fail, lsv1alpha1.ErrorConfigurationProblem)
	}
	return deployer.Result{}, nil
}

// checkpoint is where the progressing timeout of a step (op "reconcile" or
// "delete") of an item of typ is reported: for an item of a type whose
// Landscaper deployer checks it (helm, manifest, container), where that
// deployer checks it first ("helm deployer: start reconcile", "container
// deployer: start delete"), else "fake deployer: OP".
func checkpoint(typ lsv1alpha1.DeployItemType, op string) string {
	if checksTimeout(typ) {
		return timeout.StartCheckpoint(typ, op)
	}
	return "fake deployer: " + op
}

// startOf is when the item's current operation started: its initTime, set
// at pickup.
func startOf(req deployer.Request) time.Time {
	if tt := req.Item.Status.TransitionTimes; tt != nil && tt.InitTime != nil {
		return tt.InitTime.Time
	}
	return req.Now
}
