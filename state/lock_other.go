//go:build !unix

package state

import "os"

// lockFile does nothing where flock is missing: a second lscli is not kept
// out. Writes stay atomic, so the state file is still never half written.
func lockFile(*os.File, bool) error { return nil }

// syncDir does nothing: folders cannot be opened for syncing everywhere.
func syncDir(string) error { return nil }
