// Package parallel runs work on n items in contiguous chunks, one per core,
// at the same time. It is what lets lscli use every core where the order
// of the result does not depend on it: decoding and encoding the state,
// printing long tables.
package parallel

import (
	"runtime"
	"sync"
)

// Workers is the most chunks Chunks makes: one for each processor.
func Workers() int { return runtime.GOMAXPROCS(0) }

// Chunks splits the items [lo, hi) into up to Workers() contiguous ranges
// of at least minChunk items (the last ones may have fewer), in order. It
// returns no range when there are no items.
func Chunks(lo, hi, minChunk int) [][2]int {
	n := hi - lo
	k := min(Workers(), (n+minChunk-1)/minChunk)
	out := make([][2]int, 0, k)
	for w := range k {
		out = append(out, [2]int{lo + n*w/k, lo + n*(w+1)/k})
	}
	return out
}

// Run runs fn(c, lo, hi) for each range c in parallel and returns the error
// of the lowest range that failed, so that the error does not depend on
// scheduling. fn reports the first error of its own range.
func Run(ranges [][2]int, fn func(c, lo, hi int) error) error {
	errs := make([]error, len(ranges))
	var wg sync.WaitGroup
	for c, r := range ranges {
		wg.Go(func() { errs[c] = fn(c, r[0], r[1]) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// ForChunks runs fn on each range of Chunks(0, n, minChunk) in parallel;
// see Run.
func ForChunks(n, minChunk int, fn func(c, lo, hi int) error) error {
	return Run(Chunks(0, n, minChunk), fn)
}
