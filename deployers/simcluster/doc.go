// Package simcluster is the simulated Kubernetes cluster that lscli puts
// behind every Target unless the user asks for the real one: an in-memory
// cluster per Target, built on controller-runtime's fake client, that real
// deployers (manifest, helm) write to through an ordinary client.Client.
// Its objects are kept in the lscli state, so a later command (or `lscli get
// --target NAME`) sees what an earlier one applied.
//
// Clusters holds the clusters of one simulation and implements
// deployer.ClusterClients:
//
//	clusters := simcluster.New(simcluster.Options{Now: clock.Now, Rand: rnd})
//	c, err := clusters.ForTarget(ctx, target) // a client.Client
//
// # What it simulates
//
//   - Every built-in kind of client-go's scheme and CustomResourceDefinitions
//     (apiextensions.k8s.io/v1). A custom resource is accepted only once a CRD
//     serving its group, version and kind exists; before that every call is a
//     *meta.NoKindMatchError, as on a real cluster. Deleting a CRD deletes its
//     custom resources and forgets the kind.
//   - Create, Update, Patch (JSON, merge, strategic merge) and server-side
//     apply with managedFields and conflicts, by the fake client. Create and
//     Update fill the caller's object with the stored one, as an API
//     server's answer does (the fake client alone leaves out uid,
//     creationTimestamp and generation for built-in kinds).
//   - metadata.uid, creationTimestamp and deletionTimestamp from the injected
//     random source and clock; metadata.generation: 1 on create and one more
//     whenever anything but metadata and status changes (for every kind).
//   - Scope: namespaced objects need a namespace that exists (default,
//     kube-system, kube-public and kube-node-lease always exist); the
//     namespace of a cluster-scoped object is cleared. Deleting a Namespace
//     deletes the objects in it.
//   - The status subresource of the built-in kinds that have one and of
//     custom resources whose CRD declares it.
//   - Fake controllers that fill in status so that readiness checks (kstatus,
//     Landscaper's default checks) pass: Deployments, StatefulSets,
//     DaemonSets, ReplicaSets and ReplicationControllers get all replicas
//     ready, Pods run and are Ready, Jobs complete, CRDs are Established,
//     PersistentVolumeClaims are Bound and LoadBalancer Services get an
//     ingress hostname (<name>.<namespace>.lb.simulated). Rules (Rule) delay
//     this by virtual time, make it fail, or keep it from ever happening.
//
// # Limitations
//
// Custom resources must be passed as unstructured objects: the cluster's
// scheme knows the built-in Go types only.
//
// A simulated cluster does not run workloads: Deployments get no ReplicaSets
// or Pods, Jobs no Pods. There is no admission, validation against OpenAPI
// schemas, defaulting, conversion between versions of a kind, garbage
// collection through owner references, finalizers other controllers would
// remove (a finalizer stays until a client removes it), watch, or discovery
// beyond the RESTMapper and ServerVersion. A CRD that fails (a rule) never
// serves its kinds. Namespaces do not go through Terminating.
package simcluster
