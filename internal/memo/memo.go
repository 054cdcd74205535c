// Package memo keeps what lscli computed from a text (a parsed template,
// a decoded value, a compiled schema), so that a blueprint rolled out many
// times is worked out once.
package memo

import (
	"reflect"
	"sync"
)

// DefaultMax is how many entries a Bounded keeps when its Max is zero.
const DefaultMax = 1024

// Bounded maps keys to values, safe for concurrent use. It keeps at most
// Max entries, and, when Size is set, keys of at most MaxBytes bytes in
// all: a Put into a full one empties it first, which is cheaper than
// tracking use and loses little, as a landscape uses few texts many times.
// The zero value is ready to use.
type Bounded[K comparable, V any] struct {
	// Max is how many entries it keeps; zero means DefaultMax.
	Max int
	// Size, when set, gives the bytes a key stands for (its text, whose
	// value is about as large): the keys kept add up to at most MaxBytes
	// (DefaultMaxBytes when zero), and a key larger than that is not
	// kept at all. Large texts (helm values, big blueprints) would
	// otherwise make Max entries a lot of memory.
	Size     func(K) int
	MaxBytes int

	mu    sync.Mutex
	m     map[K]V
	bytes int
}

// DefaultMaxBytes is the MaxBytes of a Bounded with Size set and MaxBytes
// zero.
const DefaultMaxBytes = 32 << 20

// Get returns the value kept for k.
func (b *Bounded[K, V]) Get(k K) (V, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	v, ok := b.m[k]
	return v, ok
}

// Put keeps v for k, emptying b first when it is full.
func (b *Bounded[K, V]) Put(k K, v V) {
	b.mu.Lock()
	defer b.mu.Unlock()
	max, maxBytes, size := b.Max, b.MaxBytes, 0
	if max == 0 {
		max = DefaultMax
	}
	if maxBytes == 0 {
		maxBytes = DefaultMaxBytes
	}
	if b.Size != nil {
		if size = b.Size(k); size > maxBytes {
			return
		}
	}
	if _, ok := b.m[k]; ok {
		b.m[k] = v
		return
	}
	if b.m == nil || len(b.m) >= max || b.bytes+size > maxBytes {
		b.m, b.bytes = make(map[K]V), 0
	}
	b.m[k] = v
	b.bytes += size
}

// StringSize is a Size for text keys: their length.
func StringSize(k string) int { return len(k) }

// TypedText keys what was decoded from a text for a target type: the same
// text decodes differently into different types.
type TypedText struct {
	Type reflect.Type
	Text string
}
