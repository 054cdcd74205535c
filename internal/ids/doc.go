// Package ids makes the identifiers the simulation hands out, in the form
// Kubernetes' API server and Landscaper give them: version 4 UUIDs (object
// uids, job IDs) and generateName suffixes. A Source derives each identifier
// from the seed and the identity of what it names (kind, namespace, name,
// owner, the previous job), never from a shared random stream, so a change to
// one part of a landscape never changes the identifiers of another, and the
// same seed gives the same identifiers.
package ids
