package exports

import (
	"errors"
	"reflect"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/client-go/util/jsonpath"
)

// GetValue returns the one value at path (client-go jsonpath without
// braces; a leading dot is optional) in data, as stored.
func GetValue(path string, data any) (any, error) {
	if !strings.HasPrefix(path, ".") {
		path = "." + path
	}
	jp := jsonpath.New("get")
	if err := jp.Parse("{" + path + "}"); err != nil {
		return nil, err
	}
	res, err := jp.FindResults(data)
	if err != nil {
		return nil, err
	}
	if len(res) == 0 || len(res[0]) == 0 {
		return nil, errors.New("not found")
	}
	if len(res) != 1 && len(res[0]) != 1 {
		return nil, errors.New("expected exactly one result")
	}
	v := reflect.Indirect(res[0][0])
	if !v.IsValid() || !v.CanInterface() {
		return nil, nil
	}
	return v.Interface(), nil
}

// Construct returns value nested in maps along key, a path of field names:
// Construct("a.b", 1) is {"a": {"b": 1}}. A key with anything but field
// names is Landscaper's field.NotSupported error, naming the fields before
// it ("[].a: Unsupported value: NodeArray: ...").
func Construct(key string, value any) (map[string]any, error) {
	if !strings.HasPrefix(key, ".") {
		key = "." + key
	}
	parsed, err := jsonpath.Parse("construct", "{"+key+"}")
	if err != nil {
		return nil, err
	}
	var names []string
	if err := fieldNames(parsed.Root, &names); err != nil {
		return nil, err
	}
	out := map[string]any{}
	cur := out
	for i, name := range names {
		if i == len(names)-1 {
			cur[name] = value
			break
		}
		next := map[string]any{}
		cur[name] = next
		cur = next
	}
	return out, nil
}

// fieldNames appends the field names of a key made only of fields. The
// error names the fields of the same list before the node, as Landscaper's
// constructWalk does (each list starts a new path).
func fieldNames(list *jsonpath.ListNode, names *[]string) error {
	fldPath := field.NewPath("")
	for _, node := range list.Nodes {
		switch n := node.(type) {
		case *jsonpath.ListNode:
			if err := fieldNames(n, names); err != nil {
				return err
			}
		case *jsonpath.FieldNode:
			*names = append(*names, n.Value)
			fldPath = fldPath.Child(n.Value)
		default:
			return field.NotSupported(fldPath, node.Type(),
				[]string{jsonpath.NodeTypeName[jsonpath.NodeList], jsonpath.NodeTypeName[jsonpath.NodeField]})
		}
	}
	return nil
}

// MergeMaps deep-merges b into a copy of a: b's values win, maps present in
// both are merged. A nil map yields the other one.
func MergeMaps(a, b map[string]any) map[string]any {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	out := make(map[string]any, len(a)+len(b))
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		bm, bok := v.(map[string]any)
		am, aok := out[k].(map[string]any)
		if bok && aok {
			v = MergeMaps(am, bm)
		}
		out[k] = v
	}
	return out
}
