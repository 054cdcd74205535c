// Package ids makes the identifiers the simulation hands out, the way
// Kubernetes' API server and Landscaper make them: version 4 UUIDs (object
// uids, job IDs) and generateName suffixes. Every identifier is drawn from a
// random source the caller passes in, seeded, so the same seed gives the same
// identifiers.
package ids
