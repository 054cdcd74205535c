// Package blueprint reads Landscaper blueprints: the blueprint.yaml with its
// imports, exports and template executions, and the files it lives with.
//
// A blueprint comes from one of three places:
//
//   - an Installation's spec.blueprint.inline.filesystem, read exactly as
//     Landscaper reads it (a YAML file system: nested maps are folders,
//     strings are file contents, a map with "$type" is a file or folder as
//     that key says), see [FromInline];
//   - a local folder holding blueprint.yaml, see [FromFS];
//   - spec.blueprint.ref.resourceName, which Landscaper looks up in the
//     installation's component descriptor in an OCM registry. lscli reads no
//     registry: a [Resolver], usually [Folders] from the blueprints map of the
//     config file, maps the resource name to a local folder.
//
// [ForInstallation] picks the right one. Its errors are terminal
// (reconcile.Fatalf): a blueprint that cannot be found or read stays so until
// the installation or the configuration changes.
package blueprint
