// Package deployer is the contract between lscli's deployer framework (package
// deployers, Landscaper's deployer library) and the deployers it runs: a
// Deployer gets a Request for one deploy item and returns a Result, with
// Traits that say which Targets it needs and which timeouts apply. The real
// deployers (deployers/helm, deployers/manifest) and the simulated clusters
// import only this package and package reconcile, never the framework.
package deployer
