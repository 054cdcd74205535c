package helm

import (
	"encoding/json"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	helminstall "github.com/gardener/landscaper/apis/deployer/helm/install"
	helmv1alpha1 "github.com/gardener/landscaper/apis/deployer/helm/v1alpha1"
	"github.com/gardener/landscaper/apis/deployer/helm/v1alpha1/validation"
	"sigs.k8s.io/yaml"

	"github.com/lscli/lscli/internal/apidecode"
	"github.com/lscli/lscli/reconcile"
)

// decoder decodes the helm deployer's configurations as Landscaper's helm
// deployer does: through the internal version, with Landscaper's defaults;
// apiVersion and kind may be missing, unknown fields are ignored, names
// match as written.
var decoder = apidecode.New(helminstall.Install)

// decodeConfig decodes the item's ProviderConfiguration and validates it as
// Landscaper does. A bad configuration fails the item
// (ERR_CONFIGURATION_PROBLEM), with operation InitHelmOperation as in
// Landscaper.
func decodeConfig(item *lsv1alpha1.DeployItem) (*helmv1alpha1.ProviderConfiguration, error) {
	cfg := &helmv1alpha1.ProviderConfiguration{}
	if err := decoder.Decode(item.Spec.Configuration.Raw, cfg); err != nil {
		return nil, initError("ParseProviderConfiguration", err)
	}
	if err := validation.ValidateProviderConfiguration(cfg); err != nil {
		return nil, initError("ValidateProviderConfiguration", err)
	}
	return cfg, nil
}

// CheckConfig decodes and validates the configuration item would have,
// as the deployer does before it deploys; lscli's dry run checks helm
// deploy items with it.
func CheckConfig(item *lsv1alpha1.DeployItem) error {
	_, err := decodeConfig(item)
	return err
}

// initError is an error of Landscaper's InitHelmOperation, which fails the
// item.
func initError(reason string, err error) error {
	return reconcile.WrapError(err, "InitHelmOperation", reason, err.Error(), lsv1alpha1.ErrorConfigurationProblem)
}

// helmDeployment reports whether cfg asks for a real helm release (the
// default) rather than rendered manifests applied one by one.
func helmDeployment(cfg *helmv1alpha1.ProviderConfiguration) bool {
	return cfg.HelmDeployment == nil || *cfg.HelmDeployment
}

// chartValues decodes cfg.values (JSON or YAML) into helm's values map.
// Values that are no map are Landscaper's TemplateChart/ParseHelmValues
// error (ERR_CONFIGURATION_PROBLEM).
func chartValues(cfg *helmv1alpha1.ProviderConfiguration) (map[string]any, error) {
	vals := map[string]any{}
	if len(cfg.Values) == 0 {
		return vals, nil
	}
	if err := yaml.Unmarshal(cfg.Values, &vals); err != nil {
		return nil, reconcile.WrapError(err, "TemplateChart", "ParseHelmValues",
			fmt.Sprintf("unable to decode helm values: %v", err), lsv1alpha1.ErrorConfigurationProblem)
	}
	if vals == nil {
		vals = map[string]any{}
	}
	return vals, nil
}

// installConfiguration are the helmDeploymentConfig arguments of helm
// install, decoded as Landscaper's real helm deployer decodes them; the type
// names are Landscaper's, so that a decoding error reads the same. timeout
// is decoded but not used, as in Landscaper: helm's waits last as long as the
// progressing timeout leaves.
type installConfiguration struct {
	Atomic               bool                 `json:"atomic,omitempty"`
	Force                bool                 `json:"force,omitempty"`
	SkipSchemaValidation bool                 `json:"skipSchemaValidation,omitempty"`
	TakeOwnership        bool                 `json:"takeOwnership,omitempty"`
	Timeout              *lsv1alpha1.Duration `json:"timeout,omitempty"`
	Wait                 bool                 `json:"wait,omitempty"`
}

// upgradeConfiguration are the arguments of helm upgrade (see
// installConfiguration).
type upgradeConfiguration installConfiguration

// uninstallConfiguration are the arguments of helm uninstall: Landscaper
// reads only wait (timeout is valid, and ignored).
type uninstallConfiguration struct {
	Wait bool `json:"wait,omitempty"`
}

// decodeArgs decodes the arguments of one action into conf. A value of the
// wrong type is an error without a code, as Landscaper's
// new<Action>Configuration returns it when the action runs (operation op,
// reason UnmarshalConfig, the decoder's text): the item is retried until its
// progressing timeout, and only the action that runs decodes its part.
// Validation has already rejected unknown names.
func decodeArgs(args map[string]lsv1alpha1.AnyJSON, op string, conf any) error {
	if len(args) == 0 {
		return nil
	}
	raw, err := json.Marshal(args)
	if err != nil {
		return reconcile.NewError(op, "MarshalConfig", err.Error())
	}
	if err := json.Unmarshal(raw, conf); err != nil {
		return reconcile.NewError(op, "UnmarshalConfig", err.Error())
	}
	return nil
}

// installFlags decodes helmDeploymentConfig.install of cfg.
func installFlags(cfg *helmv1alpha1.HelmDeploymentConfiguration) (installConfiguration, error) {
	var conf installConfiguration
	if cfg == nil {
		return conf, nil
	}
	return conf, decodeArgs(cfg.Install, "NewInstallConfiguration", &conf)
}

// upgradeFlags decodes helmDeploymentConfig.upgrade of cfg.
func upgradeFlags(cfg *helmv1alpha1.HelmDeploymentConfiguration) (upgradeConfiguration, error) {
	var conf upgradeConfiguration
	if cfg == nil {
		return conf, nil
	}
	return conf, decodeArgs(cfg.Upgrade, "NewUpgradeConfiguration", &conf)
}

// uninstallFlags decodes helmDeploymentConfig.uninstall of cfg.
func uninstallFlags(cfg *helmv1alpha1.HelmDeploymentConfiguration) (uninstallConfiguration, error) {
	var conf uninstallConfiguration
	if cfg == nil {
		return conf, nil
	}
	return conf, decodeArgs(cfg.Uninstall, "NewUninstallConfiguration", &conf)
}
