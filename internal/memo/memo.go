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
// Max entries: a Put into a full one empties it first, which is cheaper
// than tracking use and loses little, as a landscape uses few texts many
// times. The zero value is ready to use.
type Bounded[K comparable, V any] struct {
	// Max is how many entries it keeps; zero means DefaultMax.
	Max int

	mu sync.Mutex
	m  map[K]V
}

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
	max := b.Max
	if max == 0 {
		max = DefaultMax
	}
	if b.m == nil || len(b.m) >= max {
		b.m = make(map[K]V)
	}
	b.m[k] = v
}

// TypedText keys what was decoded from a text for a target type: the same
// text decodes differently into different types.
type TypedText struct {
	Type reflect.Type
	Text string
}
