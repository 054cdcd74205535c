package simcluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/client"
	kjson "sigs.k8s.io/json"
)

// undecodablePatch returns err, the error of a patch of obj (kind gvk)
// that the fake client could not do, as kube-apiserver words a patch whose
// result does not decode into the kind's type (k8s.io/apiserver
// pkg/endpoints/handlers/patch.go; TestRealClusterUndecodablePatch
// compares them with a real kube-apiserver's):
//   - a JSON or merge patch: Invalid, `"" is invalid: patch: Invalid value:
//     "PATCHED": ERR`, PATCHED the patched object as JSON;
//   - a strategic merge patch: Invalid, the same with the patch printed as
//     a Go map and the converter's error (e.g. `unrecognized type: string`);
//   - a server-side apply of an unstructured object: the field manager's
//     `failed to create typed patch object (NS/NAME; GVK): ...` with status
//     code 500.
//
// Any other error, and any error of a kind without a Go type, is returned
// as it is. The caller holds the lock.
func (cc *clusterClient) undecodablePatch(ctx context.Context, gvk schema.GroupVersionKind, obj client.Object, patch client.Patch, err error) error {
	var status apierrors.APIStatus
	if errors.As(err, &status) {
		return err
	}
	if patch.Type() == types.ApplyPatchType {
		u, ok := obj.(*unstructured.Unstructured)
		if !ok {
			return err
		}
		if _, terr := builtinConverter().ObjectToTyped(u); terr != nil {
			return &apierrors.StatusError{ErrStatus: metav1.Status{Status: metav1.StatusFailure, Code: http.StatusInternalServerError,
				Message: fmt.Sprintf("failed to create typed patch object (%s/%s; %s): %v", u.GetNamespace(), u.GetName(), gvk, terr)}}
		}
		return err
	}
	newTyped := func() runtime.Object {
		o, nerr := cc.c.scheme.New(gvk)
		if nerr != nil {
			return nil
		}
		if _, ok := o.(runtime.Unstructured); ok {
			return nil
		}
		return o
	}
	stored := newTyped()
	if stored == nil {
		return err
	}
	if cc.c.inner.Get(ctx, client.ObjectKeyFromObject(obj), stored.(client.Object)) != nil {
		return err
	}
	stored.GetObjectKind().SetGroupVersionKind(gvk)
	data, perr := patch.Data(obj)
	if perr != nil {
		return err
	}
	invalid := func(value string, cause error) error {
		return apierrors.NewInvalid(schema.GroupKind{}, "", field.ErrorList{field.Invalid(field.NewPath("patch"), value, cause.Error())})
	}
	switch patch.Type() {
	case types.JSONPatchType, types.MergePatchType:
		current, merr := json.Marshal(stored)
		if merr != nil {
			return err
		}
		var patched []byte
		if patch.Type() == types.MergePatchType {
			patched, perr = jsonpatch.MergePatch(current, data)
		} else {
			var ops jsonpatch.Patch
			if ops, perr = jsonpatch.DecodePatch(data); perr == nil {
				patched, perr = ops.Apply(current)
			}
		}
		if perr != nil {
			return err
		}
		if derr := kjson.UnmarshalCaseSensitivePreserveInts(patched, newTyped()); derr != nil {
			return invalid(string(patched), derr)
		}
	case types.StrategicMergePatchType:
		original, cerr := runtime.DefaultUnstructuredConverter.ToUnstructured(stored)
		if cerr != nil {
			return err
		}
		patchMap := map[string]any{}
		if kjson.UnmarshalCaseSensitivePreserveInts(data, &patchMap) != nil {
			return err
		}
		patched, serr := strategicpatch.StrategicMergeMapPatch(original, patchMap, newTyped())
		if serr != nil {
			return err
		}
		if derr := runtime.DefaultUnstructuredConverter.FromUnstructuredWithValidation(patched, newTyped(), false); derr != nil {
			return invalid(fmt.Sprintf("%+v", patchMap), derr)
		}
	}
	return err
}
