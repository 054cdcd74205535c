package helm

import (
	"encoding/json"
	"errors"
	"strconv"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	sigsjson "sigs.k8s.io/json"
)

// dropUnknownFields removes from u the fields its kind does not have, as
// kube-apiserver does with the objects helm writes: helm's kube client sends
// no fieldValidation parameter (helm.sh/helm/v3 pkg/kube/client.go,
// createResource and the patches of updateResource), and its Build skips
// client-side validation when the server supports that parameter
// (k8s.io/kubectl pkg/validation, paramVerifyingSchema), so the server's
// default, Warn, applies: unknown fields are dropped and the rest is stored.
// lscli writes with server-side apply, which refuses unknown fields, so they
// go first. Only kinds of scheme are known; others (custom resources) are
// left as they are.
func dropUnknownFields(scheme *runtime.Scheme, u *unstructured.Unstructured) {
	if scheme == nil {
		return
	}
	typed, err := scheme.New(u.GroupVersionKind())
	if err != nil {
		return
	}
	js, err := json.Marshal(u.Object)
	if err != nil {
		return
	}
	strict, err := sigsjson.UnmarshalStrict(js, typed, sigsjson.DisallowUnknownFields)
	if err != nil {
		return
	}
	for _, e := range strict {
		var fe sigsjson.FieldError
		if errors.As(e, &fe) {
			removePath(u.Object, "", fe.FieldPath())
		}
	}
}

// removePath deletes the field at path (as sigs.k8s.io/json words paths:
// keys joined by ".", list indexes as "[i]") from node, whose own path is
// prefix. Map keys may hold dots, so the path is matched by building the
// paths of the fields under node, not by splitting it.
func removePath(node any, prefix, path string) bool {
	switch v := node.(type) {
	case map[string]any:
		for k, child := range v {
			p := k
			if prefix != "" {
				p = prefix + "." + k
			}
			if p == path {
				delete(v, k)
				return true
			}
			if len(p) < len(path) && path[:len(p)] == p && removePath(child, p, path) {
				return true
			}
		}
	case []any:
		for i, child := range v {
			p := prefix + "[" + strconv.Itoa(i) + "]"
			if len(p) < len(path) && path[:len(p)] == p && removePath(child, p, path) {
				return true
			}
		}
	}
	return false
}
