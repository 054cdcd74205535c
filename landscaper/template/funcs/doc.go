// Package funcs holds the template functions Landscaper offers to both of its
// template engines, GoTemplate and Spiff, over an installation's component
// versions: OCI reference parsing (parseOCIRef, ociRefRepo, ociRefVersion)
// and lookups in the component descriptors (getResource, getResources,
// getComponent, getRepositoryContext, getResourceKey) and their resources'
// content (getResourceContent, through a ContentReader); and
// getOidcKubeconfig ([OIDCKubeconfig]), which reads only a Target.
//
// Functions that need a live cluster (getShootAdminKubeconfig,
// getServiceAccountKubeconfig) are not offered offline; see [Unavailable].
package funcs
