package fakecluster

import (
	"flag"
	"os"
	"testing"
)

// TestMain runs the tests with the mutation detector on (as package
// internal/mutationtest does for the packages that use the cluster), and
// benchmarks without it.
func TestMain(m *testing.M) {
	flag.Parse()
	if f := flag.Lookup("test.bench"); f == nil || f.Value.String() == "" {
		DetectMutations = true
	}
	os.Exit(m.Run())
}
