// Package reconcile is the contract between lscli's run loop and everything it
// runs: the controllers of package engine and the deployers of package
// deployers both import it, and it imports neither. It plays the part of
// controller-runtime's pkg/reconcile plus a single-threaded work queue.
//
// # Contract
//
// A Reconciler brings one object, named by its key, closer to what it should
// be and returns a Result: done until the next change, a timer
// (RequeueAfter, with Deadline when the reconciler will act at that time), or
// a normal error, which is retried with growing intervals (RetryInterval).
// Errors a retry cannot fix are marked with TerminalError; reconcilers record
// them in the object's status and end its flow. NewLastError builds the
// status.lastError for an error. AsReconciler reads the object once, so a
// reconciler never repeats the Get and NotFound handling.
//
// # Time and randomness
//
// VirtualClock never moves by itself and Random is seeded (job IDs, the order
// of ready work); both are injected, so the same input gives the same output.
//
// # Run loop
//
// Loop holds the queue of ready work and timers and runs one reconcile at a
// time. When no work is ready it moves the clock to the next timer. It stops
// when no work and no timers are left, when only re-polls that change nothing
// are left (a fixed point), or at the bounds of RunOptions. Timers and
// RestoreTimers let the saved state carry pending work from one command to the
// next.
package reconcile
