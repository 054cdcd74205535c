package simcluster

import (
	"errors"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// multiConverter tries its converters in order, as the fake client's
// default does.
type multiConverter []managedfields.TypeConverter

// ObjectToTyped uses the first converter that can convert r.
func (m multiConverter) ObjectToTyped(r runtime.Object, o ...typed.ValidationOptions) (*typed.TypedValue, error) {
	var errs []error
	for _, c := range m {
		res, err := c.ObjectToTyped(r, o...)
		if err == nil {
			return res, nil
		}
		errs = append(errs, err)
	}
	return nil, fmt.Errorf("convert object to typed value: %w", errors.Join(errs...))
}

// TypedToObject uses the first converter that can convert v.
func (m multiConverter) TypedToObject(v *typed.TypedValue) (runtime.Object, error) {
	var errs []error
	for _, c := range m {
		res, err := c.TypedToObject(v)
		if err == nil {
			return res, nil
		}
		errs = append(errs, err)
	}
	return nil, fmt.Errorf("convert typed value to object: %w", errors.Join(errs...))
}
