package dataflow

import (
	"fmt"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/lscli/lscli/reconcile"
)

// Reasons of the terminal errors of this package, as they appear in
// status.lastError.reason.
const (
	ReasonImportInvalid       = "ImportValidationFailed"
	ReasonTemplatingFailed    = "TemplatingFailed"
	ReasonSubinstallations    = "SubinstallationsInvalid"
	ReasonExportInvalid       = "ExportValidationFailed"
	ReasonBlueprintInvalid    = "BlueprintInvalid"
	ReasonComponentDescriptor = "ComponentDescriptorInvalid"
)

// fail returns a terminal error about inst. Like Landscaper's errors of
// the installation's data flow it carries no error code.
func fail(inst *lsv1alpha1.Installation, reason, format string, args ...any) error {
	return reconcile.Fatalf(reason, "installation %s: %s", instName(inst), fmt.Sprintf(format, args...))
}

// failWrap returns a terminal error about inst that wraps err.
func failWrap(inst *lsv1alpha1.Installation, reason string, err error, format string, args ...any) error {
	return reconcile.Fatalf(reason, "installation %s: %s: %w", instName(inst), fmt.Sprintf(format, args...), err)
}

// tidy puts a multi-line, tab-separated message (Spiff's) on one line.
func tidy(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}

// isNotFound reports whether err is a NotFound API error.
func isNotFound(err error) bool { return apierrors.IsNotFound(err) }
