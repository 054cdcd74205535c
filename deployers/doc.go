// Package deployers holds the deployer side of Landscaper's deployer contract
// and the deployers lscli can run.
//
// Framework is the part every deployer shares (Landscaper's deployer library):
// it picks up deploy items of the types it serves while their job is
// unfinished (or on test-reconcile), fails items whose Target is missing or
// of the wrong type, sets phase, observedGeneration, lastReconcileTime,
// initTime and the deployer information, adds and removes the finalizer,
// honours delete-without-uninstall, writes exports to a Secret that the
// execution reads, applies the progressing timeout, and finishes the job in
// a final phase. A Deployer only does the type-specific work: Reconcile and
// Delete. Optional interfaces refine it: Described (Traits: Target types,
// progressing timeout, Progressing before the call), Picker (items it never
// picks up).
//
// The framework runs on the virtual clock. A deployer that is not done asks
// to be called again; a plain poll is replaced by the next instant at which
// something is known to change (the progressing timeout, a simulated
// cluster's fake controller: Forecaster), so virtual time jumps there.
//
// The deployers:
//
//   - Mock is Landscaper's mock deployer (type landscaper.gardener.cloud/mock),
//     with Landscaper's semantics for phase, initialPhase, providerStatus and
//     export.
//   - Fake simulates any type without side effects, by Rules compiled from
//     the config file (RuleConfig): duration, failure, hang, exports, for
//     reconcile and delete, and pickup: never.
//   - The real manifest and helm deployers live in the subpackages manifest
//     and helm; Setup builds the deployer table from the modes the user
//     chose (fake, real, none) and a Registry of real deployers.
//
// Real deployers reach the cluster behind a Target through ClusterClients.
// TargetClusters picks the simulated cluster (package simcluster) unless the
// user opted the Target in for its real cluster (package realcluster).
package deployers
