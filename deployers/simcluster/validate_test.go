package simcluster

import (
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// TestValidateMeta: names by the rule of their kind, as kube-apiserver
// checks them on create, and labels on every write.
func TestValidateMeta(t *testing.T) {
	rbac := func(kind string) schema.GroupKind {
		return schema.GroupKind{Group: "rbac.authorization.k8s.io", Kind: kind}
	}
	for _, c := range []struct {
		gk     schema.GroupKind
		name   string
		labels map[string]string
		create bool
		ok     bool
	}{
		{schema.GroupKind{Kind: "ConfigMap"}, "settings.v1", nil, true, true},
		{schema.GroupKind{Kind: "ConfigMap"}, "componentInfo", nil, true, false},
		{schema.GroupKind{Kind: "ConfigMap"}, "componentInfo", nil, false, true}, // an update does not check the name
		{schema.GroupKind{Kind: "Namespace"}, "a.b", nil, true, false},
		{schema.GroupKind{Kind: "Service"}, "1web", nil, true, false},
		{schema.GroupKind{Kind: "Service"}, "web", nil, true, true},
		{rbac("ClusterRole"), "system:Admin", nil, true, true},
		{rbac("ClusterRole"), "a/b", nil, true, false},
		{schema.GroupKind{Group: "apps", Kind: "Deployment"}, "web", map[string]string{"app": "web"}, false, true},
		{schema.GroupKind{Group: "apps", Kind: "Deployment"}, "web", map[string]string{"app": "-web"}, false, false},
	} {
		obj := &metav1.ObjectMeta{Name: c.name, Labels: c.labels}
		err := validateMeta(c.gk, obj, c.create)
		if (err == nil) != c.ok || err != nil && !apierrors.IsInvalid(err) {
			t.Errorf("%s %q (labels %v, create %v): %v, want ok %v", c.gk.Kind, c.name, c.labels, c.create, err, c.ok)
		}
	}
}
