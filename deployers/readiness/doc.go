// Package readiness has Landscaper's readiness checks for deployed objects
// (pkg/deployer/lib/readinesscheck in Landscaper), shared by the manifest
// deployer and the helm deployer.
//
// Each check is one look at the target cluster, not a wait: it returns nil
// when everything is ready and a *NotReadyError naming the first object that
// is not, so the deployer can report Progressing and poll again on the
// virtual clock (Landscaper polls every 5 seconds, PollInterval, until the
// deploy item's timeout). Landscaper keeps polling on any failure, including
// objects that cannot be read and jsonPath errors; so do these checks: all of
// them are a *NotReadyError. Other errors (a secondary target that cannot be
// resolved) are failures of the check itself.
//
// # Default check
//
// CheckDefault reads every managed object. Objects of six kinds must also
// pass Landscaper's rules for their kind (Object):
//
//   - Pod: condition Ready is True, or its reason is PodCompleted;
//   - Deployment: observedGeneration >= generation and spec.replicas ==
//     status.replicas == updatedReplicas == availableReplicas;
//   - ReplicaSet, ReplicationController: observedGeneration current, no
//     ReplicaFailure condition that is not False, readyReplicas >= replicas
//     (default 1);
//   - StatefulSet: observedGeneration current, updatedReplicas and
//     availableReplicas >= replicas (default 1);
//   - DaemonSet: observedGeneration current, currentNumberScheduled >=
//     desiredNumberScheduled - maxUnavailable (rolling updates only).
//
// Every other kind is ready once it exists. With FailOnMissingObject false
// (helm releases) only the six kinds are read at all.
//
// KStatus is an opt-in alternative per-object rule: kstatus
// (sigs.k8s.io/cli-utils) must compute Current. Landscaper does not use it.
//
// # Custom checks
//
// CheckCustom selects objects by resourceSelector (each must exist) and by
// labelSelector (across all namespaces; an empty result is not ready), in the
// deploy item's target or in the Target named targetName, and evaluates each
// requirement: jsonPath is client-go jsonpath without braces (a leading dot
// is optional); operators are exists, ! (must not exist), = and == (equal to
// the one value), != (not equal), in and notin. Values are compared after a
// JSON round trip, so 1 equals 1.0 and maps and lists compare by content.
// Unlike Landscaper's documentation says, and as its code does, any object in
// the target can be selected, not only managed ones.
package readiness
