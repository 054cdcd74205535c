package components

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/lscli/lscli/landscaper/components/source"
)

// index holds the component versions of a set of sources, loaded once.
type index struct {
	sources []source.Source
	once    sync.Once
	byKey   map[source.Key][]ranked
	// failed lists the sources that did not load, with why.
	failed []string
}

func newIndex(sources ...source.Source) *index { return &index{sources: sources} }

// load reads every source; one that fails is remembered, not fatal.
func (x *index) load() {
	x.once.Do(func() {
		x.byKey = map[source.Key][]ranked{}
		for _, s := range x.sources {
			vs, err := s.Load()
			if err != nil {
				x.failed = append(x.failed, err.Error())
				continue
			}
			for _, v := range vs {
				x.byKey[v.Key()] = append(x.byKey[v.Key()], ranked{Version: v, rank: s.Rank()})
			}
		}
	})
}

// ranked is a version and the rank of its source.
type ranked struct {
	*source.Version
	rank source.Rank
}

// find returns the version k: the one of the highest-ranked source; two of
// the same rank that differ are an error.
func (x *index) find(k source.Key) (*source.Version, error) {
	x.load()
	cands := x.byKey[k]
	if len(cands) == 0 {
		return nil, nil
	}
	best := cands[0]
	for _, c := range cands[1:] {
		if c.rank > best.rank {
			best = c
		}
	}
	for _, c := range cands {
		if c.Version != best.Version && c.rank == best.rank && !sameDescriptor(c.Version, best.Version) {
			return nil, &AmbiguousError{Key: k, Origins: []string{best.Origin, c.Origin},
				Difference: firstDifference(best.Descriptor, c.Descriptor)}
		}
	}
	return best.Version, nil
}

// sameDescriptor tells whether two versions have the same descriptor.
func sameDescriptor(a, b *source.Version) bool {
	ja, err1 := json.Marshal(a.Descriptor)
	jb, err2 := json.Marshal(b.Descriptor)
	return err1 == nil && err2 == nil && string(ja) == string(jb)
}

// firstDifference names the first field, in the order of sorted keys, in
// which a and b differ when written as JSON, with both values:
// `component.creationTime: "x" and "y"`. Versions the ocm CLI wrote twice
// from one constructor differ only in their creationTime, which the user
// would not see otherwise. It returns "" when it finds none.
func firstDifference(a, b any) string {
	var va, vb any
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	if err1 != nil || err2 != nil || json.Unmarshal(ja, &va) != nil || json.Unmarshal(jb, &vb) != nil {
		return ""
	}
	return diffValues("", va, vb)
}

// diffValues is firstDifference below the path p.
func diffValues(p string, a, b any) string {
	switch ma := a.(type) {
	case map[string]any:
		if mb, ok := b.(map[string]any); ok {
			keys := make([]string, 0, len(ma)+len(mb))
			for k := range ma {
				keys = append(keys, k)
			}
			for k := range mb {
				if _, ok := ma[k]; !ok {
					keys = append(keys, k)
				}
			}
			sort.Strings(keys)
			for _, k := range keys {
				sub := k
				if p != "" {
					sub = p + "." + k
				}
				if d := diffValues(sub, ma[k], mb[k]); d != "" {
					return d
				}
			}
			return ""
		}
	case []any:
		if lb, ok := b.([]any); ok && len(ma) == len(lb) {
			for i := range ma {
				if d := diffValues(fmt.Sprintf("%s[%d]", p, i), ma[i], lb[i]); d != "" {
					return d
				}
			}
			return ""
		}
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if string(ja) == string(jb) {
		return ""
	}
	if p == "" {
		p = "the descriptor"
	}
	return fmt.Sprintf("%s: %s and %s", p, shorten(ja), shorten(jb))
}

// shorten cuts a JSON value for a message.
func shorten(j []byte) string {
	const limit = 80
	if j == nil || string(j) == "null" {
		return "(none)"
	}
	if len(j) > limit {
		return string(j[:limit]) + "..."
	}
	return string(j)
}

// held lists what the index holds, for messages: each source with up to
// three of its versions.
func (x *index) held() []string {
	x.load()
	bySource := map[string][]string{}
	var origins []string
	for k, vs := range x.byKey {
		for _, v := range vs {
			if _, ok := bySource[v.Origin]; !ok {
				origins = append(origins, v.Origin)
			}
			bySource[v.Origin] = append(bySource[v.Origin], k.String())
		}
	}
	sort.Strings(origins)
	out := make([]string, 0, len(origins))
	for _, o := range origins {
		keys := bySource[o]
		sort.Strings(keys)
		if len(keys) > 3 {
			keys = append(keys[:3], fmt.Sprintf("%d more", len(keys)-3))
		}
		out = append(out, fmt.Sprintf("%s (holds %s)", o, strings.Join(keys, ", ")))
	}
	return out
}
