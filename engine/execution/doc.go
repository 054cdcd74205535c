// Package execution is Landscaper's execution controller: it creates and
// updates one DeployItem per template of an Execution, triggers them in
// dependsOn order once each has its predecessors finished, fails the
// execution when an item failed or none can start, and collects the items'
// exports into the execution's export DataObject. Deletion runs in reverse
// dependsOn order. An interrupt fails every unfinished item.
package execution
