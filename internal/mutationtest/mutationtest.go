// Package mutationtest runs a package's tests with fakecluster's mutation
// detector on (fakecluster.DetectMutations), so that a reader changing an
// object it shares with the API server fails the test that does it, and with
// every idle verdict of a reconciler checked (reconcile.VerifyIdle), and
// every document fastyaml converts checked against YAMLToJSONStrict
// (fastyaml.Verify):
//
//	func TestMain(m *testing.M) { mutationtest.Main(m) }
//
// Benchmarks run without them: the detector doubles the memory of the stored
// objects and adds a comparison to every write, and the check reconciles
// every idle object in full.
package mutationtest

import (
	"flag"
	"os"
	"testing"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/internal/fastyaml"
	"github.com/lscli/lscli/reconcile"
)

// Main parses the test flags, turns the detector and the check on unless
// benchmarks were asked for, and runs the tests.
func Main(m *testing.M) {
	flag.Parse()
	if f := flag.Lookup("test.bench"); f == nil || f.Value.String() == "" {
		fakecluster.DetectMutations = true
		reconcile.VerifyIdle = true
		fastyaml.Verify = true
	}
	os.Exit(m.Run())
}
