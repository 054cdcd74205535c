// Package funcs holds the template functions Landscaper offers to both of its
// template engines, GoTemplate and Spiff, in the form that works without a
// registry or a cluster: OCI reference parsing (parseOCIRef, ociRefRepo,
// ociRefVersion) and lookups in inline component descriptors (getResource,
// getResources, getComponent, getRepositoryContext, getResourceKey).
//
// Functions that need a live cluster or an OCM repository
// (getShootAdminKubeconfig, getServiceAccountKubeconfig, getOidcKubeconfig,
// getResourceContent) are not offered offline; see [Unavailable].
package funcs
