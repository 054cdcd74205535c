// Package engine runs Landscaper's reconcile machine without a cluster: the
// installation, execution and deploy item controllers over the in-memory API
// server of package fakecluster, with deployers from package deployers.
//
// # Run loop
//
// The engine is single-threaded. A change to an object wakes the controllers
// that watch it (its own, and its controlling owner's). Run takes ready work
// one item at a time, in an order drawn from the seeded random source; when no
// work is ready it moves the virtual clock to the next timer. It stops when no
// work and no timers are left, when only re-polls that change nothing are left
// (a fixed point, e.g. a mock deploy item stuck in Progressing), or at the
// bounds of RunOptions.
//
// # Determinism
//
// Nothing here reads the wall clock or a global random source: time is a
// VirtualClock and randomness (job IDs, generated names, work order) comes from
// a seeded Random, both in Config. The same input gives the same output.
//
// # Jobs
//
// A root installation starts a job (a new status.jobID) on the reconcile
// annotation or its first deletion; parents pass the job ID to children, and an
// object is finished when jobIDFinished == jobID.
package engine
