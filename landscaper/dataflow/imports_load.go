package dataflow

import (
	"context"
	"errors"
	"fmt"
	"sort"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/yaml"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/internal/fastjson"
)

// loaded are the objects an installation's spec.imports name, read from its
// context, keyed by import name.
type loaded struct {
	data    map[string]any
	targets map[string]*lsv1alpha1.Target
	lists   map[string][]*lsv1alpha1.Target
	maps    map[string]map[string]*lsv1alpha1.Target
}

// loader reads the imports of one installation.
type loader struct {
	r    fakecluster.Reader
	inst *lsv1alpha1.Installation
	ctx  string // the installation's context
}

// load reads every import of l.inst, in Landscaper's order: data imports in
// spec order, then single targets, target lists and target maps. The first
// object that cannot be read is an ImportLoadError.
func (l *loader) load(ctx context.Context) (*loaded, error) {
	out := &loaded{data: map[string]any{}, targets: map[string]*lsv1alpha1.Target{},
		lists: map[string][]*lsv1alpha1.Target{}, maps: map[string]map[string]*lsv1alpha1.Target{}}
	for _, imp := range l.inst.Spec.Imports.Data {
		v, err := l.data(ctx, imp)
		if err != nil {
			return nil, l.importError(imp.Name, err)
		}
		out.data[imp.Name] = v
	}
	for _, kind := range []targetKind{singleTarget, targetList, targetMap} {
		for _, imp := range l.inst.Spec.Imports.Targets {
			if kindOf(imp) != kind {
				continue
			}
			if err := l.target(ctx, imp, out); err != nil {
				return nil, l.importError(imp.Name, err)
			}
		}
	}
	return out, nil
}

// importError keeps an ImportLoadError as it is and names the import in
// any other error.
func (l *loader) importError(name string, err error) error {
	var le *ImportLoadError
	if errors.As(err, &le) {
		le.Installation, le.Import = instName(l.inst), name
		return err
	}
	return about(l.inst, err, "import %q: %w", name, err)
}

// targetKind is the kind of a target import, in the order Landscaper loads them.
type targetKind int

const (
	singleTarget targetKind = iota
	targetList
	targetMap
)

// kindOf returns the kind of a target import.
func kindOf(imp lsv1alpha1.TargetImport) targetKind {
	switch {
	case imp.Target != "":
		return singleTarget
	case imp.Targets != nil || imp.TargetListReference != "":
		return targetList
	case imp.TargetMap != nil || imp.TargetMapReference != "":
		return targetMap
	}
	return singleTarget
}

// data reads one data import: a DataObject, or a key of a Secret or ConfigMap.
func (l *loader) data(ctx context.Context, imp lsv1alpha1.DataImport) (any, error) {
	switch {
	case imp.DataRef != "":
		do := &lsv1alpha1.DataObject{}
		name := ObjectName(l.ctx, imp.DataRef)
		// Only read: decodeRaw hands out copies.
		if err := l.getUnsafe(ctx, name, do); err != nil {
			return nil, loadError(err, "unable to fetch data object %s (%s/%s): %w", name, l.ctx, imp.DataRef, err)
		}
		v, err := decodeRaw(do.Data.RawMessage)
		if err != nil {
			return nil, fmt.Errorf("DataObject %s: %w", do.Name, err)
		}
		return v, nil
	case imp.SecretRef != nil:
		s := &corev1.Secret{}
		if err := l.get(ctx, imp.SecretRef.Name, s); err != nil {
			return nil, loadError(err, "%w", err)
		}
		return fromKeys(s.Data, imp.SecretRef.Key, "secret", s.Namespace+"/"+s.Name,
			fmt.Sprintf("key %s in secret %s/%s does not exist", imp.SecretRef.Key, s.Namespace, s.Name))
	case imp.ConfigMapRef != nil:
		cm := &corev1.ConfigMap{}
		if err := l.get(ctx, imp.ConfigMapRef.Name, cm); err != nil {
			return nil, loadError(err, "%w", err)
		}
		if imp.ConfigMapRef.Key == "" && len(cm.Data) == 0 && len(cm.BinaryData) == 0 {
			// Landscaper marshals neither map of an empty ConfigMap: null.
			return nil, nil
		}
		return fromKeys(configMapData(cm), imp.ConfigMapRef.Key, "configmap", cm.Namespace+"/"+cm.Name,
			fmt.Sprintf("key '%s' in configmap '%s/%s' does not exist", imp.ConfigMapRef.Key, cm.Namespace, cm.Name))
	}
	return nil, fmt.Errorf("names no dataRef, secretRef or configMapRef")
}

