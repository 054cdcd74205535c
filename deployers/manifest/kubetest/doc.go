// Package kubetest builds target clusters for tests of the manifest
// deployer and its parts (apply, deletion, readiness, exports): a
// controller-runtime fake client whose RESTMapper knows the scope of the
// common built-in kinds, and helpers to write objects as YAML.
//
// Mind what the fake client does not do (see deployer-facts Part 2): it does
// not maintain metadata.generation, it fills in no status, it accepts objects
// of kinds its RESTMapper does not know (only the apply step's scope lookup
// rejects them), and without WithStatusSubresource an Update also replaces
// status.
package kubetest
