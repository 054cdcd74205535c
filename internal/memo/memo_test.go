package memo_test

import (
	"sync"
	"testing"

	"github.com/lscli/lscli/internal/memo"
)

func TestBoundedKeepsAtMostMax(t *testing.T) {
	var b memo.Bounded[string, int]
	b.Max = 2
	b.Put("a", 1)
	b.Put("b", 2)
	if v, ok := b.Get("a"); !ok || v != 1 {
		t.Fatalf("Get(a) = %v, %v", v, ok)
	}
	b.Put("c", 3) // full: emptied first
	if _, ok := b.Get("a"); ok {
		t.Error("a survived a Put into a full memo")
	}
	if v, ok := b.Get("c"); !ok || v != 3 {
		t.Errorf("Get(c) = %v, %v", v, ok)
	}
}

func TestBoundedIsSafeForConcurrentUse(t *testing.T) {
	var b memo.Bounded[int, int]
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 3000 {
				b.Put(j, i)
				b.Get(j)
			}
		})
	}
	wg.Wait()
}
