// Package dataflow moves data between installations the way Landscaper does:
// it resolves an installation's imports, writes them into its own context
// for its subinstallations, renders its deploy items and subinstallation
// templates, and constructs and writes its exports.
//
// # Contexts and names
//
// Every installation reads its imports from its context: "" for a root
// installation, "Inst.<parent>" for a subinstallation. A DataObject or
// Target of key k in context c is named GenerateDataObjectName(c, k): k
// itself for roots (when k is a valid name), a hash of "c/k" otherwise. In
// Init an installation writes each of its imports into its own context
// "Inst.<name>" under the import's name, where its subinstallations import
// them; in Completing it writes its exports into its context under their
// dataRef or target name, where its siblings (and, through its parent's
// export executions, its parent) find them.
//
// # The calls of the installation controller
//
//	Init:       CleanupExports, ResolveImports, WriteImports,
//	            RenderSubinstallations (+ SubinstallationBlueprint per template),
//	            RenderDeployItems
//	Completing: CleanupContext, ConstructExports, WriteExports
//
// # Errors
//
// An import object that cannot be read (a missing DataObject, Target,
// Secret, ConfigMap or key) is an ImportLoadError with Landscaper's text; the
// controller fails the job on it, as Landscaper's ImportsSatisfied does (the
// predecessor check before it makes the job wait for siblings that still
// export). Everything else a retry cannot fix, a template error, a schema or
// target type violation, a missing blueprint file, is terminal (a
// reconcile.Terminal without an error code, as Landscaper's errors of the
// data flow have none) and names the installation, the execution and, when
// known, the line.
//
// # Template state
//
// Deploy, subinstallation and export executions keep state between jobs, in
// a Secret named base32(sha1("<installation>/<deploy|export><execution>")),
// key "config", controlled by the installation, as Landscaper does.
// Subinstallation executions share the "deploy" prefix with deploy
// executions, as in Landscaper.
package dataflow