// get reads the object name of the installation's namespace into obj.
func (l *loader) get(ctx context.Context, name string, obj fakecluster.Object) error {
	return l.r.Get(ctx, l.key(name), obj)
}

// getUnsafe is get without the deep copy (fakecluster.Reader.GetUnsafe):
// obj must only be read.
func (l *loader) getUnsafe(ctx context.Context, name string, obj fakecluster.Object) error {
	return l.r.GetUnsafe(ctx, l.key(name), obj)
}

// key names the object name of the installation's namespace.
func (l *loader) key(name string) types.NamespacedName {
	return types.NamespacedName{Namespace: l.inst.Namespace, Name: name}
}

// configMapData returns the keys of a ConfigMap that an import reads, as
// Landscaper's ResolveConfigMapReference reads them: those of data, unless
// the ConfigMap has binaryData, whose keys then replace them. So a key only
// in data is missing from a ConfigMap that has binaryData, and the whole
// ConfigMap is its binaryData. An empty map counts as none, as the API
// server does not keep it.
func configMapData(cm *corev1.ConfigMap) map[string][]byte {
	if len(cm.BinaryData) > 0 {
		return cm.BinaryData
	}
	out := make(map[string][]byte, len(cm.Data))
	for k, v := range cm.Data {
		out[k] = []byte(v)
	}
	return out
}

// fromKeys returns the value of key (a YAML or JSON document), or, for an
// empty key, all keys as a map of their decoded values, as Landscaper does.
// A missing key is an ImportLoadError with the text missing; so is a value
// that is not YAML, with Landscaper's text: GetDataImport's decoding of the
// key's value (pkg/landscaper/installations/helper.go), or, without a key,
// the conversion of all keys in Resolve{Secret,ConfigMap}Reference
// (controller-utils/pkg/landscaper/references.go), whose kind is "secret"
// or "configmap"; obj names the object ("<namespace>/<name>").
func fromKeys(data map[string][]byte, key, kind, obj, missing string) (any, error) {
	if key != "" {
		raw, ok := data[key]
		if !ok {
			return nil, &ImportLoadError{err: errors.New(missing)}
		}
		var v any
		if err := yaml.Unmarshal(raw, &v); err != nil {
			return nil, &ImportLoadError{err: fmt.Errorf("%s %s key %s is not YAML: %w", kind, obj, key, err), text: err.Error()}
		}
		return v, nil
	}
	out := map[string]any{}
	for _, k := range sortedKeys(data) {
		var v any
		if _, err := yaml.YAMLToJSON(data[k]); err != nil {
			return nil, &ImportLoadError{err: fmt.Errorf("%s %s key %s is not YAML: %w", kind, obj, k, err),
				text: fmt.Sprintf("unable to convert %s data to raw message map: %v", kind, err)}
		}
		if err := yaml.Unmarshal(data[k], &v); err != nil {
			return nil, fmt.Errorf("%s key %q: %w", kind, k, err)
		}
		out[k] = v
	}
	return out, nil
}

// target reads one target import into out.
func (l *loader) target(ctx context.Context, imp lsv1alpha1.TargetImport, out *loaded) error {
	var err error
	switch {
	case imp.Target != "":
		out.targets[imp.Name], err = l.getTarget(ctx, imp.Target)
	case imp.Targets != nil:
		out.lists[imp.Name], err = l.targetsByName(ctx, imp.Targets)
	case imp.TargetListReference != "":
		out.lists[imp.Name], err = l.targetsByKey(ctx, imp.TargetListReference)
	case imp.TargetMap != nil:
		out.maps[imp.Name], err = l.targetMap(ctx, imp.TargetMap)
	case imp.TargetMapReference != "":
		var list []*lsv1alpha1.Target
		if list, err = l.targetsByKey(ctx, imp.TargetMapReference); err == nil {
			out.maps[imp.Name], err = byMapKey(list)
		}
	default:
		err = fmt.Errorf("names no target, targets, targetListRef, targetMap or targetMapRef")
	}
	return err
}

// getTarget reads the Target of key name in the installation's context. A
// missing Target is an ImportLoadError with the API server's text.
func (l *loader) getTarget(ctx context.Context, name string) (*lsv1alpha1.Target, error) {
	t := &lsv1alpha1.Target{}
	if err := l.get(ctx, ObjectName(l.ctx, name), t); err != nil {
		return nil, loadError(err, "%w", err)
	}
	return t, nil
}

