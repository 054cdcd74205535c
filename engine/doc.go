// Package engine runs Landscaper's reconcile machine without a cluster: it
// wires the installation, execution and deploy item controllers (packages
// engine/installation, engine/execution, engine/deployitem, over the shared
// phase machine of engine/flow) and the deployer framework (package
// deployers) to the run loop of package reconcile, over the in-memory API
// server of package fakecluster.
//
// # Watches and the timeline
//
// The engine watches the cluster: a change to an object wakes the
// controllers that watch it (its own, and its controlling owner's), as
// controller-runtime's For and Owns do, and is recorded in the timeline
// (Events) that `lscli events` prints and the state saves.
//
// # Run loop
//
// Run takes ready work one item at a time, in an order drawn from the seeded
// random source; when no work is ready it moves the virtual clock to the next
// timer. It stops when no work and no timers are left, when only re-polls
// that change nothing are left (a fixed point, e.g. a mock deploy item stuck
// in Progressing), or at the bounds of reconcile.RunOptions.
//
// # Determinism
//
// Nothing here reads the wall clock or a global random source: time is a
// reconcile.VirtualClock and randomness (job IDs, generated names, work
// order) comes from a seeded reconcile.Random, both in Config. The same input
// gives the same output. Snapshot and RestoreTimeline carry the clock, the
// random source, the pending timers and the timeline from one command to the
// next (package state saves them).
//
// # Jobs
//
// A root installation starts a job (a new status.jobID) on the reconcile
// annotation or its first deletion; parents pass the job ID to children, and an
// object is finished when jobIDFinished == jobID. Stand-alone Executions and
// DeployItems (no owner controls them) get their jobs from package
// engine/standalone, as Landscaper's own tests give them.
package engine
