package ids

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
