package action

import (
	"errors"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/lscli/lscli/deployers"
	"github.com/lscli/lscli/deployers/simcluster"
	"github.com/lscli/lscli/engine"
	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/state"
)

// session is one action's hold on the saved simulation: the lock, the loaded
// state and the engine built on it. Nothing is written until save.
type session struct {
	cfg    *Configuration
	dir    *state.Dir
	unlock func() error
	scheme *runtime.Scheme
	engine *engine.Engine
	// clusters are the simulated target clusters (see deployers.go).
	clusters *simcluster.Clusters
	// framework is the deployer framework; it knows which types it faked.
	framework *deployers.Framework
	// fresh is true when there was no saved state.
	fresh bool
}

// openSession locks the state folder, loads the saved state (if any) and
// builds the engine with the deployers the configuration chooses.
func openSession(cfg *Configuration) (*session, error) {
	dir := state.New(cfg.StatePath)
	unlock, err := dir.Lock()
	if err != nil {
		return nil, err
	}
	ss := &session{cfg: cfg, dir: dir, unlock: unlock, scheme: fakecluster.NewScheme()}
	if err := ss.load(); err != nil {
		_ = unlock()
		return nil, err
	}
	return ss, nil
}

func (ss *session) load() error {
	snap, err := ss.dir.Load(ss.scheme)
	if errors.Is(err, state.ErrNoState) {
		snap, err, ss.fresh = nil, nil, true
	}
	if err != nil {
		return err
	}
	c := ss.cfg
	ecfg, err := engine.NewConfig(snap, c.Seed, c.Reseed && snap != nil && snap.Seed != c.Seed, c.startTime())
	if err != nil {
		return fmt.Errorf("load state %s: %w", c.StatePath, err)
	}
	ecfg.Timeouts.Pickup = c.PickupTimeout
	ecfg.Blueprints = c.Blueprints
	ecfg.RemovedShoots = c.RemovedShoots
	fw, err := ss.newFramework(ecfg, snap)
	if err != nil {
		return err
	}
	ss.framework = fw
	ecfg.Deployer = fw.Reconciler()
	ss.engine = engine.New(ecfg)
	ss.engine.RestoreTimeline(snap)
	return nil
}

// save writes the state. It keeps the seed the state was created with,
// unless the user gave another one.
func (ss *session) save() error {
	snap, err := ss.engine.Snapshot()
	if err != nil {
		return err
	}
	if snap.Clusters, err = ss.clusters.Save(); err != nil {
		return err
	}
	return ss.dir.Save(snap, ss.scheme)
}

// close releases the lock.
func (ss *session) close() {
	if ss.unlock != nil {
		_ = ss.unlock()
	}
}

// cluster is the session's API server.
func (ss *session) cluster() *fakecluster.Cluster { return ss.engine.Config().Cluster }
