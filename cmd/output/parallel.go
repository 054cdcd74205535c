package output

import (
	"runtime"
	"sync"
)

// minParallel is the fewest items worth splitting over the cores.
const minParallel = 4096

// chunkCount is how many chunks forChunks splits n items into: one per
// core when n is large, else one.
func chunkCount(n int) int {
	return min(runtime.GOMAXPROCS(0), max(1, n/minParallel))
}

// forChunks calls fn(c, lo, hi) for chunk c of chunkCount(n) contiguous
// ranges [lo, hi) covering 0..n, in parallel.
func forChunks(n int, fn func(c, lo, hi int)) {
	k := chunkCount(n)
	if k == 1 {
		fn(0, 0, n)
		return
	}
	var wg sync.WaitGroup
	for c := range k {
		wg.Go(func() { fn(c, n*c/k, n*(c+1)/k) })
	}
	wg.Wait()
}
