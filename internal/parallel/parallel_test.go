package parallel_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/lscli/lscli/internal/crash"
	"github.com/lscli/lscli/internal/parallel"
)

func TestChunksCoverEveryItemOnce(t *testing.T) {
	for _, n := range []int{0, 1, 255, 256, 257, 10_000} {
		seen := make([]int, n)
		err := parallel.ForChunks(n, 256, func(_, lo, hi int) error {
			for i := lo; i < hi; i++ {
				seen[i]++
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for i, k := range seen {
			if k != 1 {
				t.Fatalf("n=%d: item %d done %d times", n, i, k)
			}
		}
		if got := len(parallel.Chunks(0, n, 256)); got > parallel.Workers() || (n > 0) != (got > 0) {
			t.Errorf("n=%d: %d chunks", n, got)
		}
	}
}

func TestRunReportsTheLowestRangesError(t *testing.T) {
	ranges := [][2]int{{0, 1}, {1, 2}, {2, 3}}
	err := parallel.Run(ranges, func(c, _, _ int) error {
		if c == 0 {
			return nil
		}
		return fmt.Errorf("range %d", c)
	})
	if err == nil || err.Error() != "range 1" {
		t.Fatalf("error %v, want range 1", err)
	}
	if err := parallel.Run(nil, func(int, int, int) error { return errors.New("never") }); err != nil {
		t.Fatal(err)
	}
}

// TestPanicsReachTheCaller: a panic on a worker goroutine is raised again
// in the goroutine that waits, as a *crash.Error with the worker's stack,
// so that lscli's recovery reports it instead of the process dying.
func TestPanicsReachTheCaller(t *testing.T) {
	catch := func(f func()) (err error) {
		defer crash.Recover(crash.Own, &err)
		f()
		return nil
	}
	err := catch(func() {
		parallel.Go(3, func(w int) {
			if w >= 1 {
				panic(fmt.Sprintf("worker %d", w))
			}
		})
	})
	ce := crash.As(err)
	if ce == nil || ce.Value != "worker 1" || !strings.Contains(string(ce.Stack), "parallel_test.go") {
		t.Fatalf("Go: %v, want the lowest worker's panic with its stack", err)
	}
	err = catch(func() {
		wait := parallel.Start(func() int { panic("started") })
		wait()
	})
	if ce := crash.As(err); ce == nil || ce.Value != "started" {
		t.Fatalf("Start: %v, want its panic", err)
	}
	if got := parallel.Start(func() int { return 7 })(); got != 7 {
		t.Errorf("Start returned %d, want 7", got)
	}
}
