package blueprint

import (
	"errors"
	"fmt"
	"reflect"

	coreinstall "github.com/gardener/landscaper/apis/core/install"
	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/lscli/lscli/internal/apidecode"
	"github.com/lscli/lscli/internal/memo"
)

// apiDecoder decodes the files of a blueprint as Landscaper does, with the
// universal decoder of a scheme of Landscaper's core types (see apidecode).
var apiDecoder = apidecode.New(coreinstall.Install)

// decodedFiles keeps the value of each text DecodeFile decoded, by target
// type: one blueprint rolled out many times reads the same files again.
var decodedFiles = memo.Bounded[memo.TypedText, runtime.Object]{Max: 4096}

// DecodeFile decodes data, a file of a blueprint, into into, a pointer to
// a zero value of one of Landscaper's core types, as Landscaper does:
// blueprint.yaml straight into the Blueprint (with its defaults, also
// without apiVersion and kind), any other file, such as an
// InstallationTemplate, through the internal version. The value of a text
// is kept, and a copy of it given the next time.
func DecodeFile(data []byte, into runtime.Object) error {
	key := memo.TypedText{Type: reflect.TypeOf(into), Text: string(data)}
	if kept, ok := decodedFiles.Get(key); ok {
		reflect.ValueOf(into).Elem().Set(reflect.ValueOf(kept.DeepCopyObject()).Elem())
		return nil
	}
	decode := apiDecoder.Decode
	if _, ok := into.(*lsv1alpha1.Blueprint); ok {
		decode = apiDecoder.DecodeVersioned
	}
	if err := decode(data, into); err != nil {
		var ke *apidecode.KindError
		if errors.As(err, &ke) {
			return fmt.Errorf("%w: want apiVersion %s and kind %s, or neither", err, lsv1alpha1.SchemeGroupVersion, key.Type.Elem().Name())
		}
		return err
	}
	decodedFiles.Put(key, into.DeepCopyObject())
	return nil
}
