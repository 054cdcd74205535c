package execution

import (
	"context"
	"errors"
	"fmt"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	lshelper "github.com/gardener/landscaper/apis/core/v1alpha1/helper"
	"github.com/gardener/landscaper/apis/core/v1alpha1/targettypes"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/yaml"

	"github.com/lscli/lscli/deployers/realcluster"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/reconcile"
)

// Annotation and label of onDelete.skipUninstallIfClusterRemoved, as
// Landscaper names them.
const (
	clusterNameAnnotation = lsv1alpha1.LandscaperDomain + "/clustername"
	targetSyncLabel       = lsv1alpha1.LandscaperDomain + "/targetsync"
	targetSyncLabelOK     = "ok"
)

// shootClusterName returns the name of the Gardener shoot cluster behind the
// Target of tmpl when tmpl has onDelete.skipUninstallIfClusterRemoved and its
// Target is managed by a TargetSync (label landscaper.gardener.cloud/
// targetsync: ok), else "". It is the first DNS label after "https://api." of
// the kubeconfig's server. As in Landscaper, a missing Target or a kubeconfig
// without such a server fails the execution's Init.
func (c *Controller) shootClusterName(ctx context.Context, exec *lsv1alpha1.Execution, tmpl lsv1alpha1.DeployItemTemplate) (string, error) {
	const op = "getShootClusterName"
	if tmpl.OnDelete == nil || !tmpl.OnDelete.SkipUninstallIfClusterRemoved || tmpl.Target == nil {
		return "", nil
	}
	ref := fmt.Sprintf("%s/%s", exec.Namespace, tmpl.Target.Name)
	target := &lsv1alpha1.Target{}
	if err := c.cfg.Cluster.Get(ctx, types.NamespacedName{Namespace: exec.Namespace, Name: tmpl.Target.Name}, target); err != nil {
		return "", reconcile.Wrap(err, op, "unable to fetch target "+ref)
	}
	if target.Labels[targetSyncLabel] != targetSyncLabelOK {
		return "", nil
	}
	kubeconfig, err := kubeconfigOf(ctx, c.cfg.Cluster, target)
	if err != nil {
		return "", reconcile.Wrap(err, op, "unable to retrieve kubeconfig from target "+ref)
	}
	name, err := shootNameFromKubeconfig(kubeconfig)
	if err != nil {
		return "", reconcile.Wrap(err, op, "unable to retrieve shoot cluster name from target "+ref)
	}
	return name, nil
}

// kubeconfigOf returns the kubeconfig of a kubernetes-cluster Target as
// Landscaper's SecretRefResolver.GetKubeconfigFromTarget reads it: the
// content of its configuration or of the Secret its secretRef names (the
// whole Secret as a map without key), decoded as YAML. The texts are
// Landscaper's, also its %w of a nil error when there is no kubeconfig.
func kubeconfigOf(ctx context.Context, r fakecluster.Reader, t *lsv1alpha1.Target) ([]byte, error) {
	const prefix = "target resolver: "
	content, err := realcluster.TargetContent(ctx, t, r)
	if err != nil && t.Spec.SecretRef != nil {
		return nil, errors.New(prefix + "failed to resolve target")
	}
	var cfg targettypes.KubernetesClusterTargetConfig
	if err := yaml.Unmarshal(content, &cfg); err != nil {
		return nil, fmt.Errorf(prefix+"failed to unmarshal target config: %w", err)
	}
	if cfg.Kubeconfig.StrVal == nil {
		return nil, errors.New(prefix + "target config contains no kubeconfig: %!w(<nil>)")
	}
	return []byte(*cfg.Kubeconfig.StrVal), nil
}

// shootNameFromKubeconfig returns the first DNS label after "https://api."
// of the server of the kubeconfig's current context.
func shootNameFromKubeconfig(kubeconfig []byte) (string, error) {
	cfg, err := clientcmd.Load(kubeconfig)
	if err != nil {
		return "", fmt.Errorf("clusters util: failed to load kubeconfig: %w", err)
	}
	kctx, ok := cfg.Contexts[cfg.CurrentContext]
	if !ok || kctx == nil {
		return "", fmt.Errorf("clusters util: current context not found")
	}
	cluster, ok := cfg.Clusters[kctx.Cluster]
	if !ok || cluster == nil {
		return "", fmt.Errorf("clusters util: current cluster not found")
	}
	const prefix = "https://api."
	if !strings.HasPrefix(cluster.Server, prefix) {
		return "", fmt.Errorf("clusters util: server url has unexpected format")
	}
	return strings.SplitN(strings.TrimPrefix(cluster.Server, prefix), ".", 2)[0], nil
}

// skipUninstall reports whether di's deletion skips its deployer, as
// Landscaper's skipUninstall decides: with the delete-without-uninstall
// annotation, or with onDelete.skipUninstallIfClusterRemoved when the shoot
// cluster recorded in its clustername annotation no longer exists. That
// needs exactly one TargetSync in the namespace, whose sourceNamespace is
// where the shoot is looked for; otherwise it is an error and the execution
// waits in its phase.
func (c *Controller) skipUninstall(ctx context.Context, di *lsv1alpha1.DeployItem) (bool, error) {
	const op = "skipUninstall"
	if lshelper.HasDeleteWithoutUninstallAnnotation(di.ObjectMeta) {
		return true, nil
	}
	if di.Spec.OnDelete == nil || !di.Spec.OnDelete.SkipUninstallIfClusterRemoved || di.Spec.Target == nil {
		return false, nil
	}
	shoot, ok := di.Annotations[clusterNameAnnotation]
	if !ok {
		return false, nil
	}
	syncs := &lsv1alpha1.TargetSyncList{}
	if err := c.cfg.Cluster.List(ctx, syncs, fakecluster.ListOptions{Namespace: di.Namespace}); err != nil {
		return false, reconcile.Wrap(err, op, "unable to retrieve targetsync object for namespace"+di.Namespace)
	}
	if len(syncs.Items) != 1 {
		return false, reconcile.NewError(op, "fetchTargetSync", "targetsync not found or not unique")
	}
	if c.cfg.Shoots == nil {
		return false, nil
	}
	return !c.cfg.Shoots.ShootExists(syncs.Items[0].Spec.SourceNamespace, shoot), nil
}
