// Package blueprint reads Landscaper blueprints: the blueprint.yaml with its
// imports, exports and template executions, and the filesystem it lives in,
// from an Installation's inline filesystem (nested maps are folders, strings
// are files) or from a local folder.
package blueprint
