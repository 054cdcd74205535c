package action

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/lscli/lscli/deployers"
	"github.com/lscli/lscli/deployers/simcluster"
	"github.com/lscli/lscli/engine"
	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/landscape"
	"github.com/lscli/lscli/landscaper/components"
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
	// readOnly sessions hold no exclusive lock and cannot save.
	readOnly bool
	// paths are the landscape paths of the action; roots the folders
	// component versions are discovered in, saved with the state.
	paths      []string
	roots      []string
	components *components.Registry
	// applied records what the last apply of each object applied (see
	// landscape.LastApplied), loaded with the state and saved with it.
	applied landscape.LastApplied
}

// access says what an action does with the saved simulation.
type access int

const (
	// readState only reads (get, tree, events, describe): a shared lock,
	// which creates nothing and needs no write access.
	readState access = iota
	// changeState changes an existing simulation (interrupt, delete,
	// trigger): the exclusive lock.
	changeState
	// createState writes the state, creating it when needed (reconcile).
	createState
)

// openSession locks the state folder as acc needs, waiting for another
// lscli as the configuration says, loads the saved state (if any) and
// builds the engine with the deployers the configuration chooses. paths are
// the landscape's files and folders, if any: component versions are found
// in their folders and in those of earlier commands.
func openSession(cfg *Configuration, acc access, paths ...string) (*session, error) {
	dir := state.New(cfg.StatePath)
	unlock, err := dir.LockWith(state.LockOptions{Shared: acc == readState, Timeout: cfg.LockTimeout, Waiting: cfg.OnLockWait})
	if err != nil {
		return nil, err
	}
	ss := &session{cfg: cfg, dir: dir, unlock: unlock, scheme: fakecluster.NewScheme(), paths: paths, readOnly: acc == readState}
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
	// What the state file holds but the simulation cannot take is a fault
	// of the file, reported as one.
	var refused *fakecluster.RestoreError
	switch {
	case snap != nil && errors.As(err, &refused):
		return ss.dir.ObjectError(refused.Index, refused.Err)
	case snap != nil && err != nil:
		return ss.dir.HeaderError(err)
	case err != nil:
		return fmt.Errorf("start the simulation: %w", err)
	}
	ecfg.Timeouts.Pickup = c.PickupTimeout
	ecfg.Blueprints = c.Blueprints
	ecfg.Limits = c.Limits
	ecfg.RemovedShoots = c.RemovedShoots
	var saved []string
	if snap != nil {
		saved = snap.ComponentRoots
	}
	ss.roots = componentRoots(ss.paths, saved)
	if ss.components, err = openComponents(c, ss.roots); err != nil {
		return err
	}
	ecfg.Components = ss.components
	fw, err := ss.newFramework(ecfg, snap)
	if err != nil {
		return err
	}
	ss.framework = fw
	ecfg.Deployer = fw.Reconciler()
	// Templates ask the clusters the deployers reach: simulated, or real
	// for a Target set to use its real cluster.
	ecfg.Clusters = fw.Clusters
	ss.engine = engine.New(ecfg)
	fw.Schedule = func(key types.NamespacedName, at time.Time) { ss.engine.Schedule(engine.DeployerController, key, at) }
	if err := ss.engine.RestoreTimeline(snap); err != nil {
		var te *engine.TimerError
		if errors.As(err, &te) {
			return ss.dir.TimerError(te.Index, te.Err)
		}
		return err
	}
	ss.startDeployers(snap)
	ss.applied = lastApplied(snap)
	return nil
}

// lastApplied returns the applied configurations snap holds, none for a
// new simulation.
func lastApplied(snap *state.Snapshot) landscape.LastApplied {
	last := landscape.LastApplied{}
	if snap == nil {
		return last
	}
	for _, a := range snap.Applied {
		ref := landscape.ObjectRef{Kind: a.Kind, Namespace: a.Namespace, Name: a.Name}
		last[ref] = landscape.AppliedConfig{UID: a.UID, Config: a.Config}
	}
	return last
}

