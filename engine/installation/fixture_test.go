package installation

import (
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

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
	ef := enginetest.New(t, AddIndexes)
	return &fixture{Fixture: ef, cfg: &Options{Cluster: ef.Cluster, Clock: ef.Clock, IDs: ef.IDs}}
}

// reconcile runs c once for the object name in the test namespace.
func (f *fixture) reconcile(c *Controller, name string) (reconcile.Result, error) {
	return enginetest.ReconcileObject(f.Fixture, c, name)
}

func (f *fixture) deployItem(name string) *lsv1alpha1.DeployItem {
	f.T.Helper()
	di := &lsv1alpha1.DeployItem{}
	if !f.Get(di, name) {
		f.T.Fatalf("deploy item %s not found", name)
	}
	return di
}

var (
	inst           = enginetest.Inst
	status         = enginetest.Status
	withAnnotation = enginetest.WithAnnotation
	withImport     = enginetest.WithImport
	withExport     = enginetest.WithExport
	withOwner      = enginetest.WithOwner
)
