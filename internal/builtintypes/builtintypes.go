// Package builtintypes holds the type converter of Kubernetes' built-in
// kinds, from their OpenAPI schemas, as the API server's field manager has
// them. Building it parses every model (tens of megabytes of heap), so the
// process builds it once, on first use, for every package that needs it:
// the simulated cluster's field manager and the helm deployer's check for
// objects no typed patch can be made of.
package builtintypes

import (
	"sync"

	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/client-go/applyconfigurations"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
)

// Converter returns the type converter of the built-in kinds of client-go's
// scheme, built on the first call.
var Converter = sync.OnceValue(func() managedfields.TypeConverter {
	return applyconfigurations.NewTypeConverter(clientgoscheme.Scheme)
})
