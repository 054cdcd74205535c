package simcluster

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/gardener/landscaper/apis/core/v1alpha1/targettypes"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/yaml"

	"github.com/lscli/lscli/deployers/realcluster"
	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/internal/semantic"
)

// SelfKey is the key of the cluster behind selfConfig Targets: the
// simulation's own API server, where the Landscaper objects live.
const SelfKey = "self"

// Key returns the key of the cluster behind target, which identifies the
// cluster, not the Target:
//
//   - a Target whose kubeconfig (spec.config.kubeconfig, or the Secret of
//     spec.secretRef) names a server is the cluster of that server: the
//     server of the kubeconfig's current context (or of its only context,
//     or its only cluster). Every Target, and every copy Landscaper makes
//     of one for an import, that reaches that server shares one cluster,
//     whatever its user or context name;
//   - a Target with oidcConfig is the cluster of its server, as one whose
//     kubeconfig names that server;
//   - a Target with selfConfig is SelfKey;
//   - any other Target (no kubeconfig, or one that does not parse) is its
//     own cluster, "namespace/name"; a copy of such a Target (labelled
//     with data.landscaper.gardener.cloud/sourceType) is the cluster of
//     the Target it copies: the first by name in its namespace with the
//     same spec and no such label.
//
// landscape reads Secrets and Targets; nil leaves Targets with a secretRef
// and copies on their own key. A Secret that cannot be read is an error.
func Key(ctx context.Context, target *lsv1alpha1.Target, landscape fakecluster.Reader) (string, error) {
	if key, ok, err := kubeconfigKey(ctx, target, landscape); ok || err != nil {
		return key, err
	}
	if landscape != nil && target.Labels[lsv1alpha1.DataObjectSourceTypeLabel] != "" {
		orig, err := original(ctx, target, landscape)
		if err != nil || orig != nil {
			return targetKey(orig), err
		}
	}
	return targetKey(target), nil
}

// targetKey is the key of a cluster that only one Target (and its copies)
// reaches.
func targetKey(t *lsv1alpha1.Target) string { return t.Namespace + "/" + t.Name }

// kubeconfigKey returns the server (or SelfKey) that target's configuration
// names, by its kubeconfig, oidcConfig or selfConfig in Landscaper's order;
// ok is false when it names none.
func kubeconfigKey(ctx context.Context, target *lsv1alpha1.Target, landscape fakecluster.Reader) (key string, ok bool, err error) {
	if target.Spec.SecretRef != nil && landscape == nil {
		return "", false, nil
	}
	if target.Spec.SecretRef == nil && (target.Spec.Configuration == nil || len(target.Spec.Configuration.RawMessage) == 0) {
		return "", false, nil
	}
	content, err := realcluster.TargetContent(ctx, target, landscape)
	if err != nil {
		return "", false, fmt.Errorf("cluster of target %s/%s: %w", target.Namespace, target.Name, err)
	}
	key, ok = contentKey(content)
	return key, ok, nil
}

// contentKeys keeps contentKey's answers by the content they were read
// from: every deploy item's reconcile asks for its Target's cluster
// several times, and a Target's content parsed as YAML and its kubeconfig
// loaded were 4 % of the allocations of a landscape of helm releases. The
// answer depends on the content alone; the memo forgets everything once
// it holds maxContentKeys contents.
var contentKeys = struct {
	sync.Mutex
	m map[string]contentKeyAnswer
}{m: map[string]contentKeyAnswer{}}

// maxContentKeys bounds contentKeys.
const maxContentKeys = 4096

// contentKeyAnswer is one answer of contentKey.
type contentKeyAnswer struct {
	key string
	ok  bool
}

