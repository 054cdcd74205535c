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
	targetJSON, err := json.Marshal(args[2])
	if err != nil {
		return "", fmt.Errorf("%s expects a target object as 3rd argument: error during marshaling: %w", fn, err)
	}
	target := &lsv1alpha1.Target{}
	if err := json.Unmarshal(targetJSON, target); err != nil {
		return "", fmt.Errorf("%s expects a target object as 3rd argument: error during unmarshaling: %w", fn, err)
	}
	if resolve == nil {
		resolve = InlineTargets
	}
	content, err := resolve(target)
	if err != nil {
		return "", fmt.Errorf("oidc kubeconfig builder: could not resolve target: %w", err)
	}
	cfg := &targettypes.KubernetesClusterTargetConfig{}
	if err := json.Unmarshal(content, cfg); err != nil {
		return "", fmt.Errorf("oidc kubeconfig builder: failed to unmarshal target config: %w", err)
	}
	if cfg.Kubeconfig.StrVal == nil {
		return "", errors.New("oidc kubeconfig builder: target config contains no kubeconfig")
	}
	kc, err := clientcmd.Load([]byte(*cfg.Kubeconfig.StrVal))
	if err != nil {
		return "", fmt.Errorf("oidc kubeconfig builder: failed to load config: %w", err)
	}
	kctx, ok := kc.Contexts[kc.CurrentContext]
	if !ok || kctx == nil {
		return "", fmt.Errorf("oidc kubeconfig builder: current context %q not found", kc.CurrentContext)
	}
	cluster, ok := kc.Clusters[kctx.Cluster]
	if !ok || cluster == nil {
		return "", fmt.Errorf("oidc kubeconfig builder: cluster %q of the current context not found", kctx.Cluster)
	}
	kc.Contexts = map[string]*clientcmdapi.Context{kc.CurrentContext: kctx}
	kc.Clusters = map[string]*clientcmdapi.Cluster{kctx.Cluster: cluster}
	kc.AuthInfos = map[string]*clientcmdapi.AuthInfo{kctx.AuthInfo: {Exec: &clientcmdapi.ExecConfig{
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
	}}}
	out, err := clientcmd.Write(*kc)
	if err != nil {
		return "", fmt.Errorf("oidc kubeconfig builder: failed to write config: %w", err)
	}
	return base64.StdEncoding.EncodeToString(out), nil
}
