package lsclitest_test

import (
	"testing"

	"github.com/lscli/lscli/lsclitest"
)

// A test in a landscape's repository runs its scenario files, e.g.
// scenarios/deploy.txtar:
//
//	# reconcile: the landscape of the repository succeeds.
//	lscli reconcile $SCRIPTDIR/../landscape
//	cmp stdout want-tree
//
//	-- want-tree --
//	Installation shop/web  Succeeded  job 2f5a9c1e
//	...
//
// examples/ci in lscli's repository is such a repository.
func ExampleRun() {
	TestScenarios := func(t *testing.T) {
		lsclitest.Run(t, lsclitest.Options{Dir: "scenarios"})
	}
	_ = TestScenarios
}
