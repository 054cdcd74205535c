// Package exports reads deploy item exports from objects in the target
// cluster, as Landscaper's manifest and helm deployers do
// (pkg/deployer/lib/resourcemanager/exporter.go in Landscaper).
//
// Each export names a resource (fromResource: apiVersion, kind, name,
// namespace) and a jsonPath in it (client-go jsonpath without braces; a
// leading dot is optional). With fromObjectRef the value found must be an
// object reference, a map with name and optional namespace (default: the
// namespace of fromResource), and the value is read from the referenced
// object (fromObjectRef apiVersion, kind and jsonPath). Values are exported
// as stored, so Secret data stays base64. key is itself a path: "a.b" exports
// {"a": {"b": value}}. The results of all exports are deep-merged, later
// ones winning. targetName reads from another Target's cluster.
//
// Exports without fromResource are skipped: the helm deployer reads those
// from its chart values.
//
// Read is one attempt, not a wait: Landscaper polls each export every 5
// seconds (PollInterval) until it can be read or the deploy item times out;
// Read returns a *PendingError for the first export that cannot be read yet,
// and the caller polls again on the virtual clock.
package exports
