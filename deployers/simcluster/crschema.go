package simcluster

import (
	"context"
	"fmt"
	"slices"
	"strings"

	apiextensionshelpers "k8s.io/apiextensions-apiserver/pkg/apihelpers"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	structurallisttype "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/cel/common"
)

// crSchema is what kube-apiserver's apiextensions-apiserver builds from one
// version of a CRD to serve its custom resources
// (pkg/apiserver/customresource_handler.go, crdHandler.getOrCreateServingInfoFor):
// the structural schema with its defaults pruned, for pruning and
// defaulting (the decoder's unstructuredSchemaCoercer and
// unstructuredDefaulter), the OpenAPI schema validator and the CEL
// validator of x-kubernetes-validations (the strategy's Validate and
// ValidateUpdate, pkg/registry/customresource/strategy.go). It is built at
// most once per write of the CRD, when a custom resource of it is first
// written after it (Cluster.schemaOf), not per write of a custom resource.
type crSchema struct {
	// structural is nil when the version has no schema (a CRD with
	// preserveUnknownFields, of apiextensions.k8s.io/v1beta1 times).
	structural *structuralschema.Structural
	// preserve is spec.preserveUnknownFields: nothing is pruned.
	preserve  bool
	validator apiservervalidation.SchemaValidator
	// statusValidator validates writes of the status subresource, by the
	// schema of status alone; nil when the version has no status
	// subresource or its schema no status.
	statusValidator apiservervalidation.SchemaValidator
	cel             *cel.Validator
}

// crdSchemas builds the crSchema of each version of crd that has a schema.
// A version whose schema kube-apiserver could not serve (its CRD
// validation refuses such a CRD, crdvalidate.go; one an older lscli
// stored) is left out: its objects are stored as written.
func crdSchemas(crd *apiextensionsv1.CustomResourceDefinition) map[string]*crSchema {
	out := map[string]*crSchema{}
	for _, v := range crd.Spec.Versions {
		s, err := newCRSchema(crd, v.Name)
		if err == nil && s != nil {
			out[v.Name] = s
		}
	}
	return out
}

// newCRSchema builds the crSchema of version of crd as crdHandler does; nil
// when the version has no schema.
func newCRSchema(crd *apiextensionsv1.CustomResourceDefinition, version string) (*crSchema, error) {
	val, err := apiextensionshelpers.GetSchemaForVersion(crd, version)
	if err != nil || val == nil {
		return nil, err
	}
	internal := &apiextensions.CustomResourceValidation{}
	if err := apiextensionsv1.Convert_v1_CustomResourceValidation_To_apiextensions_CustomResourceValidation(val, internal, nil); err != nil {
		return nil, fmt.Errorf("convert the schema of %s %s: %w", crd.Name, version, err)
	}
	out := &crSchema{preserve: crd.Spec.PreserveUnknownFields}
	s, err := structuralschema.NewStructural(internal.OpenAPIV3Schema)
	switch {
	case err != nil && !out.preserve:
		return nil, fmt.Errorf("the schema of %s %s is not structural: %w", crd.Name, version, err)
	case err == nil && !out.preserve:
		s = s.DeepCopy()
		if err := structuraldefaulting.PruneDefaults(s); err != nil {
			return nil, fmt.Errorf("prune the defaults of %s %s: %w", crd.Name, version, err)
		}
	}
	out.structural = s
	if out.validator, _, err = apiservervalidation.NewSchemaValidator(internal.OpenAPIV3Schema); err != nil {
		return nil, fmt.Errorf("the schema validator of %s %s: %w", crd.Name, version, err)
	}
	if sub, err := apiextensionshelpers.GetSubresourcesForVersion(crd, version); err == nil && sub != nil && sub.Status != nil {
		if status, ok := internal.OpenAPIV3Schema.Properties["status"]; ok {
			if out.statusValidator, _, err = apiservervalidation.NewSchemaValidator(&status); err != nil {
				return nil, fmt.Errorf("the status schema validator of %s %s: %w", crd.Name, version, err)
			}
		}
	}
	if s != nil {
		out.cel = cel.NewValidator(s, true, celconfig.PerCallLimit)
	}
	return out, nil
}

// coerce does to u, a custom resource being written, what kube-apiserver's
// decoding does: fields the schema does not know are pruned (but where it
// preserves unknown fields), nulls of non-nullable fields without a default
// are dropped, embedded objects' metadata is coerced, and the schema's
// defaults are applied.
func (s *crSchema) coerce(u *unstructured.Unstructured) {
	if s.structural == nil {
		return
	}
	if !s.preserve {
		structuralpruning.PruneWithOptions(u.Object, s.structural, true, structuralschema.UnknownFieldPathOptions{})
		structuraldefaulting.PruneNonNullableNullsWithoutDefaults(u.Object, s.structural)
	}
	// Metadata of embedded objects: invalid fields are dropped, as the
	// decoder of a write does (dropInvalidMetadata).
	_, _ = schemaobjectmeta.CoerceWithOptions(nil, u.Object, s.structural, false, schemaobjectmeta.CoerceOptions{DropInvalidFields: true})
	structuraldefaulting.Default(u.Object, s.structural)
}

