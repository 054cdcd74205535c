package landscape

import (
	"testing"

	"github.com/gardener/landscaper/apis/core"
	"github.com/gardener/landscaper/apis/core/install"
	lsvalidation "github.com/gardener/landscaper/apis/core/validation"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/lscli/lscli/fakecluster"
)

// TestLandscaperParity checks that the loader finds as many problems as
// Landscaper's own validation (apis/core/validation, run by its webhooks),
// unless the case says the loader is stricter: then Landscaper accepts it.
func TestLandscaperParity(t *testing.T) {
	internal := runtime.NewScheme()
	install.Install(internal)
	for _, tt := range validationCases {
		t.Run(tt.name, func(t *testing.T) {
			errs := landscaperValidate(t, internal, decodeForTest(t, tt.doc))
			for _, e := range errs {
				t.Logf("Landscaper: %v", e)
			}
			switch rejects := len(errs) > 0; {
			case rejects && len(tt.want) == 0:
				t.Errorf("Landscaper rejects what the loader accepts")
			case !rejects && len(tt.want) > 0 && !tt.stricter:
				t.Errorf("Landscaper accepts it: mark the case stricter")
			case rejects && tt.stricter:
				t.Errorf("Landscaper rejects it too: the case is not stricter")
			case !tt.stricter && len(errs) != len(tt.want):
				t.Errorf("Landscaper finds %d problems, the loader %d", len(errs), len(tt.want))
			}
		})
	}
}

// decodeForTest decodes and defaults the first document of doc, without
// validating it.
func decodeForTest(t *testing.T, doc string) fakecluster.Object {
	t.Helper()
	ld := &load{scheme: defaultScheme(), namespace: "default"}
	js, err := yamlToJSON(splitDocuments([]byte(doc))[0])
	if err != nil {
		t.Fatal(err)
	}
	h, err := readHeader(js)
	if err != nil {
		t.Fatal(err)
	}
	kind, msg := lookupKind(h.APIVersion, h.Kind)
	if msg != "" {
		t.Fatal(msg)
	}
	obj, msgs := ld.decode(js, kind)
	if obj == nil || len(msgs) > 0 {
		t.Fatalf("decode: %q", msgs)
	}
	obj.SetNamespace("default")
	ld.applyDefaults(obj)
	return obj
}

// landscaperValidate converts obj to Landscaper's internal types and runs the
// validation its webhook runs for the kind.
func landscaperValidate(t *testing.T, s *runtime.Scheme, obj fakecluster.Object) field.ErrorList {
	t.Helper()
	gvk := obj.GetObjectKind().GroupVersionKind()
	out, err := s.New(core.SchemeGroupVersion.WithKind(gvk.Kind))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Convert(obj, out, nil); err != nil {
		t.Fatalf("convert %s: %v", gvk.Kind, err)
	}
	switch o := out.(type) {
	case *core.Installation:
		return lsvalidation.ValidateInstallation(o)
	case *core.Execution:
		return lsvalidation.ValidateExecution(o)
	case *core.DeployItem:
		return lsvalidation.ValidateDeployItem(o)
	case *core.Target:
		return lsvalidation.ValidateTarget(o)
	}
	t.Fatalf("no Landscaper validation for %s", gvk.Kind)
	return nil
}
