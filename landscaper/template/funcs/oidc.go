package funcs

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/gardener/landscaper/apis/core/v1alpha1/targettypes"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"sigs.k8s.io/yaml"
)

// TargetResolver returns the content of a Target: its spec.config, or what
// its secretRef points to, as Landscaper's target resolver reads it.
type TargetResolver func(target *lsv1alpha1.Target) ([]byte, error)

// InlineTargets resolves Targets with spec.config only; a secretRef is an
// error. It is the resolver of executions that cannot read Secrets.
func InlineTargets(target *lsv1alpha1.Target) ([]byte, error) {
	if target.Spec.SecretRef != nil {
		return nil, fmt.Errorf("target %s: a secretRef cannot be read here", target.Name)
	}
	if target.Spec.Configuration == nil || len(target.Spec.Configuration.RawMessage) == 0 {
		return nil, fmt.Errorf("target %s has neither config nor secretRef", target.Name)
	}
	return target.Spec.Configuration.RawMessage, nil
}

// OIDCKubeconfig implements getOidcKubeconfig ISSUER_URL CLIENT_ID TARGET
// as Landscaper's BuildOIDCKubeconfig does: it needs no cluster, only the
// Target's kubeconfig, of which it keeps the current context and its cluster,
// and gives that context's user kubectl's oidc-login plugin as credential.
// The result is the kubeconfig, base64-encoded.
func OIDCKubeconfig(resolve TargetResolver, args ...any) (string, error) {
	const fn = "templating function getOidcKubeconfig"
	if len(args) != 3 {
		return "", fmt.Errorf("%s expects 3 arguments: issuer url, client id, and target", fn)
	}
	issuerURL, ok := args[0].(string)
	if !ok {
		return "", fmt.Errorf("%s expects a string as 1st argument, namely the issuer url", fn)
	}
	clientID, ok := args[1].(string)
	if !ok {
		return "", fmt.Errorf("%s expects a string as 2nd argument, namely the client id", fn)
	}
	target, err := parseTarget(fn, "3rd", args[2])
	if err != nil {
		return "", err
	}
	const prefix = "oidc kubeconfig builder"
	kubeconfig, err := resolveKubeconfig(prefix, resolve, target)
	if err != nil {
		return "", err
	}
	return currentContextKubeconfig(prefix, kubeconfig, "", &clientcmdapi.AuthInfo{Exec: &clientcmdapi.ExecConfig{
		APIVersion: "client.authentication.k8s.io/v1beta1",
		Command:    "kubectl",
		Args: []string{
			"oidc-login",
			"get-token",
			"--oidc-issuer-url=" + issuerURL,
			"--oidc-client-id=" + clientID,
			"--oidc-extra-scope=email",
			"--oidc-extra-scope=profile",
			"--oidc-extra-scope=offline_access",
			"--oidc-use-pkce",
			"--grant-type=auto",
		},
	}})
}

// parseTarget reads a Target passed as the nth argument of fn.
func parseTarget(fn, nth string, arg any) (*lsv1alpha1.Target, error) {
	data, err := json.Marshal(arg)
	if err != nil {
		return nil, fmt.Errorf("%s expects a target object as %s argument: error during marshaling: %w", fn, nth, err)
	}
	target := &lsv1alpha1.Target{}
	if err := json.Unmarshal(data, target); err != nil {
		return nil, fmt.Errorf("%s expects a target object as %s argument: error during unmarshaling: %w", fn, nth, err)
	}
	return target, nil
}

// resolveKubeconfig returns the kubeconfig of target's content, read with
// resolve (nil: InlineTargets); prefix starts the messages.
func resolveKubeconfig(prefix string, resolve TargetResolver, target *lsv1alpha1.Target) ([]byte, error) {
	if resolve == nil {
		resolve = InlineTargets
	}
	content, err := resolve(target)
	if err != nil {
		return nil, fmt.Errorf("%s: could not resolve target: %w", prefix, err)
	}
	cfg := &targettypes.KubernetesClusterTargetConfig{}
	decode := json.Unmarshal
	if prefix == "shoot client" {
		// pkg/utils/clusters/shoot_client.go decodes YAML (#1257); the
		// token client and the oidc kubeconfig builder decode JSON only.
		decode = func(data []byte, v any) error { return yaml.Unmarshal(data, v) }
	}
	if err := decode(content, cfg); err != nil {
		return nil, fmt.Errorf("%s: failed to unmarshal target config: %w", prefix, err)
	}
	if cfg.Kubeconfig.StrVal == nil {
		// Landscaper wraps its nil error here: its text ends with "%!w(<nil>)".
		return nil, errors.New(prefix + ": target config contains no kubeconfig: %!w(<nil>)")
	}
	return []byte(*cfg.Kubeconfig.StrVal), nil
}

// currentContextKubeconfig reduces kubeconfig to its current context and
// that context's cluster, with auth as the context's only user, named user
// (empty: the context's user name), as Landscaper's kubeconfig builders do;
// the result is base64-encoded. prefix starts the messages.
func currentContextKubeconfig(prefix string, kubeconfig []byte, user string, auth *clientcmdapi.AuthInfo) (string, error) {
	kc, err := clientcmd.Load(kubeconfig)
	if err != nil {
		return "", fmt.Errorf("%s: failed to load config: %w", prefix, err)
	}
	kctx, ok := kc.Contexts[kc.CurrentContext]
	if !ok || kctx == nil {
		return "", fmt.Errorf("%s: current context %q not found", prefix, kc.CurrentContext)
	}
	cluster, ok := kc.Clusters[kctx.Cluster]
	if !ok || cluster == nil {
		return "", fmt.Errorf("%s: cluster %q of the current context not found", prefix, kctx.Cluster)
	}
	if user != "" {
		kctx.AuthInfo = user
	}
	kc.Contexts = map[string]*clientcmdapi.Context{kc.CurrentContext: kctx}
	kc.Clusters = map[string]*clientcmdapi.Cluster{kctx.Cluster: cluster}
	kc.AuthInfos = map[string]*clientcmdapi.AuthInfo{kctx.AuthInfo: auth}
	out, err := clientcmd.Write(*kc)
	if err != nil {
		return "", fmt.Errorf("%s: failed to write config: %w", prefix, err)
	}
	return base64.StdEncoding.EncodeToString(out), nil
}
