package helm

import (
	"container/list"
	"maps"
	"slices"
	"sync"

	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/release"
	"k8s.io/apimachinery/pkg/runtime"
)

// recordCache keeps the releases decoded from helm's release records, by
// the record's bytes (base64 of gzipped JSON), so that a record read again
// is not decompressed and decoded again: helm reads a release's whole
// history several times per action (History, the last and the deployed
// release, the record it replaces), and a large chart's record is megabytes
// of JSON. The decoding is a pure function of the bytes, so the cache
// changes no output, only the time.
//
// helm changes the releases its storage hands out (their Info, the hooks'
// LastRun, a rollback's new record built from an old one's hooks), so the
// cache hands out copies that share nothing helm could change: only
// strings and the chart files' bytes, which nothing writes to.
type recordCache struct {
	mu sync.Mutex
	// max is the sum of the records' JSON lengths the cache holds at most
	// (a decoded release takes about twice that).
	max, size int
	byData    map[string]*list.Element
	lru       list.List // of *cachedRecord, most recently used first
}

// cachedRecord is one decoded record and the length of its JSON.
type cachedRecord struct {
	data string
	rls  *release.Release
	size int
}

// releaseRecords is the cache decodeRelease reads through: records of 24 MB
// of JSON in all, the whole history of a kube-prometheus-stack release (10
// revisions and the new one, about 1.4 MB each) with room for the smaller
// releases of the same landscape.
var releaseRecords = newRecordCache(24 << 20)

// newRecordCache returns a cache that holds records of up to max bytes of
// JSON in all.
func newRecordCache(max int) *recordCache {
	return &recordCache{max: max, byData: map[string]*list.Element{}}
}

// get returns a copy of the release decoded from data, calling decode on a
// miss (which also returns the length of the JSON it decoded). An error is
// not kept.
func (c *recordCache) get(data []byte, decode func() (*release.Release, int, error)) (*release.Release, error) {
	c.mu.Lock()
	if e, ok := c.byData[string(data)]; ok {
		c.lru.MoveToFront(e)
		rls := e.Value.(*cachedRecord).rls
		c.mu.Unlock()
		return copyRelease(rls), nil
	}
	c.mu.Unlock()
	rls, size, err := decode()
	if err != nil || size > c.max || rls.Info != nil && rls.Info.Resources != nil {
		return rls, err
	}
	kept := copyRelease(rls)
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byData[string(data)]; !ok {
		rec := &cachedRecord{data: string(data), rls: kept, size: size}
		c.byData[rec.data] = c.lru.PushFront(rec)
		c.size += size
		for c.size > c.max {
			old := c.lru.Remove(c.lru.Back()).(*cachedRecord)
			delete(c.byData, old.data)
			c.size -= old.size
		}
	}
	return rls, nil
}

// copyRelease returns a copy of r that shares no map, slice or pointer with
// it other than the byte slices of chart files and schemas. Info.Resources,
// which release records never carry, is copied object by object. r is
// decoded from JSON: its values (Config, the chart's Values) hold only the
// types runtime.DeepCopyJSON copies.
func copyRelease(r *release.Release) *release.Release {
	if r == nil {
		return nil
	}
	c := *r
	if r.Info != nil {
		info := *r.Info
		if r.Info.Resources != nil {
			info.Resources = make(map[string][]runtime.Object, len(r.Info.Resources))
			for k, objs := range r.Info.Resources {
				cp := make([]runtime.Object, len(objs))
				for i, o := range objs {
					if o != nil {
						cp[i] = o.DeepCopyObject()
					}
				}
				info.Resources[k] = cp
			}
		}
		c.Info = &info
	}
	c.Chart = copyChart(r.Chart)
	c.Config = runtime.DeepCopyJSON(r.Config)
	c.Hooks = copyEach(r.Hooks, func(h *release.Hook) {
		h.Events = slices.Clone(h.Events)
		h.DeletePolicies = slices.Clone(h.DeletePolicies)
		h.OutputLogPolicies = slices.Clone(h.OutputLogPolicies)
	})
	c.Labels = maps.Clone(r.Labels)
	return &c
}

// copyChart copies ch as copyRelease does. A decoded chart has no parent
// and no dependencies (they are not in the record); a chart with either is
// copied with them shared.
func copyChart(ch *chart.Chart) *chart.Chart {
	if ch == nil {
		return nil
	}
	c := *ch
	c.Raw = copyFiles(ch.Raw)
	c.Templates = copyFiles(ch.Templates)
	c.Files = copyFiles(ch.Files)
	c.Values = runtime.DeepCopyJSON(ch.Values)
	c.Schema = ch.Schema[:len(ch.Schema):len(ch.Schema)]
	if m := ch.Metadata; m != nil {
		mc := *m
		mc.Sources = slices.Clone(m.Sources)
		mc.Keywords = slices.Clone(m.Keywords)
		mc.Annotations = maps.Clone(m.Annotations)
		mc.Maintainers = copyEach(m.Maintainers, nil)
		mc.Dependencies = copyDependencies(m.Dependencies)
		c.Metadata = &mc
	}
	if l := ch.Lock; l != nil {
		lc := *l
		lc.Dependencies = copyDependencies(l.Dependencies)
		c.Lock = &lc
	}
	return &c
}

// copyEach copies the values ps point to (nil stays nil), each then made
// deep by deepen (nil: the shallow copy is enough).
func copyEach[T any](ps []*T, deepen func(*T)) []*T {
	if ps == nil {
		return nil
	}
	out := make([]*T, len(ps))
	for i, p := range ps {
		if p != nil {
			c := *p
			if deepen != nil {
				deepen(&c)
			}
			out[i] = &c
		}
	}
	return out
}

// copyFiles copies the File values of fs; their bytes are shared, with no
// room to append into.
func copyFiles(fs []*chart.File) []*chart.File {
	return copyEach(fs, func(f *chart.File) { f.Data = f.Data[:len(f.Data):len(f.Data)] })
}

// copyDependencies copies a chart's dependency list.
func copyDependencies(deps []*chart.Dependency) []*chart.Dependency {
	return copyEach(deps, func(d *chart.Dependency) {
		d.Tags = slices.Clone(d.Tags)
		if d.ImportValues != nil {
			vs := make([]interface{}, len(d.ImportValues))
			for j, v := range d.ImportValues {
				vs[j] = runtime.DeepCopyJSONValue(v)
			}
			d.ImportValues = vs
		}
	})
}
