package execution

import (
	"testing"

	"github.com/lscli/lscli/internal/mutationtest"
)

// TestMain runs the tests with the API server's mutation detector on.
func TestMain(m *testing.M) { mutationtest.Main(m) }
