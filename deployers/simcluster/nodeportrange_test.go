package simcluster

import (
	"context"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// TestNodePortRange pins kube-apiserver's refusal of a node port outside
// 30000-32767 (compared with a real one in
// nodeportrange_realcluster_test.go) on create and on an update that turns
// a ClusterIP Service into a NodePort one, as Harbor's chart does when
// expose.type changes.
func TestNodePortRange(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	const want = `422 Invalid Service "harbor" is invalid: spec.ports[0].nodePort: Invalid value: 80: provided port is not in the valid range. The range of valid ports is 30000-32767
cause FieldValueInvalid spec.ports[0].nodePort: Invalid value: 80: provided port is not in the valid range. The range of valid ports is 30000-32767`
	nodePort := "apiVersion: v1\nkind: Service\nmetadata: {name: harbor, namespace: default}\nspec:\n  type: NodePort\n  ports:\n  - {name: http, port: 80, nodePort: 80}\n  selector: {app: harbor}\n"
	if got := outcome(f.c.Create(ctx, obj(t, nodePort))); got != want {
		t.Errorf("create:\ngot  %s\nwant %s", got, want)
	}
	f.create("apiVersion: v1\nkind: Service\nmetadata: {name: harbor, namespace: default}\nspec:\n  ports:\n  - {name: http, port: 80}\n  selector: {app: harbor}\n")
	cur := &unstructured.Unstructured{}
	cur.SetAPIVersion("v1")
	cur.SetKind("Service")
	if err := f.c.Get(ctx, client.ObjectKey{Namespace: "default", Name: "harbor"}, cur); err != nil {
		t.Fatal(err)
	}
	next := obj(t, nodePort)
	next.SetResourceVersion(cur.GetResourceVersion())
	if got := outcome(f.c.Update(ctx, next)); got != want {
		t.Errorf("update:\ngot  %s\nwant %s", got, want)
	}
	// A port the Service holds stays; a stored one is in range anyway.
	inRange := "apiVersion: v1\nkind: Service\nmetadata: {name: ok, namespace: default}\nspec:\n  type: NodePort\n  ports:\n  - {name: http, port: 80, nodePort: 30002}\n  selector: {app: harbor}\n"
	if err := f.c.Create(ctx, obj(t, inRange)); err != nil {
		t.Errorf("in range: %v", err)
	}
}
