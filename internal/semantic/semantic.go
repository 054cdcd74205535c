// Package semantic compares Kubernetes objects as apimachinery's
// equality.Semantic does (quantities by value, times to the second in UTC,
// nil and empty alike), but compares byte slices and raw JSON with
// bytes.Equal instead of byte by byte through reflection: an inline
// blueprint, a deploy item's configuration and a Secret's data are such
// slices, and they made most of the time of comparing Landscaper objects.
package semantic

import (
	"bytes"
	"encoding/json"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/conversion"
)

// equalities are equality.Semantic's functions and the byte-slice ones.
var equalities = func() conversion.Equalities {
	eq := equality.Semantic.Copy()
	err := eq.AddFuncs(
		func(a, b []byte) bool { return bytes.Equal(a, b) },
		func(a, b json.RawMessage) bool { return bytes.Equal(a, b) },
	)
	if err != nil {
		panic(err)
	}
	return eq
}()

// DeepEqual reports whether a and b are equal, as
// equality.Semantic.DeepEqual(a, b) reports it.
func DeepEqual(a, b any) bool { return equalities.DeepEqual(a, b) }
