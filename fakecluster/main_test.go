package fakecluster_test

import (
	"testing"

	"github.com/lscli/lscli/internal/mutationtest"
)

// TestMain runs the tests with the mutation detector on (an external test
// package, so that it may import mutationtest, which imports fakecluster).
func TestMain(m *testing.M) { mutationtest.Main(m) }
