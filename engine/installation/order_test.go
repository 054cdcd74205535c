package installation

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestOrderByCacheIsCacheOrder compares orderByCache with a comparison sort
// of the same order on random caches and shuffled subinstallations:
// orphans first, then the active subinstallations, each in cache order, the
// others after them by name (names the cache repeats included).
func TestOrderByCacheIsCacheOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 500 {
		n := r.IntN(12)
		subs := make([]*lsv1alpha1.Installation, n)
		for i := range subs {
			subs[i] = &lsv1alpha1.Installation{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("s-%02d", r.IntN(100)*100+i)}}
		}
		var cache *lsv1alpha1.SubInstCache
		if r.IntN(4) > 0 {
			cache = &lsv1alpha1.SubInstCache{}
			pick := func() string {
				if n > 0 && r.IntN(4) > 0 {
					return subs[r.IntN(n)].Name
				}
				return fmt.Sprintf("gone-%d", r.IntN(10))
			}
			for range r.IntN(5) {
				cache.OrphanedSubs = append(cache.OrphanedSubs, pick())
			}
			for range r.IntN(8) {
				cache.ActiveSubs = append(cache.ActiveSubs, lsv1alpha1.SubNamePair{ObjectName: pick()})
			}
		}
		want := slices.Clone(subs)
		referenceOrder(want, cache)
		got := slices.Clone(subs)
		r.Shuffle(len(got), func(i, j int) { got[i], got[j] = got[j], got[i] })
		orderByCache(got, cache)
		if !slices.Equal(got, want) {
			t.Fatalf("round %d: order %v, want %v (cache %+v)", round, names(got), names(want), cache)
		}
	}
}

// referenceOrder is the order of orderByCache by a stable comparison sort
// of subs in name order that looks each place up at every comparison (the
// way orderByCache was written before).
func referenceOrder(subs []*lsv1alpha1.Installation, cache *lsv1alpha1.SubInstCache) {
	pos := map[string]int{}
	if cache != nil {
		for _, n := range cache.OrphanedSubs {
			pos[n] = len(pos)
		}
		for _, p := range cache.ActiveSubs {
			if _, ok := pos[p.ObjectName]; !ok {
				pos[p.ObjectName] = len(pos)
			}
		}
	}
	sort.Slice(subs, func(i, j int) bool { return subs[i].Name < subs[j].Name })
	sort.SliceStable(subs, func(i, j int) bool {
		pi, iok := pos[subs[i].Name]
		pj, jok := pos[subs[j].Name]
		switch {
		case iok && jok:
			return pi < pj
		case iok != jok:
			return iok
		}
		return subs[i].Name < subs[j].Name
	})
}
