// Package realcluster connects deployers to real Kubernetes clusters: it
// turns a Target of type landscaper.gardener.cloud/kubernetes-cluster into a
// controller-runtime client.Client for the cluster its kubeconfig names.
// Clusters implements deployer.ClusterClients; lscli uses it only for the
// Targets the user opted in for, never by default.
//
// The kubeconfig comes from the Target's spec.config.kubeconfig (a string, or
// the kubeconfig inline as an object) or from the Secret that
// spec.secretRef names in the Target's namespace (its key holds the target
// configuration or a bare kubeconfig; without a key, the Secret's data is the
// configuration), as in Landscaper. Like Landscaper, it refuses kubeconfigs
// that need anything but what they contain: client certificate or key files,
// token files, impersonation, auth providers and exec plugins. OIDC and self
// targets are not supported.
//
// A Client also reports its cluster's version from discovery
// (ServerVersion), which the helm deployer shows charts as
// .Capabilities.KubeVersion.
package realcluster
