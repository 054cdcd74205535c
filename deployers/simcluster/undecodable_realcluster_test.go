package simcluster

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/internal/testcluster"
)

// TestRealClusterUndecodablePatch sends a patch (of each type) and a
// server-side apply whose result does not decode into the kind's type (a
// Secret's stringData holding a bool) to a real kube-apiserver and to a
// simulated cluster: both fail alike.
func TestRealClusterUndecodablePatch(t *testing.T) {
	tc := testcluster.Get(t)
	ctx := context.Background()
	ns := tc.Namespace(t)
	f := newFixture(t)
	bad := `{"stringData":{"a":true}}`
	badApply := func(ns, name string) client.Object {
		return obj(t, `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"`+name+`","namespace":"`+ns+`"},"stringData":{"a":true}}`)
	}
	cases := []struct {
		name  string
		patch client.Patch
		obj   func(ns string) client.Object
		opts  []client.PatchOption
	}{
		{"merge", client.RawPatch(types.MergePatchType, []byte(bad)), nil, nil},
		{"strategic", client.RawPatch(types.StrategicMergePatchType, []byte(bad)), nil, nil},
		{"json", client.RawPatch(types.JSONPatchType, []byte(`[{"op":"add","path":"/stringData","value":{"a":true}}]`)), nil, nil},
		{"apply", client.Apply, func(ns string) client.Object { return badApply(ns, "s") }, []client.PatchOption{client.FieldOwner("t"), client.ForceOwnership}},
		{"apply-create", client.Apply, func(ns string) client.Object { return badApply(ns, "new") }, []client.PatchOption{client.FieldOwner("t")}},
	}
	for _, c := range []struct {
		cl client.Client
		ns string
	}{{f.c, "default"}, {tc.Client, ns}} {
		s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "s", Namespace: c.ns}, StringData: map[string]string{"a": "yes"}}
		if err := c.cl.Create(ctx, s, client.FieldOwner("test")); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			errOf := func(cl client.Client, ns string) string {
				var o client.Object = &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "s", Namespace: ns}}
				if tt.obj != nil {
					o = tt.obj(ns)
				}
				err := cl.Patch(ctx, o, tt.patch, tt.opts...)
				if err == nil {
					return "<nil>"
				}
				msg := volatile.ReplaceAllString(strings.ReplaceAll(err.Error(), ns, "NS"), `\"$1\":\"X\"`)
				return fmt.Sprintf("%s (%s, %d)", msg, apierrors.ReasonForError(err), code(err))
			}
			if s, r := errOf(f.c, "default"), errOf(tc.Client, ns); s != r {
				t.Errorf("error\nsimulated: %s\nreal:      %s", s, r)
			}
		})
	}
}

// volatile matches the fields of an object's JSON, in a message, that
// differ between clusters.
var volatile = regexp.MustCompile(`\\"(uid|resourceVersion|creationTimestamp|time)\\":\\"[^\\]*\\"`)

// code is err's HTTP status code, 0 for an error that is no API status.
func code(err error) int32 {
	var s apierrors.APIStatus
	if errors.As(err, &s) {
		return s.Status().Code
	}
	return 0
}
