// Package apply applies manifests to a target cluster the way Landscaper's
// manifest deployer does (pkg/deployer/lib/resourcemanager/objectapplier.go
// in Landscaper), for the manifest deployer and the helm deployer's
// manifest-only mode. It uses plain API calls (Create, Update, Patch), not
// server-side apply.
//
// # Order
//
// Manifests are expanded (the items of a v1/List, or of any manifest with a
// top-level items list, become separate manifests) and put into three
// groups, applied in this order: CustomResourceDefinitions, cluster-scoped
// objects, namespaced objects. The scope comes from the client's RESTMapper,
// or, for kinds it does not know yet, from a CRD in the same set; any other
// unknown kind fails the whole apply before anything is written. CRDs are not
// waited for. A failing object does not stop the others: the errors of all
// groups are collected and returned together after the last group, and the
// orphan cleanup is skipped then.
//
// Namespaced objects without a namespace get Options.DefaultNamespace (the
// helm release namespace); without one they fail, as the API server rejects
// them. Cluster-scoped objects lose a namespace they name, as the API server
// clears it.
//
// # Objects
//
// Every object written gets Options.Labels and DeployItemLabel (the deploy
// item's name). A missing object is created, with annotateBeforeCreate merged
// into its annotations. An existing one is updated by the update strategy:
//
//   - update: the manifest replaces the object (PUT), after copying fields
//     the API server requires (Job selector and template labels, Service
//     clusterIP, ServiceAccount secrets when the manifest has none, and the
//     resourceVersion);
//   - patch: the same object is sent as a JSON merge patch computed against
//     the live object;
//   - merge: the manifest is merged into the live object, existing values
//     winning (mergo without override), then PUT;
//   - mergeOverwrite: the same with the manifest's non-empty values winning.
//
// Any other strategy, the empty one too, fails the update with "<strategy>
// is not a valid update strategy", as in Landscaper.
//
// # Policies
//
//   - manage: create, update (taking over objects that others manage), delete;
//   - fallback: like manage, but an existing object is left alone, and not
//     recorded, unless it carries DeployItemLabel with this deploy item's name;
//   - keep: create and update, never delete;
//   - ignore: nothing is done and nothing is recorded;
//   - immutable: create and delete, never update.
//
// The recorded objects form the new inventory (providerStatus
// managedResources), in group order and sorted within a group as Landscaper
// sorts them. Objects of the previous inventory that are no longer in it are
// orphans: those the policy filter lets go (not keep or ignore, fallback only
// when still ours) get their before-delete hooks and are deleted through
// deletionGroupsDuringUpdate. The filter uses the policy recorded in the
// previous inventory; so, as in Landscaper, a manifest whose policy changes
// to ignore, or a fallback object someone else took over, is deleted.
//
// patchAfterDeployment is not applied by Apply: Landscaper applies it after
// readiness checks and exports, with PatchAfterDeployment.
package apply
