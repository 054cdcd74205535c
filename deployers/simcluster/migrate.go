package simcluster

import (
	"context"
	"encoding/json"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/state"
)

// migrate moves each saved cluster whose key names a Target
// ("namespace/name", the only key of states saved before clusters were
// keyed by what identifies them) to the key that Target has now (Key):
// the cluster of its server, or of the Target it is a copy of. A Target
// that no longer exists keeps its cluster. It runs once, before the first
// cluster is opened. The caller holds the lock.
func (cs *Clusters) migrate(ctx context.Context) error {
	if cs.migrated || cs.opts.Landscape == nil {
		return nil
	}
	cs.migrated = true
	for _, key := range cs.keys() {
		if isServerKey(key) {
			continue
		}
		ns, name := splitKey(key)
		t := &lsv1alpha1.Target{}
		err := cs.opts.Landscape.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, t)
		if apierrors.IsNotFound(err) {
			continue
		}
		if err != nil {
			return fmt.Errorf("migrate simulated cluster %s: %w", key, err)
		}
		now, err := Key(ctx, t, cs.reader())
		if err != nil || now == key {
			continue // a Target that cannot be resolved now keeps its cluster
		}
		if err := cs.adopt(ctx, now, key); err != nil {
			return err
		}
	}
	return nil
}

// adopt moves the objects saved under legacy into the cluster key. Where
// both hold the same object (kind, namespace and name), key's copy stays.
// The caller holds the lock.
func (cs *Clusters) adopt(ctx context.Context, key, legacy string) error {
	saved, ok := cs.saved[legacy]
	if !ok {
		return nil
	}
	delete(cs.saved, legacy)
	for i := range saved {
		saved[i].Cluster = key
	}
	if c, ok := cs.clusters[key]; ok {
		return c.restoreMissing(ctx, saved)
	}
	seen := map[string]bool{}
	for _, o := range cs.saved[key] {
		seen[identityOf(o.Object)] = true
	}
	for _, o := range saved {
		if id := identityOf(o.Object); !seen[id] {
			seen[id] = true
			cs.saved[key] = append(cs.saved[key], o)
		}
	}
	return nil
}

// restoreMissing adds the saved objects the open cluster c does not have.
func (c *Cluster) restoreMissing(ctx context.Context, saved []state.ClusterObject) error {
	for i, rec := range saved {
		obj, err := decodeSaved(rec.Object)
		if err != nil {
			return fmt.Errorf("adopt into simulated cluster %s: object %d: %w", c.key, i, err)
		}
		err = c.tracker.Add(obj)
		if apierrors.IsAlreadyExists(err) {
			continue
		}
		if err != nil {
			return fmt.Errorf("adopt into simulated cluster %s: object %d: %w", c.key, i, err)
		}
		c.restorePending(obj, rec)
	}
	return c.refreshCRDs(ctx)
}

// identityOf is apiVersion, kind, namespace and name of a saved object.
func identityOf(data []byte) string {
	var o struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		Metadata   struct {
			Namespace string `json:"namespace"`
			Name      string `json:"name"`
		} `json:"metadata"`
	}
	if json.Unmarshal(data, &o) != nil {
		return string(data)
	}
	return o.APIVersion + "\x00" + o.Kind + "\x00" + o.Metadata.Namespace + "\x00" + o.Metadata.Name
}
