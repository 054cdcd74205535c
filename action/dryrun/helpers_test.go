package dryrun

import (
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
)

// runtimeRaw is a deploy item configuration.
type runtimeRaw = runtime.RawExtension

// toString prints a value for comparisons.
func toString(v any) string { return fmt.Sprint(v) }
