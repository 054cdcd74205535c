// Package simcluster is the simulated Kubernetes cluster that lscli puts
// behind Targets unless the user asks for the real one: an in-memory
// cluster, built on controller-runtime's fake client, that real deployers
// (manifest, helm) write to through an ordinary client.Client. Its objects
// are kept in the lscli state, so a later command (or `lscli get --target
// NAME`) sees what an earlier one applied.
//
// Clusters holds the clusters of one simulation and implements
// deployer.ClusterClients:
//
//	clusters := simcluster.New(simcluster.Options{Now: clock.Now, IDs: ids, Landscape: apiServer})
//	c, err := clusters.ForTarget(ctx, target) // a client.Client
//
// # Clusters, not Targets
//
// A cluster is identified by Key: the server a Target's kubeconfig (or
// oidcConfig) names (so every Target and every copy Landscaper makes of one
// for an import reaches the same cluster), "self" for selfConfig Targets, and the
// Target's own "namespace/name" only when it names no server (its copies
// reach its cluster too). States that kept one cluster per Target migrate
// to these keys (migrate.go).
//
// # What it simulates
//
//   - A new cluster has the system namespaces default, kube-system,
//     kube-public and kube-node-lease as objects (the first three cannot be
//     deleted), and the objects of the Seeds that select it.
//   - The built-in kinds of client-go's scheme that kube-apiserver of the
//     configured Kubernetes version serves with default flags (versions.go:
//     removed, alpha and off-by-default beta versions are not served), with
//     their scope read from client-go's typed clientsets (scope.go),
//     CustomResourceDefinitions (apiextensions.k8s.io/v1), and
//     kube-aggregator's APIServices (apiregistration.k8s.io v1, v1beta1
//     before 1.22; apiservice.go), which client-go's scheme lacks: stored
//     unstructured, cluster-scoped, with the aggregator's port default,
//     validation (ValidateAPIService) and Available condition (Local for a
//     local one; for one of a Service ServiceNotFound, ServicePortError or
//     Passed, looked at again when the Service is written or deleted: the
//     server behind it counts as ready, no endpoints are looked at). A custom resource is accepted only once a
//     CRD serving its group, version and kind exists; before that every
//     call is a *meta.NoKindMatchError, as on a real cluster. Deleting a CRD
//     deletes its custom resources and forgets the kind.
//   - Create, Update, Patch (JSON, merge, strategic merge) and server-side
//     apply with managedFields and conflicts, by the fake client. Create and
//     Update fill the caller's object with the stored one, as an API
//     server's answer does.
//   - metadata.uid, creationTimestamp and deletionTimestamp from the injected
//     clock and the seeded identifiers; metadata.generation for the kinds
//     whose registry strategy keeps one, bumped when their versioned fields
//     change (generation.go), none for ConfigMaps, Secrets and the like.
//   - What the API server's conversion and defaulting do where charts
//     notice (admit.go): Secret stringData merged into data, Namespace
//     labels and phase, kube-apiserver's defaults of the workload kinds
//     (defaults.go), Services, volumes, NetworkPolicies, StorageClasses,
//     HPAs, role bindings and CRDs (defaults_kinds.go); what the Service
//     and Job registries allocate (apiserver.go): IP families, cluster IPs
//     and node ports derived from the name and unique in the cluster
//     (alloc.go: one asked for that another Service holds is refused with
//     kube-apiserver's error; on update, before validation, and a changed
//     cluster IP only by validation, as the registry allocates none), a Job's generated selector.
//   - Custom resources by their CRD's schema, with apiextensions-apiserver's
//     own packages (crschema.go): on every write unknown fields are pruned
//     (but where the schema preserves them) and the schema's defaults
//     applied; the object is validated against the OpenAPI schema (with
//     ratcheting on update), list types and the CEL rules of
//     x-kubernetes-validations, an invalid one refused with kube-apiserver's
//     Invalid error. The schemas are built once per write of the CRD.
//   - CRDs validated as apiextensions-apiserver's CRD strategy validates
//     them, with its own package, and their status.storedVersions kept as
//     it keeps them (crdvalidate.go). A custom resource is kept once, in
//     its CRD's storage version, and answered in the version a request
//     names (conversion.go): strategy None rewrites the apiVersion, as
//     kube-apiserver's nopConverter does; a conversion webhook it could
//     call is taken to convert the same way (the operator's conversion is
//     not run), one it could not call (its Service missing or without a
//     ready pod, as for admission webhooks) fails the request in
//     kube-apiserver's words (conversionwebhook.go).
//   - Status as kube-apiserver's strategies treat it for kinds with a
//     status subresource (status.go): a create drops the client's, an
//     update or patch of the object keeps the stored one.
//   - Kubernetes' legacy service-account token controller (tokens.go).
//   - Admission webhooks with failurePolicy Fail that kube-apiserver could
//     not call (their Service missing, or no ready pod behind it) refuse
//     the writes they must see, in its words (webhookcall.go); a webhook
//     it can reach admits every request.
//   - TokenRequests of ServiceAccounts and Gardener's AdminKubeconfigRequests
//     of Shoots, the token and adminkubeconfig subresources, answered
//     deterministically and stored nowhere (requests.go).
//   - Scope: namespaced objects need a namespace that exists; the namespace
//     of a cluster-scoped object is cleared. Deleting a Namespace deletes the
//     objects in it.
//   - The status subresource of the built-in kinds that have one and of
//     custom resources whose CRD declares it.
//   - Fake controllers that fill in status so that readiness checks (kstatus,
//     Landscaper's default checks) pass: Deployments, StatefulSets,
//     DaemonSets, ReplicaSets and ReplicationControllers get all replicas
//     ready, Pods run and are Ready, Jobs complete, CRDs are Established,
//     PersistentVolumeClaims are Bound (those of a WaitForFirstConsumer
//     StorageClass once the pods of a workload that uses them are
//     scheduled: awaitConsumer) and LoadBalancer Services get an
//     ingress hostname (<name>.<namespace>.lb.simulated). Rules (Rule) delay
//     this by virtual time, make it fail, or keep it from ever happening.
//     A StatefulSet's revisions are named by its template, and with
//     updateStrategy OnDelete a template change leaves its pods at their
//     revision (statefulset.go). Its claim templates make the claims
//     TEMPLATE-NAME-ORDINAL, owned as its retention policy says
//     (claimtemplates.go). A claim whose StorageClass does not exist stays
//     Pending (missingClass); one of no class binds at once. A bound claim
//     has its PersistentVolume (provisioned pvc-UID, an Available one that
//     fits, or the one its volumeName names, which it waits for) and
//     spec.volumeName; the volume goes (or is Released) with the claim
//     (volumes.go).
//   - Workloads whose pods need an object that is missing (prereqs.go): the
//     ServiceAccount (but "default", which a real namespace always has,
//     as it has the ConfigMap kube-root-ca.crt with the key ca.crt),
//     the claims of volumes, and Bound, the Secrets and ConfigMaps of
//     volumes, projected sources, env and envFrom (but optional ones), with
//     the keys of volume items and of env. They stay not ready with the
//     status kube-controller-manager, the scheduler and the kubelet write
//     (FailedCreate, pods not ready, a Deployment's
//     ProgressDeadlineExceeded after its deadline), until a write in their
//     namespace, or the binding of a claim, finds nothing missing; a Pod
//     without its ServiceAccount is refused, as ServiceAccount admission
//     does.
//   - kube-apiserver's Priority admission (priorityclass.go): pods whose
//     priorityClassName names no PriorityClass are refused, a workload's
//     as if its ServiceAccount were missing, until the class exists.
//   - A Job (or Pod run to completion) that completes, and a Deployment,
//     StatefulSet or DaemonSet with a ready pod (an operator writing its
//     own certificate), is taken to have written the Secrets and
//     ConfigMaps its containers name by flag or environment variable
//     (--secret-name=X, --cert-secret-name=X, CA_SECRET_NAME=X), as empty
//     objects annotated with the writer (jobwrites.go).
//   - kube-controller-manager's TTL-after-finished controller (ttl.go): a
//     finished Job with spec.ttlSecondsAfterFinished is deleted that many
//     seconds of virtual time after it finished, but not in the instant the
//     fake controller finished it in this process (every client sees it
//     then, as on a real cluster, where the Job runs for seconds).
//   - kube-controller-manager's garbage collector (gc.go): at the next step
//     after an object is deleted (the next client call, or before the state
//     is saved), the objects whose ownerReferences name it by uid are
//     deleted, or lose that reference when another owner they name exists;
//     propagation Orphan removes the references instead. It learns of every
//     deletion from the store (the tracker's Delete), whichever path deleted
//     the object.
//   - The cluster of selfConfig Targets is the simulation's own API server
//     (Options.Landscape) for the kinds that server keeps, with the other
//     kinds kept beside it (self.go).
//   - The size limits of default flags (objsize.go): a create or update whose
//     body is over 3 MiB is refused with 413, a write whose stored encoding
//     (protobuf for built-in kinds and CRDs, JSON for custom resources) etcd
//     would take as over 1.5 MiB fails with 500 "etcdserver: request is too
//     large".
//
// # Limitations
//
// Custom resources must be passed as unstructured objects: the cluster's
// scheme knows the built-in Go types only.
//
// A simulated cluster does not run workloads: Deployments get no ReplicaSets
// or Pods, Jobs no Pods. A workload waiting for a missing object is
// simulated as the first rollout of its template (an update's old
// ReplicaSet is not counted); image pull secrets, generic ephemeral
// volumes and the secrets of other volume sources are not looked at, and a workload waits only for writes through
// the cluster's clients (not for objects the simulation's own API server
// gets otherwise, on the self cluster). Names (by the rule of their kind, on create),
// labels and the data of Secrets and ConfigMaps (keys, 1 MiB, the keys a
// Secret's type needs; datavalidate.go) are validated as kube-apiserver validates them, and so are
// updates of the fields its update validation keeps (immutable.go: the
// workloads' selectors, a StatefulSet's claim templates, a Job's template,
// cluster IPs, claims, immutable ConfigMaps and Secrets, roleRef,
// StorageClasses, Pod specs; not PersistentVolumes; CRDs by their own
// validation, see above). There is no
// admission (but for the immortal namespaces, new objects in a
// terminating one, the ServiceAccounts of new Pods and the resize of
// claims), refusal of
// unknown fields in server-side apply or with fieldValidation Strict (they
// are pruned), defaulting beyond the above, conversion between versions of
// a kind beyond the apiVersion (see above), foreground deletion (the
// owner goes at once, blockOwnerDeletion is not looked at) or the collection
// of dependents whose owner never existed, finalizers other controllers would remove (a finalizer
// stays until a client removes it; but kubernetes.io/pvc-protection, see
// pvcprotection.go), watch, or discovery beyond the
// RESTMapper and ServerVersion (an APIService adds no group version to it,
// and the local APIServices a real kube-apiserver registers for its
// built-in group versions do not exist). No controller creates default
// ServiceAccounts, kube-root-ca.crt ConfigMaps or system RBAC. A CRD that
// fails (a rule) never serves its kinds. A deleted Namespace stays
// Terminating only while objects in it are held by finalizers (namespaces.go).
// A Job whose TTL has expired stays through the virtual instant in which
// the fake controller finished it (ttl.go), and deleting it takes no pods
// with it (there are none). Seeds apply to new clusters only.
package simcluster
