package simcluster

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/component-helpers/auth/rbac/validation"
	"sigs.k8s.io/controller-runtime/pkg/client"
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
	rules, err := c.serviceAccountRules(ctx, ns, sa)
	if err != nil || len(rules) == 0 {
		return nil, err
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

// serviceAccountRules are the rules of the Roles and ClusterRoles bound to
// ServiceAccount ns/sa by the RoleBindings of ns and the
// ClusterRoleBindings, that exist. A rule of a ClusterRole bound by a
// RoleBinding holds in ns only, which is all it is asked about here.
func (c *Cluster) serviceAccountRules(ctx context.Context, ns, sa string) ([]rbacv1.PolicyRule, error) {
	rbs := &rbacv1.RoleBindingList{}
	if err := c.inner.List(ctx, rbs, client.InNamespace(ns)); err != nil {
		return nil, fmt.Errorf("simulated cluster %s: list RoleBindings of %s: %w", c.key, ns, err)
	}
	crbs := &rbacv1.ClusterRoleBindingList{}
	if err := c.inner.List(ctx, crbs); err != nil {
		return nil, fmt.Errorf("simulated cluster %s: list ClusterRoleBindings: %w", c.key, err)
	}
	type binding struct {
		ns       string
		roleRef  rbacv1.RoleRef
		subjects []rbacv1.Subject
	}
	var bindings []binding
	for _, b := range rbs.Items {
		bindings = append(bindings, binding{ns, b.RoleRef, b.Subjects})
	}
	for _, b := range crbs.Items {
		bindings = append(bindings, binding{"", b.RoleRef, b.Subjects})
	}
	var rules []rbacv1.PolicyRule
	for _, b := range bindings {
		if !bindsServiceAccount(b.subjects, ns, sa) {
			continue
		}
		var got []rbacv1.PolicyRule
		var err error
		switch b.roleRef.Kind {
		case "Role":
			role := &rbacv1.Role{}
			err = c.inner.Get(ctx, client.ObjectKey{Namespace: b.ns, Name: b.roleRef.Name}, role)
			got = role.Rules
		case "ClusterRole":
			role := &rbacv1.ClusterRole{}
			err = c.inner.Get(ctx, client.ObjectKey{Name: b.roleRef.Name}, role)
			got = role.Rules
		}
		switch {
		case apierrors.IsNotFound(err):
			continue // a binding to a role that does not exist grants nothing
		case err != nil:
			return nil, fmt.Errorf("simulated cluster %s: get %s %s: %w", c.key, b.roleRef.Kind, b.roleRef.Name, err)
		}
		rules = append(rules, got...)
	}
	return rules, nil
}

// bindsServiceAccount reports whether subjects name ServiceAccount ns/sa.
func bindsServiceAccount(subjects []rbacv1.Subject, ns, sa string) bool {
	for _, s := range subjects {
		if s.Kind == rbacv1.ServiceAccountKind && s.Name == sa && s.Namespace == ns {
			return true
		}
	}
	return false
}
