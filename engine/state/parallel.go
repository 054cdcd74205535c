package state

import (
	"runtime"
	"sync"
)

// minChunk is the fewest items worth a goroutine of their own.
const minChunk = 256

// chunks splits n items into up to GOMAXPROCS contiguous ranges [lo, hi),
// in order. It returns no range when n is 0.
func chunks(n int) [][2]int {
	workers := min(runtime.GOMAXPROCS(0), (n+minChunk-1)/minChunk)
	out := make([][2]int, 0, workers)
	for w := range workers {
		out = append(out, [2]int{n * w / workers, n * (w + 1) / workers})
	}
	return out
}

// forChunks runs fn on each range of chunks(n) in parallel and returns the
// error of the lowest range that failed, so that the error does not depend
// on scheduling. fn reports the first error of its own range.
func forChunks(n int, fn func(c, lo, hi int) error) error {
	ranges := chunks(n)
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
