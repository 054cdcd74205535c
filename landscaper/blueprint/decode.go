package blueprint

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/gardener/landscaper/apis/core"
	coreinstall "github.com/gardener/landscaper/apis/core/install"
	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/lscli/lscli/internal/apidecode"
)

// apiDecoder decodes the files of a blueprint as Landscaper does, with the
// universal decoder of a scheme of Landscaper's core types (see apidecode).
var apiDecoder = apidecode.New(coreinstall.Install)

// DecodeFile decodes data, a file of a blueprint, into into, a pointer to
// a zero value of one of Landscaper's core types, as Landscaper does:
// blueprint.yaml straight into the Blueprint (with its defaults, also
// without apiVersion and kind), any other file, such as an
// InstallationTemplate, through the internal version. The value of a text
// is kept, and a copy of it given the next time (see apidecode.Decoder).
func DecodeFile(data []byte, into runtime.Object) error {
	decode := apiDecoder.Decode
	if _, ok := into.(*lsv1alpha1.Blueprint); ok {
		decode = apiDecoder.DecodeVersioned
	}
	if err := decode(data, into); err != nil {
		var ke *apidecode.KindError
		if errors.As(err, &ke) {
			return fmt.Errorf("%w: want apiVersion %s and kind %s, or neither", err, lsv1alpha1.SchemeGroupVersion, reflect.TypeOf(into).Elem().Name())
		}
		return err
	}
	return nil
}

// TemplateFileError is the error Landscaper gives decoding data, a
// subinstallation file of a blueprint (GetSubinstallations in
// pkg/utils/blueprints/blueprint.go), straight into its internal
// InstallationTemplate, or nil when data decodes so. Its text differs from
// DecodeFile's for another kind: the versioned object is converted into
// the internal template ("converting (v1alpha1.Installation) to
// (core.InstallationTemplate): unknown conversion").
func TemplateFileError(data []byte) error {
	return apiDecoder.DecodeVersioned(data, &core.InstallationTemplate{})
}
