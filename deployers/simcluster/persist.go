package simcluster

import (
	"context"
	"encoding/json"
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lscli/lscli/state"
)

// Restore loads saved objects (from state.Snapshot.Clusters). Clusters are
// built lazily, when first used, so a command that does not touch them
// pays nothing. Call it before any other method.
func (cs *Clusters) Restore(objs []state.ClusterObject) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	for _, o := range objs {
		cs.saved[o.Cluster] = append(cs.saved[o.Cluster], o)
	}
}

// Save returns every object of every cluster for state.Snapshot.Clusters,
// sorted by cluster, then by apiVersion, kind, namespace and name.
func (cs *Clusters) Save() ([]state.ClusterObject, error) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	var out []state.ClusterObject
	for _, key := range cs.keys() {
		c, ok := cs.clusters[key]
		if !ok {
			out = append(out, cs.saved[key]...)
			continue
		}
		if len(c.gc) > 0 { // the collector's step comes before the state is kept
			if err := c.collectGarbage(context.Background()); err != nil {
				return nil, err
			}
		}
		objs, err := c.save()
		if err != nil {
			return nil, err
		}
		out = append(out, objs...)
	}
	return out, nil
}

// save encodes the cluster's objects with the due times of pending fills.
func (c *Cluster) save() ([]state.ClusterObject, error) {
	objs, err := c.stored()
	if err != nil {
		return nil, fmt.Errorf("save simulated cluster %s: %w", c.key, err)
	}
	out := make([]state.ClusterObject, 0, len(objs))
	for _, o := range objs {
		data, err := json.Marshal(o)
		if err != nil {
			return nil, fmt.Errorf("save simulated cluster %s: %w", c.key, err)
		}
		rec := state.ClusterObject{Cluster: c.key, Object: data}
		m, _ := meta.Accessor(o)
		ref := objectRef{gvk: o.GetObjectKind().GroupVersionKind(), namespace: m.GetNamespace(), name: m.GetName()}
		if p, ok := c.pending[ref]; ok {
			due := p.due
			rec.Due = &due
		}
		out = append(out, rec)
	}
	return out, nil
}

// restore adds saved objects to the empty cluster c.
func (c *Cluster) restore(ctx context.Context, saved []state.ClusterObject) error {
	for i, rec := range saved {
		obj, err := decodeSaved(rec.Object)
		if err != nil {
			return fmt.Errorf("restore simulated cluster %s: object %d: %w", c.key, i, err)
		}
		if err := c.tracker.Add(obj); err != nil {
			return fmt.Errorf("restore simulated cluster %s: object %d: %w", c.key, i, err)
		}
		c.restorePending(obj, rec)
		c.noteRestored(obj)
		if m, ok := obj.(client.Object); ok {
			c.noteExpiring(objectRef{gvk: obj.GetObjectKind().GroupVersionKind(), namespace: m.GetNamespace(), name: m.GetName()}, m)
		}
	}
	if err := c.migrateBuiltinStorage(); err != nil { // conversion.go
		return fmt.Errorf("restore %w", err)
	}
	if err := c.refreshCRDs(ctx); err != nil {
		return fmt.Errorf("restore simulated cluster %s: %w", c.key, err)
	}
	return c.keepWaiting(ctx)
}

// restorePending restores the status fill due for a restored object.
func (c *Cluster) restorePending(obj runtime.Object, rec state.ClusterObject) {
	if rec.Due == nil {
		return
	}
	m, _ := meta.Accessor(obj)
	ref := objectRef{gvk: obj.GetObjectKind().GroupVersionKind(), namespace: m.GetNamespace(), name: m.GetName()}
	c.pending[ref] = pendingFill{due: *rec.Due, uid: string(m.GetUID()), generation: m.GetGeneration()}
}

// decodeSaved decodes one saved object: built-in kinds as their Go type,
// custom resources as unstructured objects (numbers stay int64).
func decodeSaved(data []byte) (runtime.Object, error) {
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(data); err != nil {
		return nil, err
	}
	gvk := u.GroupVersionKind()
	if !isBuiltin(gvk) || isUnstructuredBuiltin(gvk) {
		return u, nil
	}
	typed, err := builtin().New(gvk)
	if err != nil {
		return nil, err
	}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, typed); err != nil {
		return nil, fmt.Errorf("%s %s: %w", gvk.Kind, u.GetName(), err)
	}
	typed.GetObjectKind().SetGroupVersionKind(gvk)
	return typed, nil
}
