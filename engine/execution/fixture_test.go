package execution

import (
	"testing"

	"github.com/lscli/lscli/engine/internal/enginetest"
	"github.com/lscli/lscli/reconcile"
)

const (
	testNS = enginetest.NS
	job1   = enginetest.Job1
	job2   = enginetest.Job2
)

// fixture drives this package's controller step by step.
type fixture struct {
	*enginetest.Fixture
	cfg *Options
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	ef := enginetest.New(t, nil)
	return &fixture{Fixture: ef, cfg: &Options{Cluster: ef.Cluster, Clock: ef.Clock}}
}

// reconcile runs c once for the object name in the test namespace.
func (f *fixture) reconcile(c *Controller, name string) (reconcile.Result, error) {
	return enginetest.ReconcileObject(f.Fixture, c, name)
}

var (
	inst   = enginetest.Inst
	status = enginetest.Status
)
