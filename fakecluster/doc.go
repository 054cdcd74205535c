// Package fakecluster is the in-memory API server lscli runs Landscaper's
// controllers against: an object store behind the Client interface, with the
// metadata rules of kube-apiserver and the garbage collector, and no engine
// logic.
//
// Create it with New and seed it with Create, or with Restore from a saved
// Objects list:
//
//	c := fakecluster.New(fakecluster.Options{Now: clock.Now, IDs: ids.NewSource(seed)})
//	err := c.Create(ctx, &lsv1alpha1.Installation{ObjectMeta: metav1.ObjectMeta{
//		Namespace: "default", GenerateName: "app-"}})
//
// Every object handed out is the caller's own copy, as a client of a real
// API server gets (Get, List, and the object a write fills in). Stored
// objects are never changed in place, so readers on hot paths may take them
// as they are, read-only: GetUnsafe and ListUnsafe (controller-runtime's
// UnsafeDisableDeepCopy: shallow copies), Select with shared (without even
// the shallow copy into a list), and GetShared, which hands out the stored
// object itself. Tests hold those readers to their promise with
// DetectMutations.
//
// RestoreOwned is Restore of objects just decoded, which it keeps instead
// of copying. Fork gives a copy to do independent work on, on another
// goroutine, and Adopt takes that work's objects back, with the
// resourceVersions the caller gives them (package action/dryrun renders
// independent roots so).
//
// # What it simulates
//
//   - Names from metadata.generateName plus five characters and uids (UUID
//     v4), derived from the seed and the object's identity (internal/ids), and
//     a cluster-wide resourceVersion counter, so runs are reproducible and
//     one object's identifiers never depend on another's.
//   - metadata.generation, for the kinds kube-apiserver keeps one for
//     (HasGeneration: Landscaper's kinds; Pods, PodTemplates and
//     ReplicationControllers of core/v1; not ConfigMaps or Secrets): 1 on
//     create, one more whenever an update changes anything but metadata and
//     status, and one more when an object with finalizers is marked for
//     deletion.
//   - The status subresource for kinds with a Status struct field
//     (Installation, Execution, DeployItem, ...): Update keeps the stored
//     status, UpdateStatus changes only the status.
//   - Optimistic concurrency: a stale resourceVersion is a Conflict error.
//     Writes that change nothing are not writes: resourceVersion stays and no
//     event is sent.
//   - Finalizers and deletionTimestamp, and removal when the last finalizer
//     goes. No new finalizers can be added to an object marked for deletion.
//   - Background garbage collection through owner references: removing an
//     object deletes its dependents whose owners are all gone, recursively.
//   - Lists by namespace, label selector and owner uid, served from indexes
//     (kind → namespace → name, owner uid, kind + label key=value).
//   - Watch events (Added, Modified, Deleted), delivered in order and
//     synchronously: before the write that caused them returns. A write made
//     by a watcher, or racing from another goroutine while events are being
//     delivered, queues its events behind the current one, so order is kept
//     but that write may return before its events are delivered.
//   - apierrors errors (NotFound, AlreadyExists, Conflict, Invalid,
//     BadRequest) with the resource a real server names, such as
//     installations.landscaper.gardener.cloud.
//
// # Limitations
//
// fakecluster does not simulate:
//
//   - admission, mutating or validating webhooks, or validation of names,
//     labels or specs (the Landscaper CRDs' OpenAPI schemas are not applied);
//   - defaulting (the scheme's defaulting functions are not called) and
//     conversion between API versions;
//   - server-side apply, patches and managedFields (managedFields are stored
//     as given);
//   - field selectors, set-based label indexes (selectors without an equality
//     requirement scan the kind or namespace), pagination (limit/continue)
//     and resourceVersion semantics of List and Get;
//   - the serialization round trip: objects are stored as given, so
//     sub-second times, nil versus empty fields and JSON formatting survive,
//     and Secret stringData is not merged into data;
//   - foreground and orphan deletion propagation, deletion grace periods,
//     DeleteOptions preconditions, garbage collection of objects whose owner
//     never existed, and removal of dangling owner references from
//     dependents that still have another owner;
//   - namespaces as containers: a namespace need not exist to hold objects,
//     and deleting a Namespace does not delete its contents;
//   - the scope of kinds: Landscaper and core/v1 kinds are namespaced except
//     a fixed list (Namespace, Node, PersistentVolume, ComponentStatus);
//   - watch bookmarks, resuming a watch from a resourceVersion, and events
//     for writes made before Watch was called;
//   - RBAC, quotas, rate limits, and failures: every call succeeds unless
//     its input is wrong.
package fakecluster
