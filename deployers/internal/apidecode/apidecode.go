// Package apidecode decodes the provider configurations of deploy items as
// Landscaper's deployers decode them, with the decoder of Landscaper's
// pkg/api (NewDecoder): any version of the kind, or none given, goes to the
// internal version with its defaults and is converted to the version asked
// for. Field names match as written, unknown ones are ignored, and another
// kind or an unknown version is an error.
package apidecode

import (
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
)

// Decoder decodes the kinds of one deployer's scheme. It is safe for
// concurrent use.
type Decoder struct {
	scheme    *runtime.Scheme
	universal runtime.Decoder
}

// New returns a Decoder for the scheme that install fills, e.g. the
// Install function of a deployer's API install package. Make one per
// scheme, not per decoding: a codec factory is costly.
func New(install func(*runtime.Scheme)) *Decoder {
	s := runtime.NewScheme()
	install(s)
	return &Decoder{scheme: s, universal: serializer.NewCodecFactory(s).UniversalDecoder()}
}

// Scheme returns the scheme the decoder knows.
func (d *Decoder) Scheme() *runtime.Scheme { return d.scheme }

// Decode decodes data into into, a versioned object of the scheme: through
// the internal version of its kind when the scheme has one (apiVersion and
// kind may then be missing from data), else straight into into.
func (d *Decoder) Decode(data []byte, into runtime.Object) error {
	kinds, _, err := d.scheme.ObjectKinds(into)
	if err != nil {
		return err
	}
	internal := kinds[0]
	internal.Version = runtime.APIVersionInternal
	if !d.scheme.Recognizes(internal) {
		_, _, err := d.universal.Decode(data, nil, into)
		return err
	}
	obj, _, err := d.universal.Decode(data, &internal, nil)
	if err != nil {
		return fmt.Errorf("unable to decode to internal type: %w", err)
	}
	return d.scheme.Convert(obj, into, nil)
}
