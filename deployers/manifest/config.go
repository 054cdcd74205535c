package manifest

import (
	"encoding/json"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	manifestinstall "github.com/gardener/landscaper/apis/deployer/manifest/install"
	manifestv1alpha2 "github.com/gardener/landscaper/apis/deployer/manifest/v1alpha2"
	manifestvalidation "github.com/gardener/landscaper/apis/deployer/manifest/validation"
	"github.com/gardener/landscaper/apis/deployer/utils/managedresource"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/lscli/lscli/internal/apidecode"
	"github.com/lscli/lscli/reconcile"
)

// decoder decodes the manifest deployer's configurations and statuses as
// Landscaper's manifest deployer does: v1alpha1 or v1alpha2 through the
// internal version, with the defaults of the version given (updateStrategy
// update, policy manage; there is no direct conversion between the
// versions), and one without apiVersion and kind straight to the internal
// version, without defaults.
var decoder = apidecode.New(manifestinstall.Install)

// opInit is the operation of the configuration errors, as Landscaper's
// manifest deployer names it.
const opInit = "InitManifestOperation"

// configError is a configuration error with reason, which fails the item
// (ERR_CONFIGURATION_PROBLEM), as Landscaper's manifest deployer reports it.
func configError(reason, format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	return reconcile.WrapError(err, opInit, reason, err.Error(), lsv1alpha1.ErrorConfigurationProblem)
}

// decodeConfig decodes and validates the item's provider configuration. A
// configuration that does not decode or validate fails the item.
func decodeConfig(di *lsv1alpha1.DeployItem) (*manifestv1alpha2.ProviderConfiguration, error) {
	cfg := &manifestv1alpha2.ProviderConfiguration{}
	if di.Spec.Configuration == nil || len(di.Spec.Configuration.Raw) == 0 {
		return nil, configError("ProviderConfigurationMissing", "deploy item %s has no provider configuration", di.Name)
	}
	if err := decoder.Decode(di.Spec.Configuration.Raw, cfg); err != nil {
		return nil, configError("ParseProviderConfiguration", "%w", err)
	}
	if err := manifestvalidation.ValidateProviderConfiguration(cfg); err != nil {
		return nil, configError("ValidateProviderConfiguration", "%w", err)
	}
	return cfg, nil
}

// CheckConfig decodes and validates the configuration item would have,
// as the deployer does before it applies anything; lscli's dry run checks
// manifest deploy items with it.
func CheckConfig(item *lsv1alpha1.DeployItem) error {
	_, err := decodeConfig(item)
	return err
}

// decodeStatus returns the managed resources of the item's provider status
// (v1alpha1 statuses are converted, their objects get policy manage); none
// without a status. A status that does not decode fails the item.
func decodeStatus(di *lsv1alpha1.DeployItem) (managedresource.ManagedResourceStatusList, error) {
	if di.Status.ProviderStatus == nil || len(di.Status.ProviderStatus.Raw) == 0 {
		return nil, nil
	}
	status := &manifestv1alpha2.ProviderStatus{}
	if err := decoder.Decode(di.Status.ProviderStatus.Raw, status); err != nil {
		return nil, configError("ParseProviderStatus", "%w", err)
	}
	return status.ManagedResources, nil
}

// encodeStatus is the v1alpha2 ProviderStatus with managed.
func encodeStatus(managed managedresource.ManagedResourceStatusList) (*runtime.RawExtension, error) {
	status := manifestv1alpha2.ProviderStatus{ManagedResources: managed}
	status.APIVersion = manifestv1alpha2.SchemeGroupVersion.String()
	status.Kind = "ProviderStatus"
	raw, err := json.Marshal(status)
	if err != nil {
		return nil, fmt.Errorf("encode provider status: %w", err)
	}
	return &runtime.RawExtension{Raw: raw}, nil
}
