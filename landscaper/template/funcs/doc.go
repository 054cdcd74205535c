// Package funcs holds the template functions Landscaper offers to both of its
// template engines, GoTemplate and Spiff, over an installation's component
// versions: OCI reference parsing (parseOCIRef, ociRefRepo, ociRefVersion)
// and lookups in the component descriptors (getResource, getResources,
// getComponent, getRepositoryContext, getResourceKey) and their resources'
// content (getResourceContent, through a ContentReader);
// getOidcKubeconfig ([OIDCKubeconfig]), which reads only a Target; and
// getServiceAccountKubeconfig and getShootAdminKubeconfig (and their
// WithExpirationTimestamp variants, see [Clusters]), which ask the cluster
// behind a Target, as Landscaper's TokenClient and ShootClient do: in lscli
// the simulated cluster, or the real one for a Target set to use it. A dry
// run has no clusters: they fail with [ErrNoCluster].
package funcs
