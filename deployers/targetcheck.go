package deployers

import (
	"context"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/gardener/landscaper/apis/core/v1alpha1/targettypes"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/yaml"

	"github.com/lscli/lscli/deployers/realcluster"
	"github.com/lscli/lscli/reconcile"
)

// validateTarget checks the item's Target as Landscaper's deployer library
// does before every reconcile and delete (ValidateTarget in
// pkg/deployer/lib/target_validation.go), for every deployer type and also
// for a simulated cluster: a kubeconfig (spec.config.kubeconfig, or that of
// what spec.secretRef points to) must not need files or programs of the
// machine Landscaper runs on: client certificate, key or token files,
// impersonation, auth provider configurations, exec plugins (such as the
// gardenlogin kubeconfigs of Gardener shoots). The error (operation op,
// reason ValidateTarget, ERR_CONFIGURATION_PROBLEM) fails the item.
//
// A configuration or kubeconfig that does not parse passes, unlike in
// Landscaper: it is a placeholder for a simulated cluster (kubeconfig:
// dummy, see docs/deployers.md), and a real cluster refuses it when it
// connects. A nil target passes.
func (f *Framework) validateTarget(ctx context.Context, target *lsv1alpha1.Target, op string) error {
	if target == nil {
		return nil
	}
	var content []byte
	switch {
	case target.Spec.SecretRef != nil:
		c, err := realcluster.TargetContent(ctx, target, f.Client)
		if err != nil {
			return reconcile.Wrap(err, "checkTargetResponsibilityAndResolve", "resolveTarget")
		}
		content = c
	case target.Spec.Configuration != nil:
		content = target.Spec.Configuration.RawMessage
	}
	cfg := &targettypes.KubernetesClusterTargetConfig{}
	if err := yaml.Unmarshal(content, cfg); err != nil || cfg.Kubeconfig.StrVal == nil {
		return nil
	}
	if err := checkTargetKubeconfig([]byte(*cfg.Kubeconfig.StrVal)); err != nil {
		return reconcile.NewError(op, "ValidateTarget", err.Error(), lsv1alpha1.ErrorConfigurationProblem)
	}
	return nil
}

// checkTargetKubeconfig refuses what Landscaper's validateKubeconfig
// refuses, with its messages (realcluster.CheckUsers); a kubeconfig that
// does not parse passes (see validateTarget).
func checkTargetKubeconfig(kubeconfig []byte) error {
	cc, err := clientcmd.NewClientConfigFromBytes(kubeconfig)
	if err != nil {
		return nil
	}
	raw, err := cc.RawConfig()
	if err != nil {
		return nil
	}
	return realcluster.CheckUsers(&raw, false)
}
