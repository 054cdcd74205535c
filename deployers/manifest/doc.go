// Package manifest is Landscaper's manifest deployer (deploy item type
// landscaper.gardener.cloud/kubernetes-manifest, Landscaper's
// pkg/deployer/manifest), run against the client that
// deployer.ClusterClients gives for the item's Target: the simulated
// cluster, or a real one.
//
// # What it does
//
// Reconcile decodes the provider configuration (apiVersion
// manifest.deployer.landscaper.gardener.cloud/v1alpha1 or v1alpha2, with
// Landscaper's defaults: updateStrategy update, policy manage) and validates
// it; a configuration that does not decode or validate fails the item. It
// then applies the manifests (package apply: CRDs, cluster-scoped, then
// namespaced objects; update strategies update, patch, merge and
// mergeOverwrite; policies manage, fallback, keep, ignore and immutable;
// annotateBeforeCreate; the deploy item label), deletes the objects of the
// previous providerStatus that are no longer applied (through
// deletionGroupsDuringUpdate, with annotateBeforeDelete and
// patchBeforeDelete), and records the applied objects in
// providerStatus.managedResources (kind ProviderStatus, apiVersion
// manifest.deployer.landscaper.gardener.cloud/v1alpha2). It waits until the
// default readiness check and the custom checks pass (package readiness) and
// the exports can be read (package exports), runs the patchAfterDeployment
// hooks and reports Succeeded, with the exports for the framework to store in
// the item's export Secret.
//
// Delete deletes the recorded objects that their policy lets go, by
// deletionGroups (package deletion), and reports done once they are gone.
//
// # Waiting on the virtual clock
//
// Landscaper's deployer waits inside one call (readiness every 5s, deletions
// every 1s). This one returns instead and is called again. The first call of
// a job (phase Init) applies, deletes the orphans, writes providerStatus and
// looks at readiness and exports once. While something is not ready it
// returns Progressing with a 5 second requeue, and the later calls (phase
// Progressing) only look; after a call that failed (Progressing, as
// Landscaper's deployer sets it first thing) the next one applies again. Deletions (of orphans and on Delete) go group by
// group in one call for as long as objects go away when deleted; only objects
// that stay (held by finalizers) make the call return and repeat every
// second: in phase Init for orphans (Landscaper shows Init then too, as it
// writes Progressing only after the apply), in phase Deleting on Delete.
//
// The progressing timeout (package timeout: spec.timeout, default 10m, from
// status.transitionTimes.initTime) is checked at the start of every call and
// while waiting; the item fails with reason ProgressingTimeout and a message
// naming Landscaper's checkpoint, e.g. `timeout at: "deployer: during
// readiness check - resource ns/app of type Deployment"` (codes ERR_TIMEOUT
// and ERR_FOR_INFO_ONLY for readiness, ERR_TIMEOUT otherwise).
//
// # Deviations from Landscaper
//
//   - Objects of a group are applied one after the other in manifest order,
//     not in parallel goroutines, so the order of writes and of aggregated
//     errors is deterministic.
//   - Deletion passes that make progress are made at once, so deleting
//     objects without finalizers takes no virtual time (Landscaper sleeps a
//     second between passes).
//   - A call after an apply does not apply again. Landscaper applies again
//     when its call is retried after an error during readiness, exports or
//     patchAfterDeployment; here those retries only look again. While orphans
//     held by finalizers are being deleted, the apply is repeated every
//     second, as if Landscaper's call had been restarted (a fallback object
//     someone else took over and that disappears meanwhile is then created
//     again).
//   - When the objects were applied in an earlier call, patchAfterDeployment
//     is not run for immutable manifests: whether their object was created
//     (Landscaper patches it) or found (it does not) is only known to the
//     apply.
//   - spec.timeout "none" disables the progressing timeout; Landscaper
//     treats it as already expired.
//   - A timeout while orphans are being deleted names the checkpoint
//     "manifest deployer: start reconcile", not "deployer: delete resources".
//   - A namespaced manifest without a namespace fails with the message the
//     Kubernetes client gives for it ("an empty namespace may not be set when
//     a resource name is provided"), also on the simulated cluster, which
//     would accept it. Cluster-scoped manifests lose their namespace, as the
//     API server does.
//   - The deployer's status.lastError reasons and operations come from the
//     framework; messages follow Landscaper's.
//   - continuousReconcile and interruption are the framework's business.
package manifest
