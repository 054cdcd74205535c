// Package standalone starts the jobs of stand-alone Executions and
// DeployItems: those no Installation or Execution controls, such as an
// Execution or a DeployItem loaded from a YAML file of its own.
//
// In Landscaper nothing but an owner writes a new status.jobID into an
// Execution, and only an owner or the test-reconcile annotation (handled by
// the deployer library, see package deployers) into a DeployItem: the
// reconcile annotation has no effect on either. Landscaper's own tests run
// stand-alone objects by writing the new job ID themselves, after creating
// the object, after changing its spec, and after deleting it
// (test/utils UpdateJobIdForExecution, DeleteExecutionForNewReconcile and
// their DeployItem twins). This package is that operator, so that a
// stand-alone object runs the way those tests run it:
//
//   - the reconcile annotation on a stand-alone object whose job has
//     finished removes the annotation and starts a new job (a new job ID;
//     for a DeployItem also jobIDGenerationTime, which the pickup timeout
//     counts from). On an object whose job is still running it waits, as
//     on a root installation;
//   - the first deletion of a stand-alone object whose job has finished
//     starts a job, which runs the deletion (InitDelete); a deletion that
//     ended in DeleteFailed is retried with the reconcile annotation.
//
// lscli puts the reconcile annotation on stand-alone objects that a
// command created or whose spec it changed, as it does on root
// installations.
package standalone
