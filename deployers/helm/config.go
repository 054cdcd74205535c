package helm

import (
	"encoding/json"
	"fmt"
	"time"

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

// actionFlags are the helmDeploymentConfig arguments of one helm action.
type actionFlags struct {
	Atomic               bool                 `json:"atomic,omitempty"`
	Force                bool                 `json:"force,omitempty"`
	SkipSchemaValidation bool                 `json:"skipSchemaValidation,omitempty"`
	TakeOwnership        bool                 `json:"takeOwnership,omitempty"`
	Wait                 bool                 `json:"wait,omitempty"`
	Timeout              *lsv1alpha1.Duration `json:"timeout,omitempty"`
}

// flagsFor decodes the arguments of one action (install, upgrade or
// uninstall) from helmDeploymentConfig; validation has already rejected
// unknown names. A value of the wrong type is an error without a code, as
// Landscaper's newInstallConfiguration returns it when the action runs: the
// item is retried until its progressing timeout, and only the action that
// runs decodes its part.
func flagsFor(args map[string]lsv1alpha1.AnyJSON) (actionFlags, error) {
	var f actionFlags
	if len(args) == 0 {
		return f, nil
	}
	raw, err := json.Marshal(args)
	if err == nil {
		err = json.Unmarshal(raw, &f)
	}
	if err != nil {
		return f, reconcile.NewError("NewInstallConfiguration", "UnmarshalConfig", fmt.Sprintf("invalid helmDeploymentConfig: %v", err))
	}
	return f, nil
}

// timeoutOf is the flag's timeout, or def when it sets none.
func (f actionFlags) timeoutOf(def time.Duration) time.Duration {
	if f.Timeout != nil && f.Timeout.Duration > 0 {
		return f.Timeout.Duration
	}
	return def
}
