// Package helm is Landscaper's helm deployer (deploy item type
// landscaper.gardener.cloud/helm, ProviderConfiguration
// helm.deployer.landscaper.gardener.cloud/v1alpha1), running in-process with
// helm's own libraries against the cluster behind the item's Target: lscli's
// simulated cluster or a real one, through the controller-runtime client
// that deployer.ClusterClients gives. The same code serves both.
//
//	d := helm.New(helm.Options{Clusters: clusters, Charts: map[string]string{
//		"registry.example/charts/app:1.0.0": "./charts/app",
//	}})
//
// # Charts
//
// Nothing is downloaded. A chart comes from chart.archive.raw (a base64
// .tgz), from a local folder or .tgz (chart.ref or chart.archive.remote.url
// starting with /, ./, ../ or file://), or from the local chart that
// Options.Charts maps a remote reference to: an OCI chart.ref (with or
// without its tag), a chart.archive.remote.url, a chart.helmChartRepo
// ("<url>/<name>:<version>" or "<url>/<name>") or a chart.resourceRef. A
// key without the version finds only the version its chart has, as a
// registry finds only the versions it holds. An unmapped reference fails
// the item and names the key to add.
// chart.fromResource (component descriptors) is not supported.
//
// # Template step
//
// Both modes first compute the values the templates see, as Landscaper does
// (chart defaults coalesced with values, release name and namespace,
// revision 0, install), with .Capabilities.KubeVersion set explicitly: the
// target client's version (ServerVersioner: the simulated cluster's
// configured version, a real cluster's discovery), else Options.KubeVersion,
// else DefaultKubeVersion, never helm's library default v1.20.0. Exports
// without fromResource are read from these values by jsonPath before
// anything is deployed, as in Landscaper: .Values.x, .Release.Name, and
// helm's Chart and Capabilities structs by JSON or Go field name
// (.Chart.version, .Chart.Name); a path the values lack is an error that is
// retried until the progressing timeout.
//
// # helmDeployment: true (the default): a real helm release
//
// helm's action package installs the release, or upgrades it when it exists
// (keeping MaxHistory revisions; like helm, an upgrade without values reuses
// the last ones), and uninstalls it on Delete (without history; CRDs of
// crds/ stay). createNamespace and helmDeploymentConfig (atomic, force,
// skipSchemaValidation, takeOwnership, wait) are passed on; its timeout is
// ignored, as in Landscaper: helm's own waits last as long as the
// progressing timeout leaves. helm
// talks to the cluster through a kube.Interface over the controller-runtime
// client:
//
//   - objects are written with server-side apply (field manager "helm",
//     forced), or, with force, replaced (an update of the whole object,
//     as helm's kube client does), so an upgrade drops what a chart no
//     longer renders and deletes objects it no longer has, unless they
//     carry helm's resource-policy keep annotation;
//   - helm's ownership checks see the live objects, so an object that
//     another release or no release owns is refused as helm refuses it;
//   - CRDs of crds/ are created first and waited for until their kinds are
//     served; hook Jobs are waited for until they complete or fail; with
//     wait (or atomic) the release's objects are waited for by helm's own
//     readiness checker (kube.ReadyChecker), and an uninstall with wait
//     waits for them to be gone; on a simulated cluster none of these
//     waits blocks: the action pauses and goes on in a later call (see
//     hookRun);
//   - release records are Secrets in the release namespace in helm's own
//     format (type helm.sh/release.v1), so the helm CLI lists the releases
//     of a real cluster; their timestamps are the deploy item's virtual time,
//     so a simulated cluster stores the same bytes on every run.
//
// providerStatus.managedResources lists the release's Pods, Deployments,
// ReplicaSets, StatefulSets, DaemonSets and ReplicationControllers, the kinds
// the default readiness check has rules for, which it reads without failing
// on missing objects; as in Landscaper, objects inside a List document are
// not listed, so not checked.
//
// # helmDeployment: false: rendered manifests
//
// The chart is rendered with helm's engine: CRDs of crds/ first, then the
// templates in file name order, NOTES.txt and documents that are no
// Kubernetes object (no apiVersion and kind) left out, hooks applied as
// plain objects, every subchart (conditions and tags are not processed, as
// in Landscaper), all with policy manage, plus the release Namespace with policy
// keep when createNamespace is set. The manifest deployer's applier
// (deployers/manifest/apply) applies them with the release namespace as
// default, the label helm.deployer.landscaper.gardener.cloud/deployitem,
// updateStrategy, and deletion of objects no longer rendered
// (deletionGroupsDuringUpdate). Every managed object must exist and be
// ready. Delete deletes all managed objects by deletionGroups, the kept
// Namespace too, as Landscaper does.
//
// # lookup
//
// `lookup` in templates reads the target's cluster in both modes, as in
// Landscaper: a real cluster through its own REST config, the simulated
// one through a transport that answers helm's reads (see lookupConfig).
//
// # .Capabilities.APIVersions
//
// A release's templates see what the target's cluster serves, as helm's
// action reads it from discovery in Landscaper (action.GetVersionSet):
// group versions and group/version/kinds, CRDs included, read before each
// install or upgrade and again once the chart's crds/ are served, sorted
// (see servedAPIVersions). With helmDeployment: false, and in value
// exports, they are helm's default list, as Landscaper's template step
// passes no capabilities.
//
// # Polling and time
//
// A job deploys on its first call (phase Init) and then only looks (phase
// Progressing) every 5 seconds of virtual time until readiness checks and
// exports pass or spec.timeout fails the item (see Deployer.Reconcile). A
// call that fails leaves the item Progressing, and the next one deploys
// again (deployer.Deploys), as Landscaper's deployer starts over.
// Nothing reads the wall clock except helm's own bounded waits (CRDs, hooks,
// wait) on a real cluster.
//
// # Not supported
//
// Chart repository credentials, continuousReconcile and HELM_DRIVER are
// ignored.
package helm
