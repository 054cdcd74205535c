package spiff

import (
	_ "unsafe" // go:linkname

	_ "github.com/mandelsoft/spiff/dynaml" // the package whose variable is cleared
)

// spiffEnviron is the copy of the process's environment that Spiff's env()
// function reads: dynaml takes it when the program starts, and env() is a
// built-in that a registered function cannot replace. lscli clears it, so
// that a template sees no environment variable of the process (they would
// also land in the saved state). The link fails to build if a new Spiff
// version renames the variable.
//
//go:linkname spiffEnviron github.com/mandelsoft/spiff/dynaml.environ
var spiffEnviron []string

func init() {
	spiffEnviron = nil
}
