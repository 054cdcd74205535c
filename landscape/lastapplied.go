package landscape

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/go-json-experiment/json/jsontext"
	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/jsonmergepatch"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/internal/fastjson"
)

// LastApplied holds, for each object a file set, the configuration its last
// apply applied: what kubectl apply keeps in the object's annotation
// kubectl.kubernetes.io/last-applied-configuration, and what its three-way
// merge takes as the original, to delete what the last apply set and the
// file no longer has. lscli keeps it in its state next to the object
// instead of in an annotation, so that the object looks as before. Apply
// reads and updates it; a nil LastApplied keeps no record.
type LastApplied map[ObjectRef]AppliedConfig

// AppliedConfig is the configuration an apply applied to one object.
type AppliedConfig struct {
	// UID is the object's uid when it was applied: a record of another
	// object of the same name (deleted and created again since) is not
	// the live object's, as kubectl's annotation goes with its object.
	UID types.UID
	// Config is the object as the file set it, as JSON: its labels and
	// annotations (under metadata) and every field but apiVersion, kind,
	// the rest of metadata and status (see appliedConfig).
	Config json.RawMessage
}

// appliedConfig returns the part of obj, an object of a file, that an apply
// merges into the live object, as JSON: {"metadata":{"labels":...,
// "annotations":...}, "spec":...} (or "data", "type" and so on: every
// field but apiVersion, kind, metadata and status). Labels and annotations
// are there only when the file has them.
func appliedConfig(obj fakecluster.Object) (json.RawMessage, error) {
	data, err := marshalObject(obj)
	if err != nil {
		return nil, err
	}
	// The top-level fields are taken as encoded, without a second parse or
	// encoding of their values, and written sorted by name.
	type member struct {
		name  string
		value jsontext.Value
	}
	var members []member
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return nil, fmt.Errorf("encode: not an object")
	}
	for dec.PeekKind() != '}' {
		tok, err := dec.ReadToken()
		if err != nil {
			return nil, fmt.Errorf("encode: %w", err)
		}
		name := tok.String() // read before the decoder moves on
		value, err := dec.ReadValue()
		if err != nil {
			return nil, fmt.Errorf("encode: %w", err)
		}
		switch name {
		case "apiVersion", "kind", "status", "metadata":
		default:
			members = append(members, member{name, bytes.Clone(value)})
		}
	}
	meta := map[string]map[string]string{}
	if l := obj.GetLabels(); l != nil {
		meta["labels"] = l
	}
	if a := obj.GetAnnotations(); a != nil {
		meta["annotations"] = a
	}
	metaJSON, err := fastjson.Marshal(meta)
	if err != nil {
		return nil, fmt.Errorf("encode: %w", err)
	}
	members = append(members, member{"metadata", metaJSON})
	slices.SortFunc(members, func(a, b member) int { return strings.Compare(a.name, b.name) })
	var out bytes.Buffer
	out.Grow(len(data))
	out.WriteByte('{')
	for i, m := range members {
		if i > 0 {
			out.WriteByte(',')
		}
		out.WriteString(strconv.Quote(m.name))
		out.WriteByte(':')
		out.Write(m.value)
	}
	out.WriteByte('}')
	return out.Bytes(), nil
}

// marshalObject encodes obj, an Execution with its deploy items in clear.
func marshalObject(obj fakecluster.Object) ([]byte, error) {
	var v any = obj
	if ex, ok := obj.(*lsv1alpha1.Execution); ok {
		var err error
		if v, err = fakecluster.InClear(ex, metav1.TypeMeta{}); err != nil {
			return nil, err
		}
	}
	data, err := fastjson.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode: %w", err)
	}
	return data, nil
}

