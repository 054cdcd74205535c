package fakecluster

import (
	"math/rand/v2"

	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/internal/ids"
)

// nameAttempts bounds the retries when a generated name is taken.
const nameAttempts = 100

// generateName returns base plus a random suffix drawn from r.
func generateName(r *rand.Rand, base string) string { return ids.GenerateName(r, base) }

// newUID returns a version 4 UUID drawn from r.
func newUID(r *rand.Rand) types.UID { return types.UID(ids.UUID(ids.Reader(r))) }
