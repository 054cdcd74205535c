package reconcile

import (
	"encoding/binary"
	"fmt"
	"io"
	"math/rand/v2"
)

// DefaultSeed seeds the random source when the user gives no --seed.
const DefaultSeed uint64 = 1

// Random is the simulation's seeded random source. Its state can be saved and
// restored, so a later command goes on with the same stream instead of
// repeating job IDs.
type Random struct {
	src *rand.ChaCha8
	*rand.Rand
}

// NewRandom returns a random source seeded with seed.
func NewRandom(seed uint64) *Random {
	var key [32]byte
	binary.LittleEndian.PutUint64(key[:], seed)
	src := rand.NewChaCha8(key)
	return &Random{src: src, Rand: rand.New(src)}
}

// RestoreRandom returns a random source that continues from state, as saved
// by MarshalBinary.
func RestoreRandom(state []byte) (*Random, error) {
	src := rand.NewChaCha8([32]byte{})
	if err := src.UnmarshalBinary(state); err != nil {
		return nil, fmt.Errorf("restore random source: %w", err)
	}
	return &Random{src: src, Rand: rand.New(src)}, nil
}

// MarshalBinary returns the state of the source.
func (r *Random) MarshalBinary() ([]byte, error) { return r.src.MarshalBinary() }

// Read fills p with random bytes; it never fails.
func (r *Random) Read(p []byte) (int, error) { return r.src.Read(p) }

var _ io.Reader = (*Random)(nil)