// validate checks u, a custom resource being written (old: the stored one,
// nil on create), as the custom resource strategy's Validate and
// ValidateUpdate do beyond the metadata (validateMeta): against the
// OpenAPI schema (on update ratcheting: what was already invalid and did
// not change passes), the metadata of embedded objects, list types, and
// the CEL rules when nothing blocks them.
func (s *crSchema) validate(ctx context.Context, old, u *unstructured.Unstructured) field.ErrorList {
	var errs field.ErrorList
	var correlated *common.CorrelatedObject
	var celOpts []cel.Option
	if old == nil {
		errs = append(errs, byField(apiservervalidation.ValidateCustomResource(nil, u.UnstructuredContent(), s.validator))...)
	} else {
		var opts []apiservervalidation.ValidationOption
		if s.structural != nil {
			correlated = common.NewCorrelatedObject(u.Object, old.Object, &model.Structural{Structural: s.structural})
			opts = append(opts, apiservervalidation.WithRatcheting(correlated))
			celOpts = append(celOpts, cel.WithRatcheting(correlated))
		}
		errs = append(errs, byField(apiservervalidation.ValidateCustomResourceUpdate(nil, u.UnstructuredContent(), old.UnstructuredContent(), s.validator, opts...))...)
	}
	if s.structural == nil {
		return errs
	}
	errs = append(errs, schemaobjectmeta.Validate(ctx, nil, u.Object, s.structural, false)...)
	if old == nil || len(structurallisttype.ValidateListSetsAndMaps(nil, s.structural, old.Object)) == 0 {
		errs = append(errs, structurallisttype.ValidateListSetsAndMaps(nil, s.structural, u.Object)...)
	}
	return s.validateRules(ctx, old, u, errs, celOpts)
}

// validateRules adds to errs, the errors of the other validations of u
// (old: the stored object, nil on create), those of the CEL rules, unless
// errs block them.
func (s *crSchema) validateRules(ctx context.Context, old, u *unstructured.Unstructured, errs field.ErrorList, celOpts []cel.Option) field.ErrorList {
	if s.cel == nil {
		return errs
	}
	if blocking(errs) {
		return append(errs, field.Invalid(nil, nil, "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"))
	}
	var oldObj any
	if old != nil {
		oldObj = old.Object
	}
	celErrs, _ := s.cel.Validate(ctx, nil, s.structural, u.Object, oldObj, celconfig.RuntimeCELCostBudget, celOpts...)
	return append(errs, byField(celErrs)...)
}

// validateStatus checks u, whose status subresource is being written over
// old, as the custom resource status strategy's ValidateUpdate does: the
// status against the schema of status alone (with ratcheting), list types
// where the stored object's were valid, and the CEL rules.
func (s *crSchema) validateStatus(ctx context.Context, old, u *unstructured.Unstructured) field.ErrorList {
	var errs field.ErrorList
	var opts []apiservervalidation.ValidationOption
	var celOpts []cel.Option
	if s.structural != nil {
		correlated := common.NewCorrelatedObject(u.Object, old.Object, &model.Structural{Structural: s.structural})
		opts = append(opts, apiservervalidation.WithRatcheting(correlated.Key("status")))
		celOpts = append(celOpts, cel.WithRatcheting(correlated))
	}
	if status, has := u.Object["status"]; has {
		errs = append(errs, byField(apiservervalidation.ValidateCustomResourceUpdate(field.NewPath("status"), status, old.Object["status"], s.statusValidator, opts...))...)
	}
	if s.structural == nil {
		return errs
	}
	if newErrs := structurallisttype.ValidateListSetsAndMaps(nil, s.structural, u.Object); len(newErrs) > 0 &&
		len(structurallisttype.ValidateListSetsAndMaps(nil, s.structural, old.Object)) == 0 {
		errs = append(errs, newErrs...)
	}
	return s.validateRules(ctx, old, u, errs, celOpts)
}

// blocking reports whether errs keep the CEL rules from being checked, as
// the strategy's hasBlockingErr decides: type, required, enum, length and
// count violations.
func blocking(errs field.ErrorList) bool {
	for _, err := range errs {
		switch err.Type {
		case field.ErrorTypeNotSupported, field.ErrorTypeRequired, field.ErrorTypeTooLong, field.ErrorTypeTooMany, field.ErrorTypeTypeInvalid:
			return true
		}
	}
	return false
}

// admitCustomResource validates obj, a custom resource just coerced and
// stamped, against its version's schema s (nil: none), with
// kube-apiserver's Invalid error; status tells a write of the status
// subresource (over old) from one of the object.
func admitCustomResource(ctx context.Context, s *crSchema, old, obj runtime.Object, status bool) error {
	u, ok := obj.(*unstructured.Unstructured)
	if s == nil || !ok {
		return nil
	}
	prev, _ := old.(*unstructured.Unstructured)
	if old != nil && prev == nil {
		return nil
	}
	validate := s.validate
	if status && prev != nil {
		validate = s.validateStatus
	}
	if errs := validate(ctx, prev, u); len(errs) > 0 {
		return apierrors.NewInvalid(u.GroupVersionKind().GroupKind(), u.GetName(), errs)
	}
	return nil
}

// byField sorts errs by field path, keeping the order of the errors of one
// field. The schema and CEL validators walk an object's fields in Go's map
// order, so kube-apiserver lists the errors of several fields in an order
// that changes from request to request; a fixed one keeps lscli's output
// reproducible.
func byField(errs field.ErrorList) field.ErrorList {
	slices.SortStableFunc(errs, func(a, b *field.Error) int { return strings.Compare(a.Field, b.Field) })
	return errs
}
