package simcluster

import (
	"context"
	"fmt"
	"sort"

	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// kube-controller-manager's clusterrole-aggregation controller
// (k8s.io/kubernetes pkg/controller/clusterroleaggregation) writes the
// rules of every ClusterRole with an aggregationRule: those of the
// ClusterRoles its selectors select, selector by selector, the roles by
// name, each rule once, the role itself left out. It looks again at every
// such role whenever any ClusterRole is added, changed or deleted, so a
// chain of aggregating roles settles. Crossplane's chart binds its pod's
// ServiceAccount to one (ClusterRole crossplane, whose rules come from
// crossplane:system:aggregate-to-crossplane).

// clusterRoleGroupKind is the group and kind of ClusterRoles.
var clusterRoleGroupKind = schema.GroupKind{Group: rbacv1.GroupName, Kind: "ClusterRole"}

// aggregationManager is the field manager of the controller's writes.
const aggregationManager = "clusterrole-aggregation-controller"

// aggregateClusterRoles writes the aggregated rules of every aggregating
// ClusterRole that does not have them, until none changes (a role that is
// aggregated into another may have changed). The caller holds the lock.
func (c *Cluster) aggregateClusterRoles(ctx context.Context) error {
	list := &rbacv1.ClusterRoleList{}
	if err := c.inner.List(ctx, list); err != nil {
		return fmt.Errorf("simulated cluster %s: clusterrole aggregation: %w", c.key, err)
	}
	// Each pass settles at least one more link of a chain; a chain is no
	// longer than the number of roles.
	for pass := 0; pass <= len(list.Items); pass++ {
		if pass > 0 {
			if err := c.inner.List(ctx, list); err != nil {
				return fmt.Errorf("simulated cluster %s: clusterrole aggregation: %w", c.key, err)
			}
		}
		sort.Slice(list.Items, func(i, j int) bool { return list.Items[i].Name < list.Items[j].Name })
		changed := false
		for i := range list.Items {
			role := &list.Items[i]
			if role.AggregationRule == nil {
				continue
			}
			rules, err := aggregatedRules(role, list.Items)
			if err != nil {
				continue // the controller retries a selector it cannot parse, to no end
			}
			if equality.Semantic.DeepEqual(rules, role.Rules) {
				continue
			}
			role.Rules = rules
			if err := c.inner.Update(ctx, role, client.FieldOwner(aggregationManager)); err != nil {
				return fmt.Errorf("simulated cluster %s: clusterrole aggregation: update ClusterRole %s: %w", c.key, role.Name, err)
			}
			changed = true
		}
		if !changed {
			return nil
		}
	}
	return nil
}

// aggregatedRules are the rules the controller gives role, from roles
// (sorted by name).
func aggregatedRules(role *rbacv1.ClusterRole, roles []rbacv1.ClusterRole) ([]rbacv1.PolicyRule, error) {
	out := []rbacv1.PolicyRule{}
	for i := range role.AggregationRule.ClusterRoleSelectors {
		sel, err := metav1.LabelSelectorAsSelector(&role.AggregationRule.ClusterRoleSelectors[i])
		if err != nil {
			return nil, err
		}
		for _, other := range roles {
			if other.Name == role.Name || !sel.Matches(labels.Set(other.Labels)) {
				continue
			}
			for _, r := range other.Rules {
				if !containsRule(out, r) {
					out = append(out, r)
				}
			}
		}
	}
	return out, nil
}

// containsRule reports whether rules has one semantically equal to r.
func containsRule(rules []rbacv1.PolicyRule, r rbacv1.PolicyRule) bool {
	for _, have := range rules {
		if equality.Semantic.DeepEqual(have, r) {
			return true
		}
	}
	return false
}
