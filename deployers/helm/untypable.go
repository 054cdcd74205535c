package helm

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/lscli/lscli/internal/builtintypes"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// untypable reports whether err is the API server's refusal of a
// server-side apply whose object it cannot make a typed patch of: a 500
// "failed to create typed patch object", as for a list keyed by some
// fields that holds two items with the same key (two container ports with
// one number and protocol: Vector's chart with a source and a sink on one
// port). helm 3, which Landscaper's helm deployer runs, does not apply:
// it creates with a POST and updates with a strategic merge patch, which
// the API server takes (see createPlain and patchStrategic).
func untypable(err error) bool {
	var status *apierrors.StatusError
	return errors.As(err, &status) && status.ErrStatus.Code == http.StatusInternalServerError &&
		strings.HasPrefix(status.ErrStatus.Message, "failed to create typed patch object")
}

// applyOrCreate creates u, a new object, with server-side apply, or, when
// the API server cannot make a typed patch of it and it is of a built-in
// kind, with a plain create as
// helm's kube client does (Create, field manager helm's): the API server
// stores it, duplicates and all.
func (k *kubeClient) applyOrCreate(u *unstructured.Unstructured) error {
	_, err := k.apply(u)
	if !untypable(err) || !clientgoscheme.Scheme.Recognizes(u.GroupVersionKind()) {
		return err
	}
	obj := u.DeepCopy()
	obj.SetResourceVersion("")
	obj.SetManagedFields(nil)
	dropUnknownFields(k.c.Scheme(), obj)
	if cerr := k.c.Create(k.ctx, obj, client.FieldOwner(fieldManager)); cerr != nil {
		return fmt.Errorf("create %s %s: %w", u.GetKind(), objectName(u), cerr)
	}
	return nil
}

// builtinTypes is the type converter of the built-in kinds, from their
// OpenAPI schemas, as the API server's field manager has them (one per
// process, shared with the simulated cluster).
var builtinTypes = builtintypes.Converter

// untypableLive reports whether live, a stored object of a built-in kind,
// is one the API server's field manager cannot make a typed value of:
// one helm created with a POST after an apply was refused (applyOrCreate).
func untypableLive(live *unstructured.Unstructured) bool {
	if !clientgoscheme.Scheme.Recognizes(live.GroupVersionKind()) {
		return false
	}
	_, err := builtinTypes().ObjectToTyped(live)
	return err != nil
}

// applyOrPatch writes u over live, an object that exists, with
// server-side apply, or, when the API server cannot make a typed patch of
// u or the typed value of live (both of a kind with a Go type), with the
// patch helm's kube client sends (helm.sh/helm/v3 pkg/kube client.go
// createPatch): a three-way strategic merge patch from orig (the object as
// the release's last manifest has it; nil when it had none) to u over
// live. Such a patch merges list items by their key, so of two with one
// key only the first is kept, as on a real cluster. It returns the object
// as the API server answered.
func (k *kubeClient) applyOrPatch(orig, u, live *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	typed, terr := k.c.Scheme().New(u.GroupVersionKind())
	if _, generic := typed.(runtime.Unstructured); terr != nil || generic {
		return k.apply(u)
	}
	if !untypableLive(live) {
		after, err := k.apply(u)
		if !untypable(err) {
			return after, err
		}
	}
	meta, err := strategicpatch.NewPatchMetaFromStruct(typed)
	if err != nil {
		return nil, fmt.Errorf("patch %s %s: %w", u.GetKind(), objectName(u), err)
	}
	oldData := []byte("{}")
	if orig != nil {
		if oldData, err = json.Marshal(orig.Object); err != nil {
			return nil, err
		}
	}
	newData, err := json.Marshal(u.Object)
	if err != nil {
		return nil, err
	}
	curData, err := json.Marshal(live.Object)
	if err != nil {
		return nil, err
	}
	patch, err := strategicpatch.CreateThreeWayMergePatch(oldData, newData, curData, meta, true)
	if err != nil {
		return nil, fmt.Errorf("create patch for %s %s: %w", u.GetKind(), objectName(u), err)
	}
	after := live.DeepCopy()
	if err := k.c.Patch(k.ctx, after, client.RawPatch(types.StrategicMergePatchType, patch), client.FieldOwner(fieldManager)); err != nil {
		return nil, fmt.Errorf("patch %s %s: %w", u.GetKind(), objectName(u), err)
	}
	return after, nil
}
