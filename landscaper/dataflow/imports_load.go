package dataflow

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/yaml"

	"github.com/lscli/lscli/fakecluster"
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

// load reads every import of l.inst. A missing object is a normal error.
func (l *loader) load(ctx context.Context) (*loaded, error) {
	out := &loaded{data: map[string]any{}, targets: map[string]*lsv1alpha1.Target{},
		lists: map[string][]*lsv1alpha1.Target{}, maps: map[string]map[string]*lsv1alpha1.Target{}}
	for _, imp := range l.inst.Spec.Imports.Data {
		v, err := l.data(ctx, imp)
		if err != nil {
			return nil, fmt.Errorf("installation %s: import %q: %w", instName(l.inst), imp.Name, err)
		}
		out.data[imp.Name] = v
	}
	for _, imp := range l.inst.Spec.Imports.Targets {
		if err := l.target(ctx, imp, out); err != nil {
			return nil, fmt.Errorf("installation %s: import %q: %w", instName(l.inst), imp.Name, err)
		}
	}
	return out, nil
}

// data reads one data import: a DataObject, or a key of a Secret or ConfigMap.
func (l *loader) data(ctx context.Context, imp lsv1alpha1.DataImport) (any, error) {
	switch {
	case imp.DataRef != "":
		do := &lsv1alpha1.DataObject{}
		if err := l.get(ctx, ObjectName(l.ctx, imp.DataRef), do, "DataObject", "dataRef", imp.DataRef); err != nil {
			return nil, err
		}
		v, err := decodeRaw(do.Data.RawMessage)
		if err != nil {
			return nil, fmt.Errorf("DataObject %s: %w", do.Name, err)
		}
		return v, nil
	case imp.SecretRef != nil:
		s := &corev1.Secret{}
		if err := l.get(ctx, imp.SecretRef.Name, s, "Secret", "", ""); err != nil {
			return nil, err
		}
		return fromKeys(s.Data, imp.SecretRef.Key, "Secret "+s.Name)
	case imp.ConfigMapRef != nil:
		cm := &corev1.ConfigMap{}
		if err := l.get(ctx, imp.ConfigMapRef.Name, cm, "ConfigMap", "", ""); err != nil {
			return nil, err
		}
		return fromKeys(configMapData(cm), imp.ConfigMapRef.Key, "ConfigMap "+cm.Name)
	}
	return nil, fmt.Errorf("names no dataRef, secretRef or configMapRef")
}

// get reads the object name into obj. A missing object is a normal error
// that says what was looked for.
func (l *loader) get(ctx context.Context, name string, obj fakecluster.Object, kind, refKind, ref string) error {
	err := l.r.Get(ctx, types.NamespacedName{Namespace: l.inst.Namespace, Name: name}, obj)
	if apierrors.IsNotFound(err) {
		where := ""
		if l.ctx != "" && refKind != "" {
			where = fmt.Sprintf(" (%s %q in context %s)", refKind, ref, l.ctx)
		}
		return fmt.Errorf("%s %s/%s%s does not exist", kind, l.inst.Namespace, name, where)
	}
	if err != nil {
		return fmt.Errorf("get %s %s: %w", kind, name, err)
	}
	return nil
}

// configMapData merges data and binaryData of a ConfigMap.
func configMapData(cm *corev1.ConfigMap) map[string][]byte {
	out := map[string][]byte{}
	for k, v := range cm.BinaryData {
		out[k] = v
	}
	for k, v := range cm.Data {
		out[k] = []byte(v)
	}
	return out
}

// fromKeys returns the value of key (a YAML or JSON document), or, for an
// empty key, all keys as a map of their decoded values, as Landscaper does.
func fromKeys(data map[string][]byte, key, what string) (any, error) {
	if key != "" {
		raw, ok := data[key]
		if !ok {
			return nil, fmt.Errorf("%s has no key %q", what, key)
		}
		var v any
		if err := yaml.Unmarshal(raw, &v); err != nil {
			return nil, fmt.Errorf("%s key %q: %w", what, key, err)
		}
		return v, nil
	}
	out := map[string]any{}
	for k, raw := range data {
		var v any
		if err := yaml.Unmarshal(raw, &v); err != nil {
			return nil, fmt.Errorf("%s key %q: %w", what, k, err)
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
		out.lists[imp.Name], err = l.targetsByKey(ctx, imp.TargetListReference, lsv1alpha1.DataObjectIndexLabel)
	case imp.TargetMap != nil:
		out.maps[imp.Name], err = l.targetMap(ctx, imp.TargetMap)
	case imp.TargetMapReference != "":
		var list []*lsv1alpha1.Target
		if list, err = l.targetsByKey(ctx, imp.TargetMapReference, lsv1alpha1.DataObjectTargetMapKeyLabel); err == nil {
			out.maps[imp.Name] = byMapKey(list)
		}
	default:
		err = fmt.Errorf("names no target, targets, targetListRef, targetMap or targetMapRef")
	}
	return err
}

// getTarget reads the Target of key name in the installation's context.
func (l *loader) getTarget(ctx context.Context, name string) (*lsv1alpha1.Target, error) {
	t := &lsv1alpha1.Target{}
	if err := l.get(ctx, ObjectName(l.ctx, name), t, "Target", "target", name); err != nil {
		return nil, err
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

// targetMap reads a target map given by names.
func (l *loader) targetMap(ctx context.Context, m map[string]string) (map[string]*lsv1alpha1.Target, error) {
	out := make(map[string]*lsv1alpha1.Target, len(m))
	for k, n := range m {
		t, err := l.getTarget(ctx, n)
		if err != nil {
			return nil, err
		}
		out[k] = t
	}
	return out, nil
}

// targetsByKey lists the Targets that the parent wrote for its import key
// (targetListRef, targetMapRef): in the installation's context, of its job,
// sourceType import. They are sorted by the label orderBy (index or map key).
func (l *loader) targetsByKey(ctx context.Context, key, orderBy string) ([]*lsv1alpha1.Target, error) {
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
		if l.ctx == "" && list.Items[i].Labels[lsv1alpha1.DataObjectContextLabel] != "" {
			continue
		}
		out = append(out, &list.Items[i])
	}
	sort.SliceStable(out, func(i, j int) bool { return lessLabel(out[i], out[j], orderBy) })
	return out, nil
}

// lessLabel orders targets by a label, numerically when both are numbers.
func lessLabel(a, b *lsv1alpha1.Target, label string) bool {
	x, y := a.Labels[label], b.Labels[label]
	xi, err1 := strconv.Atoi(x)
	yi, err2 := strconv.Atoi(y)
	if err1 == nil && err2 == nil {
		return xi < yi
	}
	return x < y
}

// byMapKey keys targets by their target map key label.
func byMapKey(list []*lsv1alpha1.Target) map[string]*lsv1alpha1.Target {
	out := make(map[string]*lsv1alpha1.Target, len(list))
	for _, t := range list {
		out[t.Labels[lsv1alpha1.DataObjectTargetMapKeyLabel]] = t
	}
	return out
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
	data, err := json.Marshal(doc)
	if err != nil {
		return "", fmt.Errorf("hash imports: %w", err)
	}
	return sha1Hex(data), nil
}
