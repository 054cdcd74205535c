package state

import (
	"runtime"
	"sync"
)

// minChunk is the fewest items worth a goroutine of their own.
const minChunk = 256

// workers is the most goroutines chunks uses: one for each processor.
func workers() int { return runtime.GOMAXPROCS(0) }

// chunks splits the items [lo, hi) into up to GOMAXPROCS contiguous ranges,
// in order. It returns no range when there are no items.
func chunks(lo, hi int) [][2]int {
	n := hi - lo
	k := min(workers(), (n+minChunk-1)/minChunk)
	out := make([][2]int, 0, k)
	for w := range k {
		out = append(out, [2]int{lo + n*w/k, lo + n*(w+1)/k})
	}
	return out
}

// forChunks runs fn on each range of chunks(0, n) in parallel; see forRanges.
func forChunks(n int, fn func(c, lo, hi int) error) error {
	return forRanges(chunks(0, n), fn)
}

// forRanges runs fn(c, lo, hi) for each range c in parallel and returns the
// error of the lowest range that failed, so that the error does not depend on
// scheduling. fn reports the first error of its own range.
func forRanges(ranges [][2]int, fn func(c, lo, hi int) error) error {
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
