// Package components resolves component versions as Landscaper does, but
// offline: from the local sources of package source, found in the
// landscape folders and the folders the config file maps, never from a
// registry.
//
// A Registry looks up a component version by repository context, name and
// version (Lookup), and an installation's component version with every
// version it references, transitively (Resolve, giving a Tree). It reads a
// resource's content (Content) from the version's local blobs or from a
// local file the config file maps to the resource's access, and turns it
// into a blueprint, a JSON schema or a helm chart. An access that needs a
// registry and has no local mapping is a *NeedsRegistryError that says which
// config file line would map it.
package components
