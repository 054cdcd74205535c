package realcluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/gardener/landscaper/apis/core/v1alpha1/targettypes"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"sigs.k8s.io/yaml"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/reconcile"
)

// TargetType is the only Target type this package connects to.
const TargetType = targettypes.KubernetesClusterTargetType

// validFields are the user fields a target kubeconfig may use.
var validFields = []string{"client-certificate-data", "client-key-data", "token", "username", "password"}

// Kubeconfig returns the kubeconfig of target. secrets reads the Secret of
// spec.secretRef and may be nil when no Target uses one. Every error but a
// failing read of the Secret is terminal: the Target is wrong.
func Kubeconfig(ctx context.Context, target *lsv1alpha1.Target, secrets fakecluster.Reader) ([]byte, error) {
	if target == nil {
		return nil, reconcile.TerminalError(errors.New("the deploy item has no target; a real cluster needs a Target with a kubeconfig"))
	}
	if target.Spec.Type != TargetType {
		return nil, reconcile.TerminalError(fmt.Errorf("target %s has type %q; only %q can be a real cluster",
			target.Name, target.Spec.Type, TargetType))
	}
	content, err := TargetContent(ctx, target, secrets)
	if err != nil {
		return nil, err
	}
	cfg := &targettypes.KubernetesClusterTargetConfig{}
	if err := yaml.Unmarshal(content, cfg); err != nil {
		return nil, reconcile.TerminalError(fmt.Errorf("unable to parse the configuration of target %s: %w", target.Name, err))
	}
	if cfg.Kubeconfig.StrVal == nil || *cfg.Kubeconfig.StrVal == "" {
		return nil, reconcile.TerminalError(fmt.Errorf("target %s has no kubeconfig (oidcConfig and selfConfig are not supported)", target.Name))
	}
	kubeconfig := []byte(*cfg.Kubeconfig.StrVal)
	if err := ValidateKubeconfig(kubeconfig); err != nil {
		return nil, reconcile.TerminalError(fmt.Errorf("target %s: %w", target.Name, err))
	}
	return kubeconfig, nil
}

// TargetContent is the target configuration: spec.config, or what
// spec.secretRef points to.
func TargetContent(ctx context.Context, target *lsv1alpha1.Target, secrets fakecluster.Reader) ([]byte, error) {
	ref := target.Spec.SecretRef
	if ref == nil {
		if target.Spec.Configuration == nil || len(target.Spec.Configuration.RawMessage) == 0 {
			return nil, reconcile.TerminalError(fmt.Errorf("target %s has neither config nor secretRef", target.Name))
		}
		return target.Spec.Configuration.RawMessage, nil
	}
	if secrets == nil {
		return nil, reconcile.TerminalError(fmt.Errorf("target %s: secretRef is not supported here", target.Name))
	}
	sec := &corev1.Secret{}
	key := types.NamespacedName{Namespace: target.Namespace, Name: ref.Name}
	if err := secrets.Get(ctx, key, sec); err != nil {
		return nil, fmt.Errorf("read secret %s of target %s: %w", key, target.Name, err)
	}
	if ref.Key != "" {
		data, ok := sec.Data[ref.Key]
		if !ok {
			return nil, reconcile.TerminalError(fmt.Errorf("key %s in secret %s of target %s does not exist", ref.Key, key, target.Name))
		}
		return data, nil
	}
	return secretAsMap(sec)
}

// secretAsMap is the Secret's data as one JSON object, each value parsed as
// YAML, which is how Landscaper reads a secretRef without key.
func secretAsMap(sec *corev1.Secret) ([]byte, error) {
	m := make(map[string]json.RawMessage, len(sec.Data))
	for k, v := range sec.Data {
		j, err := yaml.YAMLToJSON(v)
		if err != nil {
			return nil, reconcile.TerminalError(fmt.Errorf("secret %s/%s: key %s: %w", sec.Namespace, sec.Name, k, err))
		}
		m[k] = j
	}
	return json.Marshal(m)
}

// ValidateKubeconfig rejects kubeconfigs that need files or programs of the
// machine they run on, as Landscaper does (see CheckUsers), and, strictly,
// also what lscli's connection to a real cluster cannot use: any auth
// provider, and impersonation of a uid. Inline certificates and keys,
// tokens, and basic auth are fine.
func ValidateKubeconfig(kubeconfig []byte) error {
	cfg, err := clientcmd.Load(kubeconfig)
	if err != nil {
		return fmt.Errorf("unable to parse kubeconfig: %w", err)
	}
	return CheckUsers(cfg, true)
}

// CheckUsers refuses the users of a target kubeconfig that Landscaper's
// deployer library refuses (ValidateTarget in
// pkg/deployer/lib/target_validation.go), with its messages: client
// certificate, key or token files, impersonation, auth provider
// configurations and exec plugins. strict also refuses an auth provider
// without a configuration and impersonation of a uid. The users are looked
// at by name, so that the same one is named every time.
func CheckUsers(cfg *clientcmdapi.Config, strict bool) error {
	for _, name := range slices.Sorted(maps.Keys(cfg.AuthInfos)) {
		user := cfg.AuthInfos[name]
		var what string
		switch {
		case user.ClientCertificate != "":
			what = "client certificate files are"
		case user.ClientKey != "":
			what = "client key files are"
		case user.TokenFile != "":
			what = "token files are"
		case user.Impersonate != "" || len(user.ImpersonateGroups) > 0 || strict && user.ImpersonateUID != "":
			return fmt.Errorf("impersonation is not supported in a target kubeconfig, the valid fields are: %v", validFields)
		case user.AuthProvider != nil && (strict || len(user.AuthProvider.Config) > 0):
			what = "auth provider configurations are"
		case user.Exec != nil:
			what = "exec configurations are"
		default:
			continue
		}
		return fmt.Errorf("%s not supported in a target kubeconfig (user %q), the valid fields are: %v", what, name, validFields)
	}
	return nil
}
