package funcs

import (
	"context"
	"errors"
	"fmt"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// ClusterClients give the client of the cluster behind a Target: in lscli
// the simulated cluster, or the real one for a Target set to use it (see
// deployers.TargetClusters).
type ClusterClients interface {
	ForTarget(ctx context.Context, target *lsv1alpha1.Target) (client.Client, error)
}

// ErrNoCluster is the error of the cluster-reading kubeconfig functions
// where there are no clusters: in a dry run.
var ErrNoCluster = errors.New("the function asks the cluster behind the target, and a dry run has no clusters")

// Clusters is what the kubeconfig functions that ask a cluster
// (getServiceAccountKubeconfig, getShootAdminKubeconfig and their
// WithExpirationTimestamp variants) need: the clusters behind Targets and
// how to read a Target's content.
type Clusters struct {
	// Context is the context of the cluster calls. Nil means
	// context.Background().
	Context context.Context
	// Clients reach the clusters. Nil means there are none: the functions
	// fail with ErrNoCluster.
	Clients ClusterClients
	// Resolve reads a Target's content. Nil reads spec.config only
	// (InlineTargets).
	Resolve TargetResolver
}

// ShootGVK is the kind of Gardener's Shoots, whose adminkubeconfig
// subresource getShootAdminKubeconfig asks for.
var ShootGVK = schema.GroupVersionKind{Group: "core.gardener.cloud", Version: "v1beta1", Kind: "Shoot"}

// AdminKubeconfigRequestGVK is the kind of the body of a Shoot's
// adminkubeconfig subresource.
var AdminKubeconfigRequestGVK = schema.GroupVersionKind{Group: "authentication.gardener.cloud", Version: "v1alpha1", Kind: "AdminKubeconfigRequest"}

// Subresource names of the requests the functions make.
const (
	// SubresourceToken is a ServiceAccount's TokenRequest subresource.
	SubresourceToken = "token"
	// SubresourceAdminKubeconfig is a Shoot's AdminKubeconfigRequest
	// subresource.
	SubresourceAdminKubeconfig = "adminkubeconfig"
)

// kubeconfigCall are the parsed arguments of a kubeconfig function: the
// object's name and namespace, the expiration seconds and the Target.
type kubeconfigCall struct {
	name, namespace string
	expiration      int64
	target          *lsv1alpha1.Target
}

// parseKubeconfigArgs checks the four arguments of a kubeconfig function as
// Landscaper checks them; fn and what name the function and its first
// arguments in the messages, target the fourth.
func parseKubeconfigArgs(fn, what, target string, args []any) (kubeconfigCall, error) {
	if len(args) != 4 {
		return kubeconfigCall{}, fmt.Errorf("%s expects 4 arguments: %s name, %s namespace, expiration seconds, and %s", fn, what, what, target)
	}
	var call kubeconfigCall
	var ok bool
	if call.name, ok = args[0].(string); !ok {
		return call, fmt.Errorf("%s expects a string as 1st argument, namely the %s name", fn, what)
	}
	if call.namespace, ok = args[1].(string); !ok {
		return call, fmt.Errorf("%s expects a string as 2nd argument, namely the %s namespace", fn, what)
	}
	var err error
	if call.expiration, err = toInt64(args[2]); err != nil {
		return call, fmt.Errorf("%s expects an integer as 3rd argument, namely the expiration seconds: %w", fn, err)
	}
	if call.target, err = parseTarget(fn, "4th", args[3]); err != nil {
		return call, err
	}
	return call, nil
}

// toInt64 converts the numbers templates pass (int in GoTemplate, int64 in
// Spiff, float64 from JSON) as Landscaper's toInt64 does: floats are
// truncated.
func toInt64(v any) (int64, error) {
	switch n := v.(type) {
	case int:
		return int64(n), nil
	case int8:
		return int64(n), nil
	case int16:
		return int64(n), nil
	case int32:
		return int64(n), nil
	case int64:
		return n, nil
	case float32:
		return int64(n), nil
	case float64:
		return int64(n), nil
	}
	return 0, fmt.Errorf("unsupported type %T", v)
}

// context returns the context of the cluster calls.
func (cl *Clusters) context() context.Context {
	if cl == nil || cl.Context == nil {
		return context.Background()
	}
	return cl.Context
}

// targetKubeconfig returns the kubeconfig of target's content; prefix
// starts the messages ("token client", "shoot client"), as Landscaper's do.
func (cl *Clusters) targetKubeconfig(prefix string, target *lsv1alpha1.Target) ([]byte, error) {
	var resolve TargetResolver
	if cl != nil {
		resolve = cl.Resolve
	}
	kubeconfig, err := resolveKubeconfig(prefix, resolve, target)
	if err != nil {
		return nil, err
	}
	if _, err := clientcmd.RESTConfigFromKubeConfig(kubeconfig); err != nil {
		return nil, fmt.Errorf("%s: unable to get rest config: %w%s", prefix, err, placeholderHint(target))
	}
	return kubeconfig, nil
}

// placeholderHint says what to do when a Target's kubeconfig names no
// server: lscli's deployers reach a simulated cluster with such a placeholder
// (docs/deployers.md), but the kubeconfig functions return a kubeconfig made
// from the Target's current context and its cluster.
func placeholderHint(target *lsv1alpha1.Target) string {
	return fmt.Sprintf(" (lscli: the kubeconfig of Target %s/%s names no server; lscli's deployers reach a simulated cluster with it, "+
		"but the function makes its kubeconfig from the Target's current context and its cluster: give the Target a kubeconfig "+
		"whose current context names a server, e.g. https://my-cluster.example:6443, and lscli asks that server's simulated cluster)",
		target.Namespace, target.Name)
}

// client returns the client of the cluster behind target.
func (cl *Clusters) client(prefix string, target *lsv1alpha1.Target) (client.Client, error) {
	if cl == nil || cl.Clients == nil {
		return nil, fmt.Errorf("%w; lscli reconcile asks the simulated cluster", ErrNoCluster)
	}
	c, err := cl.Clients.ForTarget(cl.context(), target)
	if err != nil {
		return nil, fmt.Errorf("%s: unable to reach the cluster of target %s/%s: %w", prefix, target.Namespace, target.Name, err)
	}
	return c, nil
}

// ServiceAccountKubeconfig implements getServiceAccountKubeconfig NAME
// NAMESPACE EXPIRATION_SECONDS TARGET (and, withExpiration,
// getServiceAccountKubeconfigWithExpirationTimestamp) as Landscaper's
// TokenClient does: it asks the cluster behind the Target for a token of
// the ServiceAccount (its TokenRequest subresource) and returns the
// Target's kubeconfig, reduced to its current context and that context's
// cluster, with the token as the context's only user, named after the
// ServiceAccount. The kubeconfig is base64-encoded; withExpiration returns
// a map of it (kubeconfig), the token's expiration in Unix seconds
// (expirationTimestamp) and as RFC 3339 (expirationTimestampReadable).
func (cl *Clusters) ServiceAccountKubeconfig(withExpiration bool, args ...any) (any, error) {
	const fn, prefix = "templating function getServiceAccountToken", "token client"
	call, err := parseKubeconfigArgs(fn, "service account", "target", args)
	if err != nil {
		return nil, err
	}
	kubeconfig, err := cl.targetKubeconfig(prefix, call.target)
	if err != nil {
		return nil, err
	}
	c, err := cl.client(prefix, call.target)
	if err != nil {
		return nil, err
	}
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: call.name, Namespace: call.namespace}}
	req := &authenticationv1.TokenRequest{Spec: authenticationv1.TokenRequestSpec{ExpirationSeconds: &call.expiration}}
	if err := c.SubResource(SubresourceToken).Create(cl.context(), sa, req); err != nil {
		return nil, fmt.Errorf("%s: token request failed: %w", prefix, err)
	}
	out, err := currentContextKubeconfig(prefix, kubeconfig, call.name, &clientcmdapi.AuthInfo{Token: req.Status.Token})
	if err != nil {
		return nil, err
	}
	return kubeconfigResult(out, req.Status.ExpirationTimestamp.Time, withExpiration), nil
}

