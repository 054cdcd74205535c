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

// TestBoundedKeepsAtMostMaxBytes: with Size set, the keys kept add up to at
// most MaxBytes, a key larger than that is not kept, and putting a key
// again does not count it twice.
func TestBoundedKeepsAtMostMaxBytes(t *testing.T) {
	b := memo.Bounded[string, int]{Size: func(k string) int { return len(k) }, MaxBytes: 10}
	b.Put("aaaa", 1)
	b.Put("aaaa", 2) // the same key: still 4 bytes
	b.Put("bbbbbb", 3)
	if v, ok := b.Get("aaaa"); !ok || v != 2 {
		t.Fatalf("Get(aaaa) = %v, %v; want 2, true", v, ok)
	}
	if _, ok := b.Get("bbbbbb"); !ok {
		t.Fatal("bbbbbb (10 bytes in all) not kept")
	}
	b.Put("c", 4) // 11 bytes: emptied first
	if _, ok := b.Get("aaaa"); ok {
		t.Error("aaaa survived a Put beyond MaxBytes")
	}
	if v, ok := b.Get("c"); !ok || v != 4 {
		t.Errorf("Get(c) = %v, %v", v, ok)
	}
	b.Put("too large a key", 5)
	if _, ok := b.Get("too large a key"); ok {
		t.Error("a key larger than MaxBytes was kept")
	}
	if _, ok := b.Get("c"); !ok {
		t.Error("a key too large to keep emptied the memo")
	}
}
