// Package installation is Landscaper's installation controller: it starts a
// job at a root installation (reconcile annotation or first deletion), passes
// the job ID down to subinstallations and the execution, and walks each
// installation through Init, CleanupOrphaned, ObjectsCreated, Progressing and
// Completing (InitDelete, TriggerDelete and Deleting when it is deleted) on
// the phase machine of package engine/flow. The blueprint, import, template
// and export work it delegates to package landscaper/dataflow; siblings are
// found through field indexes (AddIndexes), never by scanning.
package installation