// ShootAdminKubeconfig implements getShootAdminKubeconfig NAME NAMESPACE
// EXPIRATION_SECONDS TARGET (and, withExpiration,
// getShootAdminKubeconfigWithExpirationTimestamp) as Landscaper's
// ShootClient does: it asks the garden cluster behind the Target for an
// admin kubeconfig of the Shoot (its adminkubeconfig subresource) and
// returns what Gardener answers, the base64-encoded kubeconfig (or, with
// withExpiration, the map that ServiceAccountKubeconfig returns).
func (cl *Clusters) ShootAdminKubeconfig(withExpiration bool, args ...any) (any, error) {
	const fn, prefix = "templating function getShootAdminKubeconfig", "shoot client"
	call, err := parseKubeconfigArgs(fn, "shoot", "target for garden project ", args)
	if err != nil {
		return nil, err
	}
	if _, err := cl.targetKubeconfig(prefix, call.target); err != nil {
		return nil, err
	}
	c, err := cl.client(prefix, call.target)
	if err != nil {
		return nil, err
	}
	shoot := &unstructured.Unstructured{}
	shoot.SetGroupVersionKind(ShootGVK)
	shoot.SetName(call.name)
	shoot.SetNamespace(call.namespace)
	req := &unstructured.Unstructured{Object: map[string]any{
		"metadata": map[string]any{"name": call.name, "namespace": call.namespace},
		"spec":     map[string]any{"expirationSeconds": call.expiration},
	}}
	req.SetGroupVersionKind(AdminKubeconfigRequestGVK)
	if err := c.SubResource(SubresourceAdminKubeconfig).Create(cl.context(), shoot, req); err != nil {
		hint := ""
		if meta.IsNoMatchError(err) {
			hint = " (lscli: the cluster behind the Target serves no Shoots, as a garden cluster does with Gardener's " +
				"CustomResourceDefinition shoots.core.gardener.cloud: for a simulated cluster, seed it with simulatedCluster.seeds)"
		}
		return nil, fmt.Errorf("%s: admin kubeconfig request failed: %w%s", prefix, err, hint)
	}
	kubeconfig, found, err := unstructured.NestedString(req.Object, "status", "kubeconfig")
	if err != nil {
		return nil, fmt.Errorf("%s: could not get kubeconfig from result: %w", prefix, err)
	} else if !found {
		return nil, fmt.Errorf("%s: could not find kubeconfig in result", prefix)
	}
	raw, found, err := unstructured.NestedString(req.Object, "status", "expirationTimestamp")
	if err != nil {
		return nil, fmt.Errorf("%s: could not get expiration timestamp from result: %w", prefix, err)
	} else if !found {
		return nil, fmt.Errorf("%s: could not find expiration timestamp in result", prefix)
	}
	var expiration metav1.Time
	if err := expiration.UnmarshalQueryParameter(raw); err != nil {
		return nil, fmt.Errorf("error converting raw expiration timestamp '%s' to metav1.Time: %w", raw, err)
	}
	return kubeconfigResult(kubeconfig, expiration.UTC(), withExpiration), nil
}

// kubeconfigResult is the result of a kubeconfig function: the kubeconfig,
// or with withExpiration Landscaper's map of it and its expiration.
func kubeconfigResult(kubeconfig string, expiration time.Time, withExpiration bool) any {
	if !withExpiration {
		return kubeconfig
	}
	return map[string]any{
		"kubeconfig":                  kubeconfig,
		"expirationTimestamp":         expiration.Unix(),
		"expirationTimestampReadable": expiration.UTC().Format(time.RFC3339),
	}
}
