package dataflow

import (
	"errors"
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

// fail returns a terminal error about inst. Like Landscaper's errors of
// the installation's data flow it carries no error code.
func fail(inst *lsv1alpha1.Installation, reason, format string, args ...any) error {
	return reconcile.TerminalWithCodes(about(inst, nil, format, args...), reason)
}

// failWrap returns a terminal error about inst that wraps err.
func failWrap(inst *lsv1alpha1.Installation, reason string, err error, format string, args ...any) error {
	return reconcile.TerminalWithCodes(about(inst, err, format+": %w", append(args, err)...), reason)
}

// failWith returns a terminal error about inst that wraps err, whose
// message says everything after the installation's name.
func failWith(inst *lsv1alpha1.Installation, reason string, err error) error {
	return reconcile.TerminalWithCodes(about(inst, err, "%w", err), reason)
}

// InstallationError is a message about one installation. Its text names
// the installation first ("installation NS/NAME: ..."), as lscli's render
// and validate print it, where one error may be about any installation of
// a tree; Landscaper's controller writes the message without the name into
// the installation's own status: it is a reconcile.StatusTexter, so
// wherever the installation controller returns it, however wrapped, its
// status gets StatusText.
type InstallationError struct {
	// Installation is "<namespace>/<name>".
	Installation string
	// Message is the text after the installation's name.
	Message string
	// Landscaper, when set, is Landscaper's message for the same error,
	// where lscli's Message words it its own way (with advice, or shorter).
	Landscaper string
	err        error
}

func (e *InstallationError) Error() string {
	return "installation " + e.Installation + ": " + e.Message
}

// Unwrap returns the error the message is about, or nil.
func (e *InstallationError) Unwrap() error { return e.err }

// StatusText is the message as the installation's status shows it:
// Landscaper's when set, else Message (see reconcile.StatusText).
func (e *InstallationError) StatusText() string {
	if e.Landscaper != "" {
		return e.Landscaper
	}
	return e.Message
}

// about returns an InstallationError about inst that wraps err (which may
// be nil), with the message format makes.
func about(inst *lsv1alpha1.Installation, err error, format string, args ...any) *InstallationError {
	return &InstallationError{Installation: instName(inst), Message: fmt.Errorf(format, args...).Error(), err: err}
}

// statusPrefixError is an error before whose status text Landscaper puts
// words of its own (a step that wraps everything an inner one returns),
// which lscli's text (render, validate) does without.
type statusPrefixError struct {
	prefix string
	err    error
}

// withStatusPrefix returns err with prefix before its status text (see
// reconcile.StatusText); a nil err stays nil.
func withStatusPrefix(err error, prefix string) error {
	if err == nil {
		return nil
	}
	return &statusPrefixError{prefix: prefix, err: err}
}

func (e *statusPrefixError) Error() string { return e.err.Error() }

// Unwrap returns the error.
func (e *statusPrefixError) Unwrap() error { return e.err }

// StatusText is the prefix and the error's status text.
func (e *statusPrefixError) StatusText() string { return e.prefix + reconcile.StatusText(e.err) }

// failTemplate is failWrap for an error of a template engine, unless the
// engine panicked: that is lscli's failure, not the installation's, so the
// error is the *crash.Error, which now names the installation and the
// execution, and stops the run.
func failTemplate(inst *lsv1alpha1.Installation, reason string, err error, format string, args ...any) error {
	if ce := crash.As(err); ce != nil {
		if ce.Object == "" {
			ce.Object = fmt.Sprintf("installation %s: %s", instName(inst), fmt.Sprintf(format, args...))
		}
		return ce
	}
	return failWrap(inst, reason, err, format, args...)
}

// tidy puts a multi-line, tab-separated message (Spiff's) on one line.
func tidy(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}

// isNotFound reports whether err is a NotFound API error.
func isNotFound(err error) bool { return apierrors.IsNotFound(err) }

// ImportLoadError is an import that cannot be read from the installation's
// context: a DataObject, Target, Secret or ConfigMap that does not exist, a
// key the Secret or ConfigMap lacks, or a Target of a targetMapRef without
// its target map key label, a value of a Secret or ConfigMap that is not
// YAML. Landscaper's ImportsSatisfied fails
// the job on it; its text is Landscaper's.
type ImportLoadError struct {
	err error
	// text, when set, is Landscaper's text, where err words it lscli's way
	// (naming the key of a Secret or ConfigMap that Landscaper's does not).
	text string
	// Installation ("<namespace>/<name>") and Import name where it happened.
	Installation, Import string
}

func (e *ImportLoadError) Error() string { return e.err.Error() }

// StatusText is Landscaper's text (see reconcile.StatusText).
func (e *ImportLoadError) StatusText() string {
	if e.text != "" {
		return e.text
	}
	return e.err.Error()
}

// Explained returns err with the installation and the import named when it
// is an ImportLoadError (Landscaper's text names neither), else err.
func Explained(err error) error {
	e, ok := errors.AsType[*ImportLoadError](err)
	if !ok || e.Installation == "" {
		return err
	}
	return fmt.Errorf("installation %s: import %q: %w", e.Installation, e.Import, err)
}

// Unwrap returns the error of the read.
func (e *ImportLoadError) Unwrap() error { return e.err }

// IsImportLoadError reports whether err is (or wraps) an ImportLoadError.
func IsImportLoadError(err error) bool {
	_, ok := errors.AsType[*ImportLoadError](err)
	return ok
}

// loadError returns an ImportLoadError with the text format makes when err
// says the object does not exist, and err itself otherwise.
func loadError(err error, format string, args ...any) error {
	if !apierrors.IsNotFound(err) {
		return err
	}
	return &ImportLoadError{err: fmt.Errorf(format, args...)}
}

// ImportExecutionErrors are the errors an import execution returned.
// Landscaper joins them with ", " into the installation's ValidateImports
// condition as well as into the error.
type ImportExecutionErrors []string

// Error joins the errors with ", ".
func (e ImportExecutionErrors) Error() string { return strings.Join(e, ", ") }

// DeployItemError is a deploy item that rendered but cannot be used: a
// target reference that names no import of the installation (Item is the
// deploy item), or a list that does not validate (Item is empty).
// Landscaper writes its message into the installation's ReconcileExecution
// condition, where a template that fails gets a message of its own.
type DeployItemError struct {
	Item    string
	Problem string
	// Landscaper is Landscaper's words for the problem, where lscli's
	// Problem words it its own way (with advice).
	Landscaper string
}

// LandscaperText is Landscaper's message for the error, as its
// RenderDeployItemTemplates writes it into the status: "invalid
// deployitem specification NAME: ..." for an item, the validation's
// "error validating deployitem templates: ..." for the list.
func (e *DeployItemError) LandscaperText() string {
	problem := e.Landscaper
	if problem == "" {
		problem = e.Problem
	}
	if e.Item == "" {
		return problem
	}
	return fmt.Sprintf("invalid deployitem specification %q: %s", e.Item, problem)
}

// Error is the problem, prefixed with the item when there is one.
func (e *DeployItemError) Error() string {
	if e.Item == "" {
		return "rendered deploy items: " + e.Problem
	}
	return fmt.Sprintf("deploy item %q: %s", e.Item, e.Problem)
}

// WriteError is a failed write of the object of one import or export into
// a context. Landscaper marks it in the installation's CreateImports or
// CreateExports condition.
type WriteError struct {
	// Export is true for an export, false for an import.
	Export bool
	// Type is the import's type, or data or target for an export.
	Type lsv1alpha1.ImportType
	// Key is the import's name, or the dataRef or target an export writes.
	Key string
	Err error
}

// Error is the wrapped error.
func (e *WriteError) Error() string { return e.Err.Error() }

// Unwrap returns the wrapped error.
func (e *WriteError) Unwrap() error { return e.Err }
