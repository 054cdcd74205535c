package cmd

import (
	"errors"
	"fmt"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/lscli/lscli/deployers"
	"github.com/lscli/lscli/engine"
	"github.com/lscli/lscli/engine/state"
	"github.com/lscli/lscli/fakecluster"
)

// session is one command's hold on the saved simulation: the lock, the loaded
// state and the engine built on it. Nothing is written until save.
type session struct {
	settings *settings
	dir      *state.Dir
	unlock   func() error
	scheme   *runtime.Scheme
	engine   *engine.Engine
	// fresh is true when there was no saved state.
	fresh bool
}

// openSession locks the state folder, loads the saved state (if any) and
// builds the engine with the deployers the settings choose.
func openSession(s *settings) (*session, error) {
	dir := state.New(s.State)
	unlock, err := dir.Lock()
	if err != nil {
		return nil, err
	}
	ss := &session{settings: s, dir: dir, unlock: unlock, scheme: fakecluster.NewScheme()}
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
	s := ss.settings
	cfg, err := engine.NewConfig(snap, s.Seed, s.SeedSet && snap != nil && snap.Seed != s.Seed, s.StartTime)
	if err != nil {
		return fmt.Errorf("load state %s: %w", s.State, err)
	}
	cfg.Timeouts.Pickup = s.PickupTimeout
	cfg.Deployer = newFramework(cfg, s.Deployers)
	ss.engine = engine.New(cfg)
	ss.engine.RestoreTimeline(snap)
	return nil
}

// newFramework builds the deployer framework: the mock type runs Landscaper's
// mock deployer, every other type the fake one, unless modes say none.
func newFramework(cfg engine.Config, modes map[string]string) *deployers.Framework {
	f := &deployers.Framework{
		Client:    cfg.Cluster,
		Clock:     cfg.Clock,
		Deployers: map[lsv1alpha1.DeployItemType]deployers.Deployer{deployers.MockType: deployers.Mock{}},
		Fallback:  deployers.Fake{},
		Info:      lsv1alpha1.DeployerInformation{Identity: "lscli", Name: "lscli", Version: version},
	}
	for typ, mode := range modes {
		t := lsv1alpha1.DeployItemType(typ)
		switch {
		case mode == "none":
			f.Deployers[t] = nil
		case t != deployers.MockType:
			f.Deployers[t] = deployers.Fake{}
		}
	}
	return f
}

// save writes the state. It keeps the seed the state was created with.
func (ss *session) save() error {
	seed := ss.settings.Seed
	snap, err := ss.engine.Snapshot(seed)
	if err != nil {
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
