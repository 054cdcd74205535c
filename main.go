// Command lscli runs Gardener Landscaper's reconcile machine locally, without
// a cluster. See the README and docs/.
package main

import (
	"os"

	"github.com/lscli/lscli/cmd"
)

func main() { os.Exit(cmd.Main()) }
