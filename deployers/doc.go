// Package deployers holds the deployer side of Landscaper's deployer contract
// and the deployers lscli can run.
//
// Framework is the part every deployer shares (Landscaper's deployer library):
// it picks up deploy items of the types it serves while their job is
// unfinished, sets phase, observedGeneration, lastReconcileTime and the
// deployer information, adds and removes the finalizer, honours
// delete-without-uninstall, writes exports to a Secret that the execution
// reads, and finishes the job in a final phase. A Deployer only does the
// type-specific work: Reconcile and Delete.
//
// Mock is Landscaper's mock deployer (type landscaper.gardener.cloud/mock),
// with Landscaper's semantics for phase, initialPhase, providerStatus and
// export.
package deployers
