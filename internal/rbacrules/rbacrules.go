// Package rbacrules finds the RBAC rules a ServiceAccount is granted, from
// the bindings and roles stored on a cluster, as kube-apiserver's RBAC
// authorizer reads them. The simulated clusters use it to tell what a Job
// may have written (deployers/simcluster), the helm deployer whether a hook
// Job may apply CRDs (deployers/helm).
package rbacrules

import (
	"context"
	"fmt"

	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// ServiceAccount returns the rules of the Roles and ClusterRoles bound to
// ServiceAccount ns/sa that exist (a binding to a missing role grants
// nothing), in the order of the bindings: those of the RoleBindings of ns
// first, then of the ClusterRoleBindings. A ClusterRole bound by a
// RoleBinding grants its rules in ns only. clusterWide leaves the
// RoleBindings out: what is left grants access to cluster-scoped kinds
// too, which a RoleBinding never does.
func ServiceAccount(ctx context.Context, r client.Reader, ns, sa string, clusterWide bool) ([]rbacv1.PolicyRule, error) {
	type binding struct {
		ns       string
		roleRef  rbacv1.RoleRef
		subjects []rbacv1.Subject
	}
	var bindings []binding
	if !clusterWide {
		rbs := &rbacv1.RoleBindingList{}
		if err := r.List(ctx, rbs, client.InNamespace(ns)); err != nil {
			return nil, fmt.Errorf("list RoleBindings of %s: %w", ns, err)
		}
		for _, b := range rbs.Items {
			bindings = append(bindings, binding{ns, b.RoleRef, b.Subjects})
		}
	}
	crbs := &rbacv1.ClusterRoleBindingList{}
	if err := r.List(ctx, crbs); err != nil {
		return nil, fmt.Errorf("list ClusterRoleBindings: %w", err)
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
			err = r.Get(ctx, client.ObjectKey{Namespace: b.ns, Name: b.roleRef.Name}, role)
			got = role.Rules
		case "ClusterRole":
			role := &rbacv1.ClusterRole{}
			err = r.Get(ctx, client.ObjectKey{Name: b.roleRef.Name}, role)
			got = role.Rules
		}
		switch {
		case apierrors.IsNotFound(err):
			continue // a binding to a role that does not exist grants nothing
		case err != nil:
			return nil, fmt.Errorf("get %s %s: %w", b.roleRef.Kind, b.roleRef.Name, err)
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
