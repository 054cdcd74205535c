package deployers

import (
	"context"
	"fmt"
	"sort"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/gardener/landscaper/apis/core/v1alpha1/targettypes"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/yaml"

	"github.com/lscli/lscli/deployers/realcluster"
	"github.com/lscli/lscli/reconcile"
)

// kubeconfigValidFields are the user fields Landscaper's deployer library
// names when it refuses a target kubeconfig.
var kubeconfigValidFields = []string{"client-certificate-data", "client-key-data", "token", "username", "password"}

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
// refuses, with its messages; a kubeconfig that does not parse passes (see
// validateTarget). Landscaper goes through the users in map order; lscli
// by name, so that the same user is named every time.
func checkTargetKubeconfig(kubeconfig []byte) error {
	cc, err := clientcmd.NewClientConfigFromBytes(kubeconfig)
	if err != nil {
		return nil
	}
	raw, err := cc.RawConfig()
	if err != nil {
		return nil
	}
	users := make([]string, 0, len(raw.AuthInfos))
	for name := range raw.AuthInfos {
		users = append(users, name)
	}
	sort.Strings(users)
	for _, user := range users {
		ai := raw.AuthInfos[user]
		var what string
		switch {
		case ai.ClientCertificate != "":
			what = "client certificate files are"
		case ai.ClientKey != "":
			what = "client key files are"
		case ai.TokenFile != "":
			what = "token files are"
		case ai.Impersonate != "" || len(ai.ImpersonateGroups) > 0:
			return fmt.Errorf("impersonation is not supported in a target kubeconfig, the valid fields are: %v", kubeconfigValidFields)
		case ai.AuthProvider != nil && len(ai.AuthProvider.Config) > 0:
			what = "auth provider configurations are"
		case ai.Exec != nil:
			what = "exec configurations are"
		default:
			continue
		}
		return fmt.Errorf("%s not supported in a target kubeconfig (user %q), the valid fields are: %v", what, user, kubeconfigValidFields)
	}
	return nil
}