// targetsByName reads a target list given by names.
func (l *loader) targetsByName(ctx context.Context, names []string) ([]*lsv1alpha1.Target, error) {
	out := make([]*lsv1alpha1.Target, 0, len(names))
	for _, n := range names {
		t, err := l.getTarget(ctx, n)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// targetMap reads a target map given by names, key by key in order (the
// first missing Target is reported; Landscaper's order is random there).
func (l *loader) targetMap(ctx context.Context, m map[string]string) (map[string]*lsv1alpha1.Target, error) {
	out := make(map[string]*lsv1alpha1.Target, len(m))
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t, err := l.getTarget(ctx, m[k])
		if err != nil {
			return nil, err
		}
		out[k] = t
	}
	return out, nil
}

// targetsByKey lists the Targets that the parent wrote for its import key
// (targetListRef, targetMapRef): in the installation's context, of its job,
// sourceType import (for a root: without a context label). They come in the order the API server lists them, by
// name, as Landscaper takes them: a targetListRef's list is in the order
// of the hashed names of the parent's copies, not of their index labels.
func (l *loader) targetsByKey(ctx context.Context, key string) ([]*lsv1alpha1.Target, error) {
	set := labels.Set{lsv1alpha1.DataObjectKeyLabel: key,
		lsv1alpha1.DataObjectSourceTypeLabel: string(lsv1alpha1.ImportDataObjectSourceType)}
	if l.ctx != "" {
		set[lsv1alpha1.DataObjectContextLabel] = l.ctx
		set[lsv1alpha1.DataObjectJobIDLabel] = l.inst.Status.JobID
	}
	list := &lsv1alpha1.TargetList{}
	opts := fakecluster.ListOptions{Namespace: l.inst.Namespace, LabelSelector: labels.SelectorFromSet(set)}
	if err := l.r.List(ctx, list, opts); err != nil {
		return nil, fmt.Errorf("list Targets of %q: %w", key, err)
	}
	out := make([]*lsv1alpha1.Target, 0, len(list.Items))
	for i := range list.Items {
		// A root's selector requires the context label not to exist: an
		// empty value does not do.
		if _, has := list.Items[i].Labels[lsv1alpha1.DataObjectContextLabel]; l.ctx == "" && has {
			continue
		}
		out = append(out, &list.Items[i])
	}
	return out, nil
}

// byMapKey keys targets by their target map key label. A Target without
// the label fails the import, as in Landscaper's
// NewTargetMapExtensionFromList.
func byMapKey(list []*lsv1alpha1.Target) (map[string]*lsv1alpha1.Target, error) {
	out := make(map[string]*lsv1alpha1.Target, len(list))
	for _, t := range list {
		key, ok := t.Labels[lsv1alpha1.DataObjectTargetMapKeyLabel]
		if !ok {
			return nil, &ImportLoadError{err: errors.New("missing label for target map key")}
		}
		out[key] = t
	}
	return out, nil
}

// values returns the loaded imports as templates see them: data as is,
// targets as JSON maps, lists as lists, maps as maps.
func (l *loaded) values() (map[string]any, error) {
	out := make(map[string]any, len(l.data)+len(l.targets)+len(l.lists)+len(l.maps))
	for k, v := range l.data {
		out[k] = v
	}
	for k, t := range l.targets {
		v, err := targetValue(t)
		if err != nil {
			return nil, err
		}
		out[k] = v
	}
	for k, list := range l.lists {
		vs := make([]any, 0, len(list))
		for _, t := range list {
			v, err := targetValue(t)
			if err != nil {
				return nil, err
			}
			vs = append(vs, v)
		}
		out[k] = vs
	}
	for k, m := range l.maps {
		vs := make(map[string]any, len(m))
		for key, t := range m {
			v, err := targetValue(t)
			if err != nil {
				return nil, err
			}
			vs[key] = v
		}
		out[k] = vs
	}
	return out, nil
}

// hash returns a hash over the loaded imports: their values, and for
// targets name and spec, so that it changes when any import changes.
func (l *loaded) hash() (string, error) {
	type tgt struct {
		Name string                `json:"name"`
		Spec lsv1alpha1.TargetSpec `json:"spec"`
	}
	conv := func(ts ...*lsv1alpha1.Target) []tgt {
		out := make([]tgt, len(ts))
		for i, t := range ts {
			out[i] = tgt{Name: t.Name, Spec: t.Spec}
		}
		return out
	}
	doc := map[string]any{"data": l.data}
	targets := map[string]any{}
	for k, t := range l.targets {
		targets["target/"+k] = conv(t)
	}
	for k, list := range l.lists {
		targets["list/"+k] = conv(list...)
	}
	for k, m := range l.maps {
		for key, t := range m {
			targets["map/"+k+"["+key+"]"] = conv(t)
		}
	}
	doc["targets"] = targets
	data, err := fastjson.MarshalEscaped(doc)
	if err != nil {
		return "", fmt.Errorf("hash imports: %w", err)
	}
	return sha1Hex(data), nil
}
