package simcluster

import (
	"context"
	"errors"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
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

// TestUndecodablePatchIsKubeAPIServersError: a patch whose result does not
// decode into the kind's type fails as kube-apiserver fails it
// (k8s.io/apiserver pkg/endpoints/handlers/patch.go): Invalid for a
// strategic merge patch (and a JSON or merge patch, with the patched
// object's JSON), the field manager's error with code 500 for a
// server-side apply (TestRealClusterUndecodablePatch compares all with a
// real kube-apiserver).
func TestUndecodablePatchIsKubeAPIServersError(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.create("apiVersion: v1\nkind: Secret\nmetadata: {name: s, namespace: default}\nstringData: {a: \"yes\"}\n")
	s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "s", Namespace: "default"}}
	err := f.c.Patch(ctx, s, client.RawPatch(types.StrategicMergePatchType, []byte(`{"stringData":{"a":true}}`)))
	if want := ` "" is invalid: patch: Invalid value: "map[stringData:map[a:true]]": unrecognized type: string`; !apierrors.IsInvalid(err) || err.Error() != want {
		t.Errorf("strategic merge patch: %v, want the Invalid %s", err, want)
	}
	err = f.c.Patch(ctx, s, client.RawPatch(types.MergePatchType, []byte(`{"stringData":{"a":true}}`)))
	if want := `": json: cannot unmarshal bool into Go struct field Secret.stringData of type string`; !apierrors.IsInvalid(err) ||
		!strings.HasPrefix(err.Error(), ` "" is invalid: patch: Invalid value: "{\"apiVersion\":\"v1\",\"data\":{\"a\":\"eWVz\"},\"kind\":\"Secret\",\"metadata\":{\"name\":\"s\"`) ||
		!strings.HasSuffix(err.Error(), want) {
		t.Errorf("merge patch: %v, want Invalid with the patched object and %s", err, want)
	}
	err = f.c.Patch(ctx, obj(t, `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"new","namespace":"default"},"stringData":{"a":true}}`),
		client.Apply, client.FieldOwner("t"))
	var status apierrors.APIStatus
	if want := `failed to create typed patch object (default/new; /v1, Kind=Secret): .stringData.a: expected string, got &value.valueUnstructured{Value:true}`; !errors.As(err, &status) ||
		status.Status().Code != 500 || err.Error() != want {
		t.Errorf("apply: %v, want the code 500 %s", err, want)
	}
}
