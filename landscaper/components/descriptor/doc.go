// Package descriptor reads and writes OCM component descriptors in the two
// schemas Landscaper accepts: the legacy component-spec schema v2
// (meta.schemaVersion: v2) and OCM's ocm.software/v3alpha1 (kind
// ComponentVersion). Like Landscaper, lscli works on the v2 model
// internally and remembers the schema a descriptor was written in, which
// decides what templates see as .cd and .components.
package descriptor
