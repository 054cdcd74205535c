// Package dryrun is the `lscli render` action: it runs the data flow of a
// landscape without running any deployer, and returns what every
// installation imports, which subinstallations and deploy items (with their
// full configuration) it renders, and what it exports.
//
// It uses the same code as the installation controller (package dataflow)
// against a fresh in-memory API server, so names, labels and contexts of the
// objects it writes are those a reconcile writes. Where a reconcile would
// wait for deployers, the dry run assumes the deploy items' exports: those
// of a rule from the user (see ExportRule), else the `export` of a mock
// deploy item's configuration, else none.
//
// Installations are rendered in dependency order: roots in each namespace,
// then, depth first, each installation's subinstallations, a sibling after
// the siblings whose exports it imports. A problem stops the installation
// where it occurs; installations that import its exports are reported as
// skipped. All problems are collected, none is fatal to the others.
//
// Roots that do not depend on each other (none of a namespace exports at
// the namespace level) are rendered on all cores, each worker on a Fork of
// the API server; their objects are then taken over in the order above,
// with the resourceVersions rendering them one after the other gives, so
// the result is the same either way (see renderApart).
package dryrun
