package ci_test

import (
	"testing"

	"github.com/lscli/lscli/lsclitest"
)

// TestScenarios runs the scenario files of this repository in go test, as
// `lscli test scenarios` does on the command line. LSCLI_UPDATE=1 rewrites
// their golden files.
func TestScenarios(t *testing.T) {
	lsclitest.Run(t, lsclitest.Options{Dir: "scenarios"})
}
