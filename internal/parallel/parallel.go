// Package parallel runs work on n items in contiguous chunks, one per core,
// at the same time. It is what lets lscli use every core where the order
// of the result does not depend on it: decoding and encoding the state,
// printing long tables.
package parallel

import (
	"runtime"
	"sync"

	"github.com/lscli/lscli/internal/crash"
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
	Go(len(ranges), func(c int) { errs[c] = fn(c, ranges[c][0], ranges[c][1]) })
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// Go runs fn(0) to fn(n-1) at the same time and waits for them. A panic
// in one is raised again, as a *crash.Error with the panicking
// goroutine's stack, in the goroutine that called Go (that of the lowest
// w when several panicked), where lscli's recovery reports it: a panic on
// a goroutine of its own would end the process without it.
func Go(n int, fn func(w int)) {
	panics := make([]*crash.Error, n)
	var wg sync.WaitGroup
	for w := range n {
		wg.Go(func() {
			defer func() {
				if r := recover(); r != nil {
					panics[w] = crash.FromPanic(crash.Own, r)
				}
			}()
			fn(w)
		})
	}
	wg.Wait()
	for _, p := range panics {
		if p != nil {
			panic(p)
		}
	}
}

// Start runs fn on a goroutine of its own and returns wait, which waits for
// fn and returns its result; a panic in fn is raised again by wait, as Go
// does.
func Start[T any](fn func() T) (wait func() T) {
	var v T
	done := make(chan *crash.Error, 1)
	go func() {
		defer func() {
			var p *crash.Error
			if r := recover(); r != nil {
				p = crash.FromPanic(crash.Own, r)
			}
			done <- p
		}()
		v = fn()
	}()
	return func() T {
		if p := <-done; p != nil {
			panic(p)
		}
		return v
	}
}

// ForChunks runs fn on each range of Chunks(0, n, minChunk) in parallel;
// see Run.
func ForChunks(n, minChunk int, fn func(c, lo, hi int) error) error {
	return Run(Chunks(0, n, minChunk), fn)
}