// contentKey is kubeconfigKey's answer for a Target's content (its
// configuration, or its Secret's kubeconfig), kept in contentKeys.
func contentKey(content []byte) (string, bool) {
	contentKeys.Lock()
	a, found := contentKeys.m[string(content)]
	contentKeys.Unlock()
	if found {
		return a.key, a.ok
	}
	a.key, a.ok = readContentKey(content)
	contentKeys.Lock()
	if len(contentKeys.m) >= maxContentKeys {
		clear(contentKeys.m)
	}
	contentKeys.m[string(content)] = a
	contentKeys.Unlock()
	return a.key, a.ok
}

// readContentKey reads the cluster key of a Target's content.
func readContentKey(content []byte) (string, bool) {
	cfg := &targettypes.KubernetesClusterTargetConfig{}
	if yaml.Unmarshal(content, cfg) != nil {
		return "", false
	}
	switch {
	case cfg.Kubeconfig.StrVal != nil:
		server := serverOf([]byte(*cfg.Kubeconfig.StrVal))
		return server, server != ""
	case cfg.OIDCConfig != nil:
		// Landscaper's deployers reach oidcConfig.server with a token of
		// the Target's ServiceAccount (NewTargetAccess in
		// pkg/deployer/lib/target_access.go): the same cluster as every
		// kubeconfig that names that server.
		server := strings.TrimSuffix(cfg.OIDCConfig.Server, "/")
		return server, server != ""
	default:
		return SelfKey, cfg.SelfConfig != nil
	}
}

// serverOf returns the server of kubeconfig's current context, or "".
func serverOf(kubeconfig []byte) string {
	cfg, err := clientcmd.Load(kubeconfig)
	if err != nil {
		return ""
	}
	name := cfg.CurrentContext
	if name == "" && len(cfg.Contexts) == 1 {
		for n := range cfg.Contexts {
			name = n
		}
	}
	cluster := ""
	if c, ok := cfg.Contexts[name]; ok {
		cluster = c.Cluster
	} else if name == "" && len(cfg.Clusters) == 1 {
		for n := range cfg.Clusters {
			cluster = n
		}
	}
	if c, ok := cfg.Clusters[cluster]; ok {
		return strings.TrimSuffix(c.Server, "/")
	}
	return ""
}

// original finds the Target that copy was copied from, or nil.
func original(ctx context.Context, copy *lsv1alpha1.Target, landscape fakecluster.Reader) (*lsv1alpha1.Target, error) {
	list := &lsv1alpha1.TargetList{}
	if err := landscape.List(ctx, list, fakecluster.ListOptions{Namespace: copy.Namespace}); err != nil {
		return nil, fmt.Errorf("list targets in %s: %w", copy.Namespace, err)
	}
	sort.Slice(list.Items, func(i, j int) bool { return list.Items[i].Name < list.Items[j].Name })
	for i := range list.Items {
		t := &list.Items[i]
		if t.Labels[lsv1alpha1.DataObjectSourceTypeLabel] == "" && sameSpec(t, copy) {
			return t, nil
		}
	}
	return nil, nil
}

// sameSpec reports whether a and b have the same type and configuration.
func sameSpec(a, b *lsv1alpha1.Target) bool {
	if a.Spec.Type != b.Spec.Type || !semantic.DeepEqual(a.Spec.SecretRef, b.Spec.SecretRef) {
		return false
	}
	return jsonEqual(rawConfig(a), rawConfig(b))
}

func rawConfig(t *lsv1alpha1.Target) []byte {
	if t.Spec.Configuration == nil {
		return nil
	}
	return t.Spec.Configuration.RawMessage
}

// jsonEqual compares two JSON documents by value.
func jsonEqual(a, b []byte) bool {
	if len(a) == 0 || len(b) == 0 {
		return len(a) == len(b)
	}
	var va, vb any
	if json.Unmarshal(a, &va) != nil || json.Unmarshal(b, &vb) != nil {
		return string(a) == string(b)
	}
	return semantic.DeepEqual(va, vb)
}

// isServerKey reports whether key names a cluster by its server (or is
// SelfKey) rather than by one Target.
func isServerKey(key string) bool {
	return key == SelfKey || !strings.Contains(key, "/") || strings.Contains(key, "://")
}
