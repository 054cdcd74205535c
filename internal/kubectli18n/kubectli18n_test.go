package kubectli18n_test

import (
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/kubectl/pkg/cmd/get" // initialized after the package under test, as in lscli
	"k8s.io/kubectl/pkg/util/i18n"

	"github.com/lscli/lscli/internal/kubectli18n"
)

// TestNoTranslationsAreLoaded: the loader that loads nothing was set before
// package get translated its help texts, and texts stay as written.
func TestNoTranslationsAreLoaded(t *testing.T) {
	if !kubectli18n.Installed {
		t.Fatal("kubectl's translations were loaded before the loader was set: the package is initialized too late")
	}
	if got := i18n.T("Display one or many resources"); got != "Display one or many resources" {
		t.Errorf("a text came back as %q", got)
	}
	if _, err := get.NewCustomColumnsPrinterFromSpec("NAME:.metadata.name", unstructured.UnstructuredJSONScheme, false); err != nil {
		t.Fatalf("kubectl's custom-columns printer: %v", err)
	}
}