// savedApplied returns the applied configurations of ss to save with
// objs, sorted by kind, namespace and name: those of the objects that are
// still there, by uid, since kubectl's record goes with its object (an
// object deleted, or deleted and created again, has none).
func (ss *session) savedApplied(objs []fakecluster.Object) []state.AppliedConfig {
	if len(ss.applied) == 0 {
		return nil
	}
	uids := make(map[types.UID]bool, len(objs))
	for _, obj := range objs {
		uids[obj.GetUID()] = true
	}
	var out []state.AppliedConfig
	for ref, a := range ss.applied {
		if uids[a.UID] {
			out = append(out, state.AppliedConfig{Kind: ref.Kind, Namespace: ref.Namespace, Name: ref.Name, UID: a.UID, Config: a.Config})
		}
	}
	slices.SortFunc(out, func(a, b state.AppliedConfig) int {
		return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
	})
	return out
}

// startDeployers wakes the deployer for every stored deploy item of a type
// that no deployer served when snap was saved and one serves now: a
// deployer that comes up on a cluster lists every deploy item there
// (controller-runtime's informer), so an item that waited for one is
// picked up. The items are woken in the order they are stored in.
func (ss *session) startDeployers(snap *state.Snapshot) {
	if snap == nil || len(snap.UnservedTypes) == 0 {
		return
	}
	for _, obj := range snap.Objects {
		di, ok := obj.(*lsv1alpha1.DeployItem)
		if ok && slices.Contains(snap.UnservedTypes, string(di.Spec.Type)) && ss.framework.Serves(di.Spec.Type) {
			ss.engine.Enqueue(engine.DeployerController, types.NamespacedName{Namespace: di.Namespace, Name: di.Name})
		}
	}
}

// unservedTypes returns the types of the deploy items among objs that no
// deployer of the session serves, sorted (see state.Snapshot.UnservedTypes).
func (ss *session) unservedTypes(objs []fakecluster.Object) []string {
	var out []string
	for _, obj := range objs {
		di, ok := obj.(*lsv1alpha1.DeployItem)
		if ok && !ss.framework.Serves(di.Spec.Type) && !slices.Contains(out, string(di.Spec.Type)) {
			out = append(out, string(di.Spec.Type))
		}
	}
	slices.Sort(out)
	return out
}

// save writes the state and returns the objects it saved: the API server's
// own, which the caller may keep and read but not change. It keeps the seed
// the state was created with, unless the user gave another one.
func (ss *session) save() ([]fakecluster.Object, error) {
	if ss.readOnly {
		return nil, fmt.Errorf("save state %s: the session only reads it", ss.cfg.StatePath) // a programmer error
	}
	snap, err := ss.engine.Snapshot()
	if err != nil {
		return nil, err
	}
	if snap.Clusters, err = ss.clusters.Save(); err != nil {
		return nil, err
	}
	snap.ComponentRoots = ss.roots
	snap.ConfigFile = ss.cfg.ConfigFile
	snap.UnservedTypes = ss.unservedTypes(snap.Objects)
	snap.Applied = ss.savedApplied(snap.Objects)
	return snap.Objects, ss.dir.Save(snap, ss.scheme)
}

// dropSimulation lets go of the simulation (the engine, its API server,
// the simulated clusters) once it is saved; the session can then only
// read the state file and close.
func (ss *session) dropSimulation() {
	ss.engine, ss.clusters, ss.framework = nil, nil, nil
}

// storedObjects reads back the state file the session saved, under the
// lock it still holds, and returns its objects as stored: where the save
// put them, or, should the file not be as the save left it, as a View
// finds them.
func (ss *session) storedObjects() ([]state.StoredObject, error) {
	if objs, ok, err := ss.dir.SavedObjects(); err != nil || ok {
		return objs, err
	}
	v, ok, err := ss.dir.OpenView(ss.scheme, true)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("read back state %s: not in the layout lscli saves (a bug)", ss.cfg.StatePath)
	}
	out, ok := v.Stored(nil)
	if !ok {
		return nil, fmt.Errorf("read back state %s: an object of a kind lscli does not know (a bug)", ss.cfg.StatePath)
	}
	return out, nil
}

// close releases the lock and the folders the session reads.
func (ss *session) close() {
	_ = ss.components.Close()
	if ss.unlock != nil {
		_ = ss.unlock()
	}
}

// cluster is the session's API server.
func (ss *session) cluster() *fakecluster.Cluster { return ss.engine.Config().Cluster }
