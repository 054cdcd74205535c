// Package apidecode decodes Landscaper's documents as Landscaper decodes
// them, with the universal decoder of a scheme of Landscaper's API types:
// YAML or JSON, YAML scalars by their own type, field names as written,
// unknown ones ignored, another kind or an unknown version an error.
// [Decoder.Decode] goes through the internal version, as the decoder of
// Landscaper's pkg/api does (deploy item configurations, subinstallation
// files); [Decoder.DecodeVersioned] decodes straight into the version asked
// for, as Landscaper reads blueprint.yaml.
package apidecode

import (
	"fmt"
	"reflect"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"

	"github.com/lscli/lscli/internal/memo"
)

// Decoder decodes the kinds of one scheme. It is safe for concurrent use.
// It keeps the value of each text it decoded, by target type and way of
// decoding, and gives a deep copy of it the next time: a blueprint rolled
// out many times renders the same configurations and files, and decoding
// them through the internal version was most of a mock deploy item's cost.
type Decoder struct {
	scheme    *runtime.Scheme
	universal runtime.Decoder
	decoded   memo.Bounded[decodedKey, runtime.Object]
}

// decodedKey keys a decoded value: the text, the target type, and whether
// it was decoded straight into its version.
type decodedKey struct {
	memo.TypedText
	versioned bool
}

// New returns a Decoder for the scheme that install fills, the Install
// function of one of Landscaper's API install packages. Make one per
// scheme, not per decoding: a codec factory is costly.
func New(install func(*runtime.Scheme)) *Decoder {
	s := runtime.NewScheme()
	install(s)
	return &Decoder{scheme: s, universal: serializer.NewCodecFactory(s).UniversalDecoder(), decoded: memo.Bounded[decodedKey, runtime.Object]{Max: 4096, Size: func(k decodedKey) int { return len(k.Text) }}}
}

// Scheme returns the scheme the decoder knows.
func (d *Decoder) Scheme() *runtime.Scheme { return d.scheme }

// Decode decodes data into into, a versioned object of the scheme, as the
// decoder of Landscaper's pkg/api does: to the internal version of its kind
// when the scheme has one, then converted into into. Data without apiVersion
// and kind go straight to the internal version, which has no defaults.
// Without an internal version it is DecodeVersioned. into must point to a
// zero value.
func (d *Decoder) Decode(data []byte, into runtime.Object) error {
	return d.remembered(data, into, false, d.decode)
}

// remembered decodes data into into with decode, or copies the value it
// kept for the same text, type and way of decoding into into.
func (d *Decoder) remembered(data []byte, into runtime.Object, versioned bool, decode func([]byte, runtime.Object) error) error {
	key := decodedKey{memo.TypedText{Type: reflect.TypeOf(into), Text: string(data)}, versioned}
	if kept, ok := d.decoded.Get(key); ok {
		reflect.ValueOf(into).Elem().Set(reflect.ValueOf(kept.DeepCopyObject()).Elem())
		return nil
	}
	if err := decode(data, into); err != nil {
		return err
	}
	d.decoded.Put(key, into.DeepCopyObject())
	return nil
}

// decode is Decode without the kept values.
func (d *Decoder) decode(data []byte, into runtime.Object) error {
	kinds, _, err := d.scheme.ObjectKinds(into)
	if err != nil {
		return err
	}
	internal := kinds[0]
	internal.Version = runtime.APIVersionInternal
	if !d.scheme.Recognizes(internal) {
		return d.decodeVersioned(data, into)
	}
	obj, _, err := d.universal.Decode(data, &internal, nil)
	if err != nil {
		return fmt.Errorf("unable to decode to internal type: %w", kindError(err))
	}
	return kindError(d.scheme.Convert(obj, into, nil))
}

// DecodeVersioned decodes data straight into into, a versioned object of
// the scheme: a missing apiVersion or kind is taken from into, and the
// defaults of into's version are applied. into must point to a zero value.
func (d *Decoder) DecodeVersioned(data []byte, into runtime.Object) error {
	return d.remembered(data, into, true, d.decodeVersioned)
}

// decodeVersioned is DecodeVersioned without the kept values.
func (d *Decoder) decodeVersioned(data []byte, into runtime.Object) error {
	_, _, err := d.universal.Decode(data, nil, into)
	return kindError(err)
}

// KindError is the error of data of another kind or an unknown version
// than the one decoded into.
type KindError struct{ msg string }

func (e *KindError) Error() string { return e.msg }

// kindError returns err as a KindError when it says that the data's kind or
// version is not the one decoded into: "no kind "X" is registered for
// version "Y"" (without the decoder's " in scheme "<the Go file that made
// the scheme>"", which says nothing to a user), or, for another kind of
// the scheme, "converting (X) to (Y): unknown conversion".
func kindError(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if runtime.IsNotRegisteredError(err) {
		msg, _, _ = strings.Cut(msg, " in scheme ")
		return &KindError{msg: msg}
	}
	if strings.HasPrefix(msg, "converting (") && strings.HasSuffix(msg, "unknown conversion") {
		return &KindError{msg: msg}
	}
	return err
}
