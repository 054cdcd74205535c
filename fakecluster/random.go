package fakecluster

import (
	"math/rand/v2"

	"github.com/google/uuid"
	"k8s.io/apimachinery/pkg/types"
)

// nameAlphabet is the alphabet of Kubernetes' generateName suffixes
// (k8s.io/apimachinery/pkg/util/rand): no vowels, so that generated names do
// not spell words, and no characters that are easily confused.
const nameAlphabet = "bcdfghjklmnpqrstvwxz2456789"

const (
	// suffixLength is the length of a generateName suffix.
	suffixLength = 5
	// maxGeneratedBase is the longest generateName prefix kept, so that the
	// name fits in 63 characters, as in the API server's name generator.
	maxGeneratedBase = 63 - suffixLength
	// nameAttempts bounds the retries when a generated name is taken.
	nameAttempts = 100
)

// generateName returns base, shortened to maxGeneratedBase, plus a random
// suffix drawn from r.
func generateName(r *rand.Rand, base string) string {
	if len(base) > maxGeneratedBase {
		base = base[:maxGeneratedBase]
	}
	b := make([]byte, len(base), len(base)+suffixLength)
	copy(b, base)
	for range suffixLength {
		b = append(b, nameAlphabet[r.IntN(len(nameAlphabet))])
	}
	return string(b)
}

// newUID returns a version 4 UUID drawn from r.
func newUID(r *rand.Rand) types.UID {
	id, err := uuid.NewRandomFromReader(randReader{r})
	if err != nil {
		// randReader never fails, so neither does NewRandomFromReader.
		panic("fakecluster: uuid from random source: " + err.Error())
	}
	return types.UID(id.String())
}

// randReader adapts a *rand.Rand, which has no Read method in math/rand/v2,
// to io.Reader.
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
