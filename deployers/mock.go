package deployers

import (
	"context"

	"github.com/lscli/lscli/deployers/deployer"
	"github.com/lscli/lscli/internal/apidecode"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	mockinstall "github.com/gardener/landscaper/apis/deployer/mock/install"
	mockv1alpha1 "github.com/gardener/landscaper/apis/deployer/mock/v1alpha1"
)

// MockType is the deploy item type of Landscaper's mock deployer.
const MockType lsv1alpha1.DeployItemType = "landscaper.gardener.cloud/mock"

// Mock is Landscaper's mock deployer. Its item's config decides the outcome:
// phase overrides the result; initialPhase applies while the item's phase is
// empty or Init and suppresses the automatic Succeeded; providerStatus is
// copied to the status; export is written to a Secret named mock-export-*.
// A non-final phase keeps the item unfinished and it is polled forever, as in
// Landscaper: only an interrupt ends it. Every reconcile sets the
// DeployItemValidation condition. A config that does not decode is an error
// without a code: the item stays in Init and is tried again for ever (the
// mock checks no timeout).
type Mock struct{}

var _ deployer.Deployer = Mock{}

// Reconcile applies the item's mock configuration.
func (Mock) Reconcile(_ context.Context, req deployer.Request) (deployer.Result, error) {
	var raw []byte
	if req.Item.Spec.Configuration != nil {
		raw = req.Item.Spec.Configuration.Raw
	}
	cfg, err := DecodeMockConfig(raw)
	if err != nil {
		return deployer.Result{Conditions: []deployer.Condition{validation(lsv1alpha1.ConditionFalse, "FailedUnmarshal", err.Error())}}, err
	}
	res := deployer.Result{Phase: lsv1alpha1.DeployItemPhases.Succeeded, ProviderStatus: cfg.ProviderStatus,
		Conditions: []deployer.Condition{validation(lsv1alpha1.ConditionTrue, "SuccessfullValidation", "Successfully validated configuration")}}
	if cfg.InitialPhase != nil {
		res.Phase = req.Item.Status.Phase
		if res.Phase == "" || res.Phase == lsv1alpha1.DeployItemPhases.Init {
			res.Phase = *cfg.InitialPhase
		}
	}
	if cfg.Phase != nil {
		res.Phase = *cfg.Phase
	}
	if cfg.Export != nil {
		res.Exports = []byte(*cfg.Export)
		res.ExportSecretGenerateName = "mock-export-"
	}
	return res, nil
}

// validation is the mock's DeployItemValidation condition (Landscaper spells
// the reason SuccessfullValidation).
func validation(status lsv1alpha1.ConditionStatus, reason, message string) deployer.Condition {
	return deployer.Condition{Type: lsv1alpha1.DeployItemValidationCondition, Status: status, Reason: reason, Message: message}
}

// Delete has nothing to uninstall; it deletes the export Secret, before the
// item goes, as Landscaper's mock does.
func (Mock) Delete(context.Context, deployer.Request) (deployer.Result, error) {
	return deployer.Result{DeleteExportSecret: true}, nil
}

// mockDecoder decodes the mock's configurations as Landscaper's mock does:
// through the internal version (apiVersion and kind may be missing, unknown
// fields are ignored, an unknown kind is an error). Made once: a codec
// factory per deploy item was a twentieth of a big run's allocations.
var mockDecoder = apidecode.New(mockinstall.Install)

// DecodeMockConfig decodes a mock deploy item's config as Landscaper's mock
// does; lscli's dry run reads the exports it assumes from it the same way.
func DecodeMockConfig(raw []byte) (*mockv1alpha1.ProviderConfiguration, error) {
	cfg := &mockv1alpha1.ProviderConfiguration{}
	if err := mockDecoder.Decode(raw, cfg); err != nil {
		return nil, err
	}
	return cfg, nil
}

// MockBuilder builds the mock deployer, for a Registry.
func MockBuilder(deployer.ClusterClients) (deployer.Deployer, error) { return Mock{}, nil }
