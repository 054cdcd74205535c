package simcluster

import (
	"context"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

// TestUndecodableBodyIsKubeAPIServersBadRequest: a Secret whose stringData
// holds a bool cannot be decoded into the Secret type; the write fails as
// kube-apiserver fails it (transformDecodeError in k8s.io/apiserver's
// handlers, for its create and update handlers), a BadRequest naming the
// kind and version.
func TestUndecodableBodyIsKubeAPIServersBadRequest(t *testing.T) {
	f := newFixture(t)
	const want = `Secret in version "v1" cannot be handled as a Secret: json: cannot unmarshal bool into Go struct field Secret.stringData of type string`
	bad := "apiVersion: v1\nkind: Secret\nmetadata: {name: s, namespace: default}\nstringData: {a: true}\n"
	check := func(what string, err error) {
		t.Helper()
		if !apierrors.IsBadRequest(err) || err.Error() != want {
			t.Errorf("%s: %v, want the BadRequest %s", what, err, want)
		}
	}
	check("create", f.c.Create(context.Background(), obj(t, bad)))
	f.create("apiVersion: v1\nkind: Secret\nmetadata: {name: s, namespace: default}\nstringData: {a: \"yes\"}\n")
	live := f.get("v1", "Secret", "default", "s")
	u := obj(t, bad)
	u.SetResourceVersion(live.GetResourceVersion())
	check("update", f.c.Update(context.Background(), u))
}
