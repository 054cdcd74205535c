package deployers

import (
	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	containerinstall "github.com/gardener/landscaper/apis/deployer/container/install"
	containerv1alpha1 "github.com/gardener/landscaper/apis/deployer/container/v1alpha1"
	containervalidation "github.com/gardener/landscaper/apis/deployer/container/v1alpha1/validation"

	"github.com/lscli/lscli/internal/apidecode"
	"github.com/lscli/lscli/reconcile"
)

// containerOperation is the operation of the container deployer's errors
// about an item's configuration (New in Landscaper's
// pkg/deployer/container/container.go).
const containerOperation = "InitContainerOperation"

// containerDecoder decodes the container deployer's configurations as
// Landscaper's container deployer does: through the internal version
// (apiVersion and kind may be missing, unknown fields are ignored, names
// match as written, another kind or version is an error).
var containerDecoder = apidecode.New(containerinstall.Install)

// CheckContainerConfig decodes and validates the configuration of a
// container deploy item as Landscaper's container deployer does before it
// runs a pod, in its reconcile and its delete alike: a configuration that
// does not decode (reason DecodeProviderConfiguration) or is invalid
// (ValidateProviderConfiguration: registryPullSecrets, continuousReconcile)
// is an error of operation InitContainerOperation with
// ERR_CONFIGURATION_PROBLEM, which fails the item. image may be left out
// (the deployer defaults it). lscli's fake container deployer and its dry
// run check items with it.
func CheckContainerConfig(item *lsv1alpha1.DeployItem) error {
	if item.Spec.Configuration == nil || len(item.Spec.Configuration.Raw) == 0 {
		// Landscaper's deployer library refuses it before the deployer
		// sees it.
		return reconcile.NewError(opReconcile, "ProviderConfigurationMissing", "provider configuration missing",
			lsv1alpha1.ErrorConfigurationProblem)
	}
	cfg := &containerv1alpha1.ProviderConfiguration{}
	if err := containerDecoder.Decode(item.Spec.Configuration.Raw, cfg); err != nil {
		return reconcile.WrapError(err, containerOperation, "DecodeProviderConfiguration", err.Error(),
			lsv1alpha1.ErrorConfigurationProblem)
	}
	if err := containervalidation.ValidateProviderConfiguration(cfg); err != nil {
		return reconcile.WrapError(err, containerOperation, "ValidateProviderConfiguration", err.Error(),
			lsv1alpha1.ErrorConfigurationProblem)
	}
	return nil
}
