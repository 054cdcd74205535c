package simcluster

import (
	"context"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// TestWorkloadSelector: kube-apiserver refuses an apps/v1 workload without
// a selector, with an empty one, or whose template labels the selector does
// not match (k8s.io/kubernetes pkg/apis/apps/validation ValidateDeploymentSpec,
// ValidateReplicaSetSpec, ValidateStatefulSetSpec, ValidateDaemonSetSpec), on
// create and on update; a kustomize base applied unbuilt (commonLabels not
// filled in) is refused so.
func TestWorkloadSelector(t *testing.T) {
	const head = "apiVersion: apps/v1\nmetadata: {name: web, namespace: default}\n"
	const tmpl = "  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: c, image: nginx}]}\n"
	const bare = "  template:\n    spec: {containers: [{name: c, image: nginx}]}\n"
	for _, c := range []struct {
		name, manifest, want string
	}{
		{"deployment ok", head + "kind: Deployment\nspec:\n  selector: {matchLabels: {app: web}}\n" + tmpl, ""},
		{"deployment without selector", head + "kind: Deployment\nspec:\n" + bare,
			`Deployment.apps "web" is invalid: [spec.selector: Required value, spec.template.metadata.labels: Invalid value: null: ` + "`selector` does not match template `labels`]"},
		{"deployment empty selector", head + "kind: Deployment\nspec:\n  selector: {}\n" + tmpl,
			`Deployment.apps "web" is invalid: spec.selector: Invalid value: {}: empty selector is invalid for deployment`},
		{"deployment mismatch", head + "kind: Deployment\nspec:\n  selector: {matchLabels: {app: api}}\n" + tmpl,
			`Deployment.apps "web" is invalid: spec.template.metadata.labels: Invalid value: {"app":"web"}: ` + "`selector` does not match template `labels`"},
		{"replicaset without selector", head + "kind: ReplicaSet\nspec:\n" + bare,
			`ReplicaSet.apps "web" is invalid: [spec.selector: Required value, spec.template.metadata.labels: Invalid value: null: ` + "`selector` does not match template `labels`]"},
		{"statefulset empty selector", head + "kind: StatefulSet\nspec:\n  selector: {}\n" + tmpl,
			`StatefulSet.apps "web" is invalid: spec.selector: Invalid value: {}: empty selector is invalid for statefulset`},
		{"daemonset without selector", head + "kind: DaemonSet\nspec:\n" + bare,
			`DaemonSet.apps "web" is invalid: spec.template.metadata.labels: Invalid value: null: ` + "`selector` does not match template `labels`"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			err := f.c.Create(context.Background(), obj(t, c.manifest))
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("create: %v", err)
			case c.want != "" && (err == nil || !apierrors.IsInvalid(err) || err.Error() != c.want):
				t.Fatalf("create: %v\nwant Invalid: %s", err, c.want)
			}
		})
	}

	// An update that drops the selector's match is refused too.
	f := newFixture(t)
	f.create(head + "kind: Deployment\nspec:\n  selector: {matchLabels: {app: web}}\n" + tmpl)
	u := f.get("apps/v1", "Deployment", "default", "web")
	u.SetManagedFields(nil)
	if err := unstructured.SetNestedStringMap(u.Object, map[string]string{"app": "other"}, "spec", "template", "metadata", "labels"); err != nil {
		t.Fatal(err)
	}
	err := f.c.Update(context.Background(), u)
	want := `Deployment.apps "web" is invalid: spec.template.metadata.labels: Invalid value: {"app":"other"}: ` + "`selector` does not match template `labels`"
	if err == nil || err.Error() != want {
		t.Fatalf("update: %v\nwant %s", err, want)
	}
}
