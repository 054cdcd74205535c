package simcluster

import (
	"context"
	"fmt"

	"github.com/lscli/lscli/internal/rbacrules"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/component-helpers/auth/rbac/validation"
)

// Some Jobs write a Secret whose name no flag carries: argo-cd's
// redis-secret-init runs `argocd admin redis-initial-password`, which
// creates Secret argocd-redis, a name compiled into the command. The
// Job's RBAC names it instead: its ServiceAccount may create Secrets, and
// a rule of its Role names argocd-redis in resourceNames (to read it
// first). So a completed Job (or Pod) whose ServiceAccount may create
// Secrets (ConfigMaps) is taken to have written the Secrets (ConfigMaps)
// a rule of its roles names, as jobwrites.go does for named flags.

// roleWrites are the Secrets and ConfigMaps the ServiceAccount of spec, in
// namespace ns, may create and whose names a rule of its roles names, in
// the order of its bindings' and roles' rules, each once.
func (c *Cluster) roleWrites(ctx context.Context, ns string, spec *corev1.PodSpec) ([]namedWrite, error) {
	sa := serviceAccountOf(spec)
	if sa == "" {
		sa = "default"
	}
	rules, err := rbacrules.ServiceAccount(ctx, c.inner, ns, sa, false)
	if err != nil {
		return nil, fmt.Errorf("simulated cluster %s: %w", c.key, err)
	}
	if len(rules) == 0 {
		return nil, nil
	}
	var out []namedWrite
	for _, kind := range []struct {
		resource, flag string // flag: what writeOf reads as naming one
	}{{"secrets", "secret-name"}, {"configmaps", "configmap-name"}} {
		create := rbacv1.PolicyRule{APIGroups: []string{""}, Resources: []string{kind.resource}, Verbs: []string{"create"}}
		if ok, _ := validation.Covers(rules, []rbacv1.PolicyRule{create}); !ok {
			continue
		}
		seen := map[string]bool{}
		for _, r := range rules {
			if len(r.Verbs) == 0 {
				continue // grants nothing
			}
			for _, name := range r.ResourceNames {
				read := rbacv1.PolicyRule{APIGroups: []string{""}, Resources: []string{kind.resource}, Verbs: r.Verbs, ResourceNames: []string{name}}
				if ok, _ := validation.Covers([]rbacv1.PolicyRule{r}, []rbacv1.PolicyRule{read}); !ok || seen[name] {
					continue
				}
				if w, ok := writeOf(kind.flag, name); ok {
					seen[name] = true
					out = append(out, w)
				}
			}
		}
	}
	return out, nil
}
