package readiness

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/gardener/landscaper/apis/deployer/utils/readinesschecks"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/selection"
	"k8s.io/client-go/util/jsonpath"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// CheckCustom runs one custom readiness check: it selects the objects (in
// the Target named check.TargetName when set, resolved with secondary) and
// evaluates every requirement on each. A disabled check passes.
func CheckCustom(ctx context.Context, c client.Client, check readinesschecks.CustomReadinessCheckConfiguration, secondary SecondaryClient) error {
	if check.Disabled {
		return nil
	}
	c, err := clientFor(ctx, c, check.TargetName, secondary)
	if err != nil {
		return err
	}
	objects, err := selectObjects(ctx, c, check)
	if err != nil {
		return err
	}
	for _, u := range objects {
		if err := Requirements(u, check.Requirements); err != nil {
			return notReady(u, err)
		}
	}
	return nil
}

// clientFor is c, or the client for the Target named targetName.
func clientFor(ctx context.Context, c client.Client, targetName *string, secondary SecondaryClient) (client.Client, error) {
	if targetName == nil {
		return c, nil
	}
	if secondary == nil {
		return nil, fmt.Errorf("unable to get secondary target %s: no target resolver", *targetName)
	}
	return secondary(ctx, *targetName)
}

// selectObjects reads the objects of resourceSelector, then those of
// labelSelector. A missing object or an empty selection is not ready.
func selectObjects(ctx context.Context, c client.Client, check readinesschecks.CustomReadinessCheckConfiguration) ([]*unstructured.Unstructured, error) {
	var objects []*unstructured.Unstructured
	for _, ref := range check.Resource {
		u := objectFor(ref)
		if err := c.Get(ctx, client.ObjectKeyFromObject(u), u); err != nil {
			return nil, &NotReadyError{Object: ref, Err: err}
		}
		objects = append(objects, u)
	}
	if sel := check.LabelSelector; sel != nil {
		list := &unstructured.UnstructuredList{}
		list.SetAPIVersion(sel.APIVersion)
		list.SetKind(sel.Kind + "List")
		typ := lsv1alpha1.TypedObjectReference{APIVersion: sel.APIVersion, Kind: sel.Kind}
		if err := c.List(ctx, list, client.MatchingLabelsSelector{Selector: labels.SelectorFromSet(sel.Labels)}); err != nil {
			return nil, &NotReadyError{Object: typ, Err: err}
		}
		if len(list.Items) == 0 {
			return nil, &NotReadyError{Object: typ, Err: fmt.Errorf("object list by label selector is empty")}
		}
		for i := range list.Items {
			objects = append(objects, &list.Items[i])
		}
	}
	return objects, nil
}

// Requirements evaluates reqs on u and says which one fails, or nil.
func Requirements(u *unstructured.Unstructured, reqs []readinesschecks.RequirementSpec) error {
	for _, req := range reqs {
		if err := requirement(u.Object, req); err != nil {
			return err
		}
	}
	return nil
}

// requirement evaluates one requirement on obj.
func requirement(obj map[string]any, req readinesschecks.RequirementSpec) error {
	fields, err := fieldsByJSONPath(obj, req.JsonPath)
	if err != nil {
		return err
	}
	if len(fields) == 0 || len(fields[0]) == 0 {
		if req.Operator == selection.DoesNotExist {
			return nil
		}
		return fmt.Errorf("field with JSON path %s does not exist", req.JsonPath)
	}
	if req.Operator == selection.Exists {
		return nil
	}
	values, err := requirementValues(req.Value)
	if err != nil {
		return err
	}
	for _, field := range fields {
		for _, v := range field {
			ok, err := matches(v.Interface(), values, req.Operator)
			if err != nil {
				return err
			}
			if !ok {
				return fmt.Errorf("resource requirement is not fulfiled for field %s", req.JsonPath)
			}
		}
	}
	return nil
}

// fieldsByJSONPath finds path (without braces; leading dot optional) in obj;
// missing keys give no result rather than an error.
func fieldsByJSONPath(obj map[string]any, path string) ([][]reflect.Value, error) {
	if !strings.HasPrefix(path, ".") {
		path = "." + path
	}
	p := jsonpath.New("fieldPath").AllowMissingKeys(true)
	if err := p.Parse("{" + path + "}"); err != nil {
		return nil, fmt.Errorf("cannot parse fieldPath %s: %w", path, err)
	}
	res, err := p.FindResults(obj)
	if err != nil {
		return nil, fmt.Errorf("cannot find results: %w", err)
	}
	return res, nil
}

// requirementValues decodes the "value" of each entry of raw.
func requirementValues(raw []runtime.RawExtension) ([]any, error) {
	values := make([]any, 0, len(raw))
	for i, r := range raw {
		var entry map[string]any
		if err := json.Unmarshal(r.Raw, &entry); err != nil {
			return nil, fmt.Errorf("cannot unmarshal object at index %d: %w", i, err)
		}
		v, ok := entry["value"]
		if !ok {
			return nil, fmt.Errorf("object at index %d does not contain the value key", i)
		}
		values = append(values, v)
	}
	return values, nil
}

// matches compares field with values by op, after a JSON round trip so that
// numbers are float64 on both sides.
func matches(field any, values []any, op selection.Operator) (bool, error) {
	data, err := json.Marshal(field)
	if err != nil {
		return false, err
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return false, err
	}
	found := false
	for _, want := range values {
		found = found || reflect.DeepEqual(v, want)
	}
	switch op {
	case selection.Equals, selection.DoubleEquals, selection.In:
		return found, nil
	case selection.NotEquals:
		if len(values) == 0 {
			return false, fmt.Errorf("operator %s needs a value", op)
		}
		return !reflect.DeepEqual(v, values[0]), nil
	case selection.NotIn:
		return !found, nil
	}
	return false, nil
}
