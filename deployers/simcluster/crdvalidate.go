package simcluster

import (
	"context"
	"fmt"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsinstall "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/install"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	crdvalidation "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/lscli/lscli/internal/semantic"
)

// crdScheme converts CustomResourceDefinitions of apiextensions.k8s.io/v1
// to apiextensions-apiserver's internal type, which its validation takes.
var crdScheme = func() *runtime.Scheme {
	s := runtime.NewScheme()
	apiextensionsinstall.Install(s)
	return s
}()

// admitCRD does to obj, a CustomResourceDefinition being written (old: the
// stored one, nil on create), what apiextensions-apiserver's registry
// strategy does (pkg/registry/customresourcedefinition/strategy.go): the
// storage version is added to status.storedVersions (PrepareForCreate,
// PrepareForUpdate; the stored status is kept on update, by the fake
// client, as there), and the CRD is validated by
// ValidateCustomResourceDefinition, on update by
// ValidateCustomResourceDefinitionUpdate, an invalid one refused with
// kube-apiserver's Invalid error. A write of the status subresource
// (statusWrite, or an update that keeps the spec: the fake controllers'
// status writes go through the object) is not validated: kube-apiserver
// validates its status alone, and a CRD stored by an older lscli, which
// did not validate them, must still become Established. Any other object
// is left alone.
func admitCRD(old, obj runtime.Object, statusWrite bool) error {
	crd, ok := obj.(*apiextensionsv1.CustomResourceDefinition)
	if !ok || statusWrite {
		return nil
	}
	prev, _ := old.(*apiextensionsv1.CustomResourceDefinition)
	if old != nil && prev == nil {
		return nil
	}
	if prev != nil && semantic.DeepEqual(prev.Spec, crd.Spec) {
		return nil
	}
	addStoredVersion(crd)
	internal, err := internalCRD(crd)
	if err != nil {
		return err
	}
	// The generation the strategy sets (stamp sets it after validation):
	// 1 on create, one more on a change of the spec.
	internal.Generation = 1
	if prev != nil {
		internal.Generation = prev.Generation + 1
	}
	ctx := context.Background()
	var errs field.ErrorList
	if prev == nil {
		errs = crdvalidation.ValidateCustomResourceDefinition(ctx, internal)
	} else {
		prevInternal, err := internalCRD(prev)
		if err != nil {
			return err
		}
		errs = crdvalidation.ValidateCustomResourceDefinitionUpdate(ctx, internal, prevInternal)
	}
	if len(errs) > 0 {
		return apierrors.NewInvalid(crdGroupKind, crd.Name, errs)
	}
	return nil
}

// addStoredVersion appends crd's storage version (the first version marked
// storage) to status.storedVersions unless it is there, as the CRD
// strategy's PrepareForCreate and PrepareForUpdate do.
func addStoredVersion(crd *apiextensionsv1.CustomResourceDefinition) {
	for _, v := range crd.Spec.Versions {
		if !v.Storage {
			continue
		}
		for _, s := range crd.Status.StoredVersions {
			if s == v.Name {
				return
			}
		}
		crd.Status.StoredVersions = append(crd.Status.StoredVersions, v.Name)
		return
	}
}

// internalCRD converts crd to apiextensions-apiserver's internal type.
func internalCRD(crd *apiextensionsv1.CustomResourceDefinition) (*apiextensions.CustomResourceDefinition, error) {
	out := &apiextensions.CustomResourceDefinition{}
	if err := crdScheme.Convert(crd.DeepCopy(), out, nil); err != nil {
		return nil, fmt.Errorf("convert CustomResourceDefinition %s to apiextensions' internal type: %w", crd.Name, err)
	}
	return out, nil
}