// mergeApplied sets on live what kubectl apply's three-way JSON merge patch
// (apimachinery's jsonmergepatch.CreateThreeWayJSONMergePatch, which
// kubectl's pkg/cmd/apply/patcher.go uses for custom resources) makes of
// it, with original the configuration the last apply applied, modified
// file's (config) and current the live object: what the file adds or
// changes is set, what original has and the file no longer has is deleted,
// and the rest of the live object (what controllers set) is kept. As in
// kubectl, the modified configuration always has annotations (kubectl puts
// its record there), so an apply never removes all annotations at once;
// a file that drops its labels altogether drops the live object's labels
// altogether, as kubectl's merge patch ("labels": null) does.
//
// When what the merge makes of the spec (every field but metadata and
// status) is the file's, the file's spec is copied as it is, as an apply
// without a record does.
func mergeApplied(live, file fakecluster.Object, original, config json.RawMessage) error {
	current, err := appliedConfig(live)
	if err != nil {
		return fmt.Errorf("live object: %w", err)
	}
	modified, err := withAnnotations(config)
	if err != nil {
		return err
	}
	patch, err := jsonmergepatch.CreateThreeWayJSONMergePatch(original, modified, current)
	if err != nil {
		return fmt.Errorf("three-way merge with the last applied configuration: %w", err)
	}
	merged, err := jsonpatch.MergePatch(current, patch)
	if err != nil {
		return fmt.Errorf("apply the three-way merge patch: %w", err)
	}
	m, err := decodeMap(merged)
	if err != nil {
		return fmt.Errorf("three-way merge: %w", err)
	}
	var meta struct {
		Labels      map[string]string `json:"labels"`
		Annotations map[string]string `json:"annotations"`
	}
	if raw, err := json.Marshal(m["metadata"]); err != nil || json.Unmarshal(raw, &meta) != nil {
		return fmt.Errorf("three-way merge: metadata is not labels and annotations")
	}
	delete(m, "metadata")
	live.SetLabels(keepEmpty(live.GetLabels(), meta.Labels))
	live.SetAnnotations(keepEmpty(live.GetAnnotations(), meta.Annotations))
	// The file's spec is its applied configuration without metadata:
	// config holds every other top-level field as the file encodes it.
	fileSpec, err := decodeMap(config)
	if err != nil {
		return fmt.Errorf("applied configuration: %w", err)
	}
	delete(fileSpec, "metadata")
	if reflect.DeepEqual(m, fileSpec) {
		fakecluster.CopySpec(live, file)
		return nil
	}
	spec, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("three-way merge: %w", err)
	}
	decoded := newLike(file)
	if err := json.Unmarshal(spec, decoded); err != nil {
		return fmt.Errorf("three-way merge: decode the merged spec: %w", err)
	}
	fakecluster.CopySpec(live, decoded)
	return nil
}

// decodeMap decodes a JSON object with its numbers as they are written
// (json.Number), so that a large integer in a spec or data survives the
// merge.
func decodeMap(data []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	return m, nil
}

// withAnnotations returns config with an empty annotations map when it has
// none: kubectl's modified configuration always holds its record there.
func withAnnotations(config json.RawMessage) (json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(config, &m); err != nil {
		return nil, fmt.Errorf("applied configuration: %w", err)
	}
	var meta map[string]json.RawMessage
	if raw, ok := m["metadata"]; ok {
		if err := json.Unmarshal(raw, &meta); err != nil {
			return nil, fmt.Errorf("applied configuration: metadata: %w", err)
		}
	}
	if _, ok := meta["annotations"]; ok {
		return config, nil
	}
	if meta == nil {
		meta = map[string]json.RawMessage{}
	}
	meta["annotations"] = json.RawMessage(`{}`)
	raw, err := json.Marshal(meta)
	if err != nil {
		return nil, err
	}
	m["metadata"] = raw
	return json.Marshal(m)
}

// keepEmpty returns merged, or live when both are empty, so that an apply
// that leaves a map empty does not turn a nil map into an empty one (a
// change of nothing).
func keepEmpty(live, merged map[string]string) map[string]string {
	if len(merged) == 0 && len(live) == 0 {
		return live
	}
	return merged
}
