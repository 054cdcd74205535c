package parallel_test

import (
	"errors"
	"fmt"
	"testing"

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
