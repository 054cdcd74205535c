package rbacrules

import (
	"context"
	"slices"
	"testing"

	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
)

// rule is a rule granting get on resource, to tell the rules apart.
func rule(resource string) rbacv1.PolicyRule {
	return rbacv1.PolicyRule{APIGroups: []string{""}, Resources: []string{resource}, Verbs: []string{"get"}}
}

func resources(rules []rbacv1.PolicyRule) []string {
	var out []string
	for _, r := range rules {
		out = append(out, r.Resources...)
	}
	return out
}

// TestServiceAccount: the rules of the roles bound to the account, those
// of its namespace's RoleBindings first; a binding of another account, of
// another namespace, or to a role that does not exist grants nothing; with
// clusterWide only the ClusterRoleBindings count.
func TestServiceAccount(t *testing.T) {
	sa := rbacv1.Subject{Kind: rbacv1.ServiceAccountKind, Name: "job", Namespace: "app"}
	other := rbacv1.Subject{Kind: rbacv1.ServiceAccountKind, Name: "other", Namespace: "app"}
	objs := []runtime.Object{
		&rbacv1.Role{ObjectMeta: metav1.ObjectMeta{Name: "r", Namespace: "app"}, Rules: []rbacv1.PolicyRule{rule("secrets")}},
		&rbacv1.Role{ObjectMeta: metav1.ObjectMeta{Name: "r", Namespace: "elsewhere"}, Rules: []rbacv1.PolicyRule{rule("pods")}},
		&rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: "cr"}, Rules: []rbacv1.PolicyRule{rule("configmaps")}},
		&rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: "crds"}, Rules: []rbacv1.PolicyRule{rule("customresourcedefinitions")}},
		&rbacv1.RoleBinding{ObjectMeta: metav1.ObjectMeta{Name: "rb", Namespace: "app"},
			RoleRef: rbacv1.RoleRef{Kind: "Role", Name: "r"}, Subjects: []rbacv1.Subject{sa}},
		&rbacv1.RoleBinding{ObjectMeta: metav1.ObjectMeta{Name: "rb-cr", Namespace: "app"},
			RoleRef: rbacv1.RoleRef{Kind: "ClusterRole", Name: "cr"}, Subjects: []rbacv1.Subject{sa}},
		&rbacv1.RoleBinding{ObjectMeta: metav1.ObjectMeta{Name: "rb", Namespace: "elsewhere"},
			RoleRef: rbacv1.RoleRef{Kind: "Role", Name: "r"}, Subjects: []rbacv1.Subject{sa}},
		&rbacv1.RoleBinding{ObjectMeta: metav1.ObjectMeta{Name: "missing", Namespace: "app"},
			RoleRef: rbacv1.RoleRef{Kind: "Role", Name: "gone"}, Subjects: []rbacv1.Subject{sa}},
		&rbacv1.ClusterRoleBinding{ObjectMeta: metav1.ObjectMeta{Name: "crb"},
			RoleRef: rbacv1.RoleRef{Kind: "ClusterRole", Name: "crds"}, Subjects: []rbacv1.Subject{other, sa}},
		&rbacv1.ClusterRoleBinding{ObjectMeta: metav1.ObjectMeta{Name: "crb-other"},
			RoleRef: rbacv1.RoleRef{Kind: "ClusterRole", Name: "cr"}, Subjects: []rbacv1.Subject{other}},
	}
	c := fake.NewClientBuilder().WithRuntimeObjects(objs...).Build()
	for _, tt := range []struct {
		clusterWide bool
		want        []string
	}{
		{false, []string{"secrets", "configmaps", "customresourcedefinitions"}}, // rb, rb-cr, crb
		{true, []string{"customresourcedefinitions"}},
	} {
		got, err := ServiceAccount(context.Background(), c, "app", "job", tt.clusterWide)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(resources(got), tt.want) {
			t.Errorf("clusterWide %v: rules for %v, want %v", tt.clusterWide, resources(got), tt.want)
		}
	}
}
