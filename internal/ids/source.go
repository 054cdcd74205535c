package ids

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"

	"github.com/google/uuid"
)

// Source derives identifiers from a seed and the identity of what they
// name, so an identifier depends on nothing else: adding, changing or
// removing one object never changes the uid, generated name or job ID of
// another, and the same seed gives the same identifiers. The zero value uses
// seed 0.
type Source struct {
	seed uint64
}

// NewSource returns a source for seed.
func NewSource(seed uint64) Source { return Source{seed: seed} }

// Seed returns the seed of s.
func (s Source) Seed() uint64 { return s.seed }

// sum hashes the seed and parts, each part delimited so that ("ab", "c")
// and ("a", "bc") differ.
func (s Source) sum(parts ...string) [sha256.Size]byte {
	return s.sumAfter(nil, parts)
}

// sumAfter hashes the seed, then first's parts and parts, each framed by its
// length. The framed bytes go into a buffer on the stack when they fit, so
// deriving an ID allocates nothing: it happens for every object created.
func (s Source) sumAfter(first, parts []string) [sha256.Size]byte {
	var stack [512]byte
	buf := binary.LittleEndian.AppendUint64(stack[:0], s.seed)
	for _, list := range [2][]string{first, parts} {
		for _, p := range list {
			buf = binary.LittleEndian.AppendUint64(buf, uint64(len(p)))
			buf = append(buf, p...)
		}
	}
	return sha256.Sum256(buf)
}

// UUID returns a version 4 UUID derived from parts.
func (s Source) UUID(parts ...string) string {
	sum := s.sum(parts...)
	var id uuid.UUID
	copy(id[:], sum[:16])
	id[6] = id[6]&0x0f | 0x40 // version 4
	id[8] = id[8]&0x3f | 0x80 // RFC 4122 variant
	return id.String()
}

// GenerateName returns base, shortened to MaxGeneratedBase, plus a suffix of
// SuffixLength characters of the generateName alphabet derived from base and
// parts. Callers pass what identifies the new object besides base (its
// kind, namespace, owner) and an attempt counter for when a name is taken.
func (s Source) GenerateName(base string, parts ...string) string {
	sum := s.sumAfter([]string{"generateName", base}, parts)
	if len(base) > MaxGeneratedBase {
		base = base[:MaxGeneratedBase]
	}
	var stack [MaxGeneratedBase + SuffixLength]byte
	b := append(stack[:0], base...)
	for i := range SuffixLength {
		b = append(b, nameAlphabet[int(sum[i])%len(nameAlphabet)])
	}
	return string(b)
}

// JobID returns the job ID that follows previous for the object kind
// namespace/name with uid: a chain per object, so its n-th job always has
// the same ID, whatever else the landscape holds.
func (s Source) JobID(kind, namespace, name, uid, previous string) string {
	return s.UUID("job", kind, namespace, name, uid, previous)
}

// Uint returns a number below n derived from parts. n must be positive.
func (s Source) Uint(n uint64, parts ...string) uint64 {
	if n == 0 {
		panic(fmt.Sprintf("ids: Uint(%d)", n)) // programmer error
	}
	sum := s.sum(parts...)
	return binary.LittleEndian.Uint64(sum[:8]) % n
}
