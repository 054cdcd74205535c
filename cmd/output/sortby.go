package output

import (
	"cmp"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/util/jsonpath"
	"k8s.io/kubectl/pkg/cmd/get"

	"github.com/lscli/lscli/fakecluster"
)

// SortByError is a --sort-by path that does not parse, or whose values
// cannot be ordered: invalid input.
type SortByError struct{ msg string }

func (e *SortByError) Error() string { return e.msg }

// CheckSortBy reports a --sort-by path that does not parse.
func CheckSortBy(path string) error {
	_, err := sortByParser(path)
	return err
}

// sortByParser parses a --sort-by path as kubectl does: a JSONPath with or
// without braces (.status.phase, {.status.phase}); a missing key is no error.
func sortByParser(path string) (*jsonpath.JSONPath, error) {
	field, err := get.RelaxedJSONPathExpression(path)
	if err != nil {
		return nil, &SortByError{fmt.Sprintf("invalid --sort-by %q: %v", path, err)}
	}
	p := jsonpath.New("sort-by").AllowMissingKeys(true)
	if err := p.Parse(field); err != nil {
		return nil, &SortByError{fmt.Sprintf("invalid --sort-by %q: %v", path, err)}
	}
	return p, nil
}

// sortByField returns objs ordered by the value at path (kubectl's
// --sort-by), ascending; objects without a value there come first, and
// objects with equal values keep their order in objs. As kubectl's, numbers
// compare as numbers, strings that are all quantities (100m, 1Gi) as
// quantities and other strings byte by byte (RFC 3339 times as times).
// Unlike kubectl's, the order of equal values is always the same, and a
// value that cannot be ordered (an object, a list, values of different
// types) is an error instead of an exit of the process.
func sortByField(objs []fakecluster.Object, path string) ([]fakecluster.Object, error) {
	if path == "" || len(objs) == 0 {
		return objs, nil
	}
	p, err := sortByParser(path)
	if err != nil {
		return nil, err
	}
	type keyed struct {
		obj   fakecluster.Object
		value any
		has   bool
	}
	items := make([]keyed, len(objs))
	found := false
	for i, o := range objs {
		items[i].obj = o
		v, has, err := sortValue(p, o)
		if err != nil {
			return nil, err
		}
		if has {
			if err := sortable(v); err != nil {
				return nil, &SortByError{fmt.Sprintf("--sort-by %s: %s %s has %s there: give the path of a string, a number or a time", path, kindOf(o), qualifiedName(o), err)}
			}
		}
		items[i].value, items[i].has = v, has
		found = found || has
	}
	if !found {
		return nil, &SortByError{fmt.Sprintf("--sort-by %s: none of the objects has a value there: give a path they have, e.g. .metadata.name", path)}
	}
	// Strings compare as quantities only when every string is one: pairs
	// compared as quantities where both parse and byte by byte otherwise
	// are no order (2 < 10 < 1a < 2).
	quantities := true
	for _, it := range items {
		if s, ok := it.value.(string); ok && it.has {
			if _, err := resource.ParseQuantity(s); err != nil {
				quantities = false
				break
			}
		}
	}
	var mismatch error
	slices.SortStableFunc(items, func(a, b keyed) int {
		switch {
		case !a.has && !b.has:
			return 0
		case !a.has:
			return -1
		case !b.has:
			return 1
		}
		c, err := compareValues(a.value, b.value, quantities)
		if err != nil && mismatch == nil {
			mismatch = &SortByError{fmt.Sprintf("--sort-by %s: %s %s and %s %s have values of different types there (%s)",
				path, kindOf(a.obj), qualifiedName(a.obj), kindOf(b.obj), qualifiedName(b.obj), err)}
		}
		return c
	})
	if mismatch != nil {
		return nil, mismatch
	}
	out := make([]fakecluster.Object, len(items))
	for i, it := range items {
		out[i] = it.obj
	}
	return out, nil
}

// sortValue returns the first value at p in o, as the object's JSON has
// it; has is false when there is none (or it is null).
func sortValue(p *jsonpath.JSONPath, o fakecluster.Object) (v any, has bool, err error) {
	item, err := marshalItem(o)
	if err != nil {
		return nil, false, fmt.Errorf("encode %s %s: %w", kindOf(o), qualifiedName(o), err)
	}
	var u unstructured.Unstructured
	if err := u.UnmarshalJSON(item); err != nil {
		return nil, false, fmt.Errorf("decode %s %s: %w", kindOf(o), qualifiedName(o), err)
	}
	results, err := p.FindResults(u.Object)
	if err != nil {
		return nil, false, &SortByError{fmt.Sprintf("--sort-by: %s %s: %v", kindOf(o), qualifiedName(o), err)}
	}
	if len(results) == 0 || len(results[0]) == 0 {
		return nil, false, nil
	}
	rv := results[0][0]
	for rv.Kind() == reflect.Interface && !rv.IsNil() {
		rv = rv.Elem()
	}
	if !rv.IsValid() || rv.Kind() == reflect.Interface {
		return nil, false, nil
	}
	return rv.Interface(), true, nil
}

// sortable says what a value that cannot be ordered is.
func sortable(v any) error {
	switch v.(type) {
	case string, int64, float64, bool:
		return nil
	}
	return errors.New(typeName(v))
}

// compareValues orders two values of JSON: numbers as numbers, strings as
// quantities when quantities says every string is one, else byte by byte,
// false before true.
func compareValues(a, b any, quantities bool) (int, error) {
	if x, ok := number(a); ok {
		if y, ok := number(b); ok {
			return x.compare(y), nil
		}
	}
	switch x := a.(type) {
	case string:
		if y, ok := b.(string); ok {
			if !quantities {
				return strings.Compare(x, y), nil
			}
			if qx, err := resource.ParseQuantity(x); err == nil {
				if qy, err := resource.ParseQuantity(y); err == nil {
					return qx.Cmp(qy), nil
				}
			}
			return strings.Compare(x, y), nil
		}
	case bool:
		if y, ok := b.(bool); ok {
			switch {
			case x == y:
				return 0, nil
			case !x:
				return -1, nil
			}
			return 1, nil
		}
	}
	return 0, fmt.Errorf("%s and %s", typeName(a), typeName(b))
}

// jsonNumber is a number of JSON as unstructured decoding gives it.
type jsonNumber struct {
	i       int64
	f       float64
	isFloat bool
}

func number(v any) (jsonNumber, bool) {
	switch n := v.(type) {
	case int64:
		return jsonNumber{i: n}, true
	case float64:
		return jsonNumber{f: n, isFloat: true}, true
	}
	return jsonNumber{}, false
}

func (a jsonNumber) compare(b jsonNumber) int {
	if !a.isFloat && !b.isFloat {
		return cmp.Compare(a.i, b.i)
	}
	af, bf := a.f, b.f
	if !a.isFloat {
		af = float64(a.i)
	}
	if !b.isFloat {
		bf = float64(b.i)
	}
	return cmp.Compare(af, bf)
}

// typeName names the JSON type of v.
func typeName(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case int64, float64:
		return "a number"
	case bool:
		return "a boolean"
	case map[string]any:
		return "an object"
	case []any:
		return "a list"
	}
	return fmt.Sprintf("a %T", v)
}
