package dataflow

import (
	"fmt"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/lscli/lscli/internal/crash"
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

// fail returns a terminal error about inst.
func fail(inst *lsv1alpha1.Installation, reason, format string, args ...any) error {
	return reconcile.TerminalErrorf(reason, "installation %s: %s", instName(inst), fmt.Sprintf(format, args...))
}

// failWrap returns a terminal error about inst that wraps err.
func failWrap(inst *lsv1alpha1.Installation, reason string, err error, format string, args ...any) error {
	return reconcile.TerminalErrorf(reason, "installation %s: %s: %w", instName(inst), fmt.Sprintf(format, args...), err)
}

// failTemplate is failWrap for an error of a template engine, unless the
// engine panicked: that is lscli's failure, not the installation's, so the
// error stays a normal one (naming the installation) and stops the run.
func failTemplate(inst *lsv1alpha1.Installation, reason string, err error, format string, args ...any) error {
	if crash.As(err) != nil {
		return fmt.Errorf("installation %s: %s: %w", instName(inst), fmt.Sprintf(format, args...), err)
	}
	return failWrap(inst, reason, err, format, args...)
}

// tidy puts a multi-line, tab-separated message (Spiff's) on one line.
func tidy(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}

// isNotFound reports whether err is a NotFound API error.
func isNotFound(err error) bool { return apierrors.IsNotFound(err) }
