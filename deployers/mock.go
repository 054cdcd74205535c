package deployers

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/lscli/lscli/deployers/deployer"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	mockv1alpha1 "github.com/gardener/landscaper/apis/deployer/mock/v1alpha1"
	"github.com/lscli/lscli/reconcile"
)

// MockType is the deploy item type of Landscaper's mock deployer.
const MockType lsv1alpha1.DeployItemType = "landscaper.gardener.cloud/mock"

// Mock is Landscaper's mock deployer. Its item's config decides the outcome:
// phase overrides the result; initialPhase applies while the item's phase is
// empty or Init and suppresses the automatic Succeeded; providerStatus is
// copied to the status; export is written to a Secret named mock-export-*.
// A non-final phase keeps the item unfinished and it is polled forever, as in
// Landscaper: only an interrupt ends it.
type Mock struct{}

var _ deployer.Deployer = Mock{}

// Reconcile applies the item's mock configuration.
func (Mock) Reconcile(_ context.Context, req deployer.Request) (deployer.Result, error) {
	cfg, err := decodeMockConfig(req.Item)
	if err != nil {
		return deployer.Result{}, err
	}
	res := deployer.Result{Phase: lsv1alpha1.DeployItemPhases.Succeeded, ProviderStatus: cfg.ProviderStatus}
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

// Delete has nothing to uninstall; the export Secret goes with the item.
func (Mock) Delete(context.Context, deployer.Request) (deployer.Result, error) {
	return deployer.Result{}, nil
}

// decodeMockConfig decodes leniently: apiVersion and kind may be missing and
// unknown fields are ignored, as Landscaper's decoder does. A config that does
// not decode fails the item.
func decodeMockConfig(di *lsv1alpha1.DeployItem) (*mockv1alpha1.ProviderConfiguration, error) {
	cfg := &mockv1alpha1.ProviderConfiguration{}
	if err := json.Unmarshal(di.Spec.Configuration.Raw, cfg); err != nil {
		return nil, reconcile.TerminalError(fmt.Errorf("unable to decode mock provider configuration: %w", err))
	}
	return cfg, nil
}

// MockBuilder builds the mock deployer, for a Registry.
func MockBuilder(deployer.ClusterClients) (deployer.Deployer, error) { return Mock{}, nil }
