package ids

import (
	"io"
	"math/rand/v2"

	"github.com/google/uuid"
)

// nameAlphabet is the alphabet of Kubernetes' generateName suffixes
// (k8s.io/apimachinery/pkg/util/rand): no vowels, so that generated names do
// not spell words, and no characters that are easily confused.
const nameAlphabet = "bcdfghjklmnpqrstvwxz2456789"

const (
	// SuffixLength is the length of a generateName suffix.
	SuffixLength = 5
	// MaxGeneratedBase is the longest generateName prefix kept, so that the
	// name fits in 63 characters, as in the API server's name generator.
	MaxGeneratedBase = 63 - SuffixLength
)

// GenerateName returns base, shortened to MaxGeneratedBase, plus a random
// suffix of SuffixLength characters drawn from r.
func GenerateName(r *rand.Rand, base string) string {
	if len(base) > MaxGeneratedBase {
		base = base[:MaxGeneratedBase]
	}
	b := make([]byte, len(base), len(base)+SuffixLength)
	copy(b, base)
	for range SuffixLength {
		b = append(b, nameAlphabet[r.IntN(len(nameAlphabet))])
	}
	return string(b)
}

// UUID returns a version 4 UUID read from r. r must not fail; the readers of
// this package and math/rand/v2's ChaCha8 never do.
func UUID(r io.Reader) string {
	id, err := uuid.NewRandomFromReader(r)
	if err != nil {
		panic("ids: uuid from random source: " + err.Error()) // programmer error: a failing reader
	}
	return id.String()
}

// Reader adapts a *rand.Rand, which has no Read method in math/rand/v2, to
// io.Reader: each Uint64 gives eight bytes, least significant first.
func Reader(r *rand.Rand) io.Reader { return randReader{r} }

type randReader struct{ r *rand.Rand }

// Read fills p with random bytes. It never fails.
func (rr randReader) Read(p []byte) (int, error) {
	for i := 0; i < len(p); i += 8 {
		v := rr.r.Uint64()
		for j := 0; j < 8 && i+j < len(p); j++ {
			p[i+j] = byte(v >> (8 * j))
		}
	}
	return len(p), nil
}
