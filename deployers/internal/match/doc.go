// Package match compiles the patterns that fault and timing rules select
// objects by: name globs and label selectors. Both deployers (fake deployer
// rules) and deployers/simcluster (fake controller rules) use it.
package match
