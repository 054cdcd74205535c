package simcluster

import (
	"context"
	"encoding/json"
	"testing"

	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// TestClusterRoleAggregation: a ClusterRole with an aggregationRule gets
// the rules of the ClusterRoles its selectors select (by name, each rule
// once, not its own), and keeps them up to date when those roles change or
// go, as kube-controller-manager's clusterrole-aggregation controller does
// (Crossplane's chart binds its pod to such a role). A role that is
// selected and aggregates too passes on what it aggregated.
func TestClusterRoleAggregation(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.create(`{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRole","metadata":{"name":"crossplane"},"aggregationRule":{"clusterRoleSelectors":[{"matchLabels":{"agg":"crossplane"}}]}}`,
		`{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRole","metadata":{"name":"b-system","labels":{"agg":"crossplane"}},"rules":[{"apiGroups":[""],"resources":["secrets"],"verbs":["get"]}]}`,
		`{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRole","metadata":{"name":"a-extra","labels":{"agg":"crossplane"}},"rules":[{"apiGroups":["apps"],"resources":["deployments"],"verbs":["*"]},{"apiGroups":[""],"resources":["secrets"],"verbs":["get"]}]}`,
		`{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRole","metadata":{"name":"outer"},"aggregationRule":{"clusterRoleSelectors":[{"matchLabels":{"agg":"outer"}}]}}`,
		`{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRole","metadata":{"name":"inner","labels":{"agg":"outer"}},"aggregationRule":{"clusterRoleSelectors":[{"matchLabels":{"agg":"crossplane"}}]}}`)
	rules := func(name string) string {
		t.Helper()
		role := &rbacv1.ClusterRole{}
		if err := f.c.Get(ctx, client.ObjectKey{Name: name}, role); err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(role.Rules)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	want := `[{"verbs":["*"],"apiGroups":["apps"],"resources":["deployments"]},{"verbs":["get"],"apiGroups":[""],"resources":["secrets"]}]`
	for _, name := range []string{"crossplane", "inner", "outer"} {
		if got := rules(name); got != want {
			t.Errorf("rules of %s = %s, want %s", name, got, want)
		}
	}
	if err := f.c.Delete(ctx, &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: "a-extra"}}); err != nil {
		t.Fatal(err)
	}
	want = `[{"verbs":["get"],"apiGroups":[""],"resources":["secrets"]}]`
	for _, name := range []string{"crossplane", "outer"} {
		if got := rules(name); got != want {
			t.Errorf("rules of %s after a-extra went = %s, want %s", name, got, want)
		}
	}
	// A writer that sets no rules (helm's upgrade of the chart's role) does
	// not keep them away: the controller writes them again.
	role := &rbacv1.ClusterRole{}
	if err := f.c.Get(ctx, client.ObjectKey{Name: "crossplane"}, role); err != nil {
		t.Fatal(err)
	}
	role.Rules = nil
	if err := f.c.Update(ctx, role); err != nil {
		t.Fatal(err)
	}
	if got := rules("crossplane"); got != want {
		t.Errorf("rules of crossplane after an update without them = %s, want %s", got, want)
	}
}
