package template

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"sync"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/mandelsoft/vfs/pkg/vfs"
	"sigs.k8s.io/yaml"

	"github.com/lscli/lscli/internal/crash"
	"github.com/lscli/lscli/internal/limits"
	"github.com/lscli/lscli/landscaper/blueprint"
	"github.com/lscli/lscli/landscaper/template/funcs"
	"github.com/lscli/lscli/landscaper/template/spiff"
)

// goTemplateComponent names the GoTemplate engine in crash errors.
const goTemplateComponent = "GoTemplate (text/template with sprig)"

// Executor renders the template executions of one blueprint. It is not safe
// for concurrent use.
type Executor struct {
	// FS holds the blueprint's files: templates named by file, and the files
	// include, readFile and readDir read. Nil means an empty blueprint.
	FS fs.FS
	// Components are the component descriptors the component functions
	// search. Nil means none: those functions fail.
	Components *funcs.Components
	// ResolveTarget reads a Target's content for getOidcKubeconfig and the
	// cluster kubeconfig functions. Nil reads spec.config only
	// (funcs.InlineTargets).
	ResolveTarget funcs.TargetResolver
	// Clusters reach the clusters behind Targets for
	// getServiceAccountKubeconfig and getShootAdminKubeconfig (and their
	// WithExpirationTimestamp variants). Nil means there are none (a dry
	// run): those functions fail with funcs.ErrNoCluster.
	Clusters funcs.ClusterClients

	vfsOnce sync.Once
	vfs     vfs.FileSystem
	vfsErr  error
}

// Request is one execution to render.
type Request struct {
	// Execution is the blueprint's template executor.
	Execution lsv1alpha1.TemplateExecutor
	// Values are the bindings the template sees. Execute does not change it.
	Values map[string]any
	// Stateful gives the template its state: for GoTemplate the binding
	// "state" (State decoded, or {}) and a "state" key in the output; for
	// Spiff its state nodes. Deploy, subinstallation and export executions
	// are stateful, import executions are not.
	Stateful bool
	// State is what the last execution stored, nil when nothing yet.
	State []byte
	// CheckNoValue makes "<no value>" in GoTemplate output an error, as
	// Landscaper does for all but import executions.
	CheckNoValue bool
	// Now is the time the template's time functions see (now, ago, date):
	// the virtual clock. Zero means DefaultNow.
	Now time.Time
	// Seed seeds the template's random functions (uuidv4, randAlphaNum,
	// randInt, ...): the same seed gives the same values (see
	// Environment.SeedFor).
	Seed [32]byte
	// Limits bound the execution; zero fields mean the defaults.
	Limits limits.Limits
	// Context is the context of the calls the cluster kubeconfig functions
	// make. Nil means context.Background().
	Context context.Context
}

// now is Now in UTC, or DefaultNow.
func (req Request) now() time.Time {
	if req.Now.IsZero() {
		return DefaultNow
	}
	return req.Now.UTC()
}

// Result is a rendered execution.
type Result struct {
	// Output is the rendered document (YAML; JSON is YAML too).
	Output []byte
	// State is the new state to store, nil when there is none: for
	// GoTemplate the output's "state" key as JSON, for Spiff its state
	// nodes as Spiff's YAML ("{}" without any), as Landscaper stores them.
	State []byte
}

// Execute renders req. Errors are *Error, except when the template cannot
// be read (an unknown type, a missing file, ...): that is a *SourceError;
// and when the template engine panicked: that is a *crash.Error naming the
// engine.
func (e *Executor) Execute(req Request) (res *Result, err error) {
	ex := req.Execution
	switch ex.Type {
	case lsv1alpha1.GOTemplateType:
		defer crash.Recover(goTemplateComponent, &err)
		return e.executeGo(req)
	case lsv1alpha1.SpiffTemplateType:
		defer crash.Recover(spiff.Component, &err)
		return e.executeSpiff(req)
	}
	return nil, &SourceError{Err: fmt.Errorf("unknown template type %q (allowed: %s, %s)", ex.Type, lsv1alpha1.GOTemplateType, lsv1alpha1.SpiffTemplateType),
		Landscaper: fmt.Sprintf("unknown template type %s", ex.Type)}
}

// SourceError is an execution whose template cannot be read: an unknown
// type, neither template nor file, a file that cannot be read, a GoTemplate
// template that is not a string, a Spiff template that does not parse.
type SourceError struct {
	// Err says what is wrong, naming the file where there is one.
	Err error
	// Landscaper is the message Landscaper's templaters give for it
	// (template.go's Templater, gotemplate's getTemplateFromExecution,
	// spiff's templateNode).
	Landscaper string
}

// Error is Err's message.
func (e *SourceError) Error() string { return e.Err.Error() }

// Unwrap returns Err.
func (e *SourceError) Unwrap() error { return e.Err }

// source returns the template of ex: the inline template, or else its
// file. An execution with both renders the inline template, as Landscaper's
// templaters (gotemplate's getTemplateFromExecution, spiff's templateNode)
// look at the template first.
func (e *Executor) source(ex lsv1alpha1.TemplateExecutor) (raw []byte, file string, err error) {
	if len(ex.Template.RawMessage) != 0 && string(ex.Template.RawMessage) != "null" {
		return ex.Template.RawMessage, "", nil
	}
	if ex.File != "" {
		data, err := e.readFile(ex.File)
		if err != nil {
			se := &SourceError{Err: fmt.Errorf("read template file: %w", err), Landscaper: vfsError(e.FS, ex.File, err)}
			if se.Landscaper == "" {
				se.Landscaper = err.Error()
			}
			return nil, "", se
		}
		return data, blueprint.FilePath(ex.File), nil
	}
	return nil, "", &SourceError{Err: fmt.Errorf("has neither file nor template"), Landscaper: "no template found"}
}

// clusters are what the cluster kubeconfig functions of req need.
func (e *Executor) clusters(req Request) *funcs.Clusters {
	return &funcs.Clusters{Context: req.Context, Clients: e.Clusters, Resolve: e.ResolveTarget}
}

// readFile reads a file of the blueprint; paths may start with "/".
func (e *Executor) readFile(p string) ([]byte, error) {
	if e.FS == nil {
		return nil, fmt.Errorf("open %s: file does not exist", p)
	}
	return fs.ReadFile(e.FS, blueprint.FilePath(p))
}

// executeSpiff renders a Spiff template.
func (e *Executor) executeSpiff(req Request) (*Result, error) {
	raw, file, err := e.source(req.Execution)
	if err != nil {
		return nil, err
	}
	e.vfsOnce.Do(func() {
		if e.FS != nil {
			e.vfs, e.vfsErr = spiff.FileSystem(e.FS, req.Limits.YAMLNodes)
		}
	})
	if e.vfsErr != nil {
		return nil, e.vfsErr
	}
	res, err := spiff.Execute(spiff.Request{Template: raw, Name: req.Execution.Name, FS: e.vfs,
		Functions: spiff.NewFunctions(e.Components, e.clusters(req)), Values: req.Values, Stateful: req.Stateful, State: req.State, Limits: req.Limits})
	if crash.As(err) != nil {
		return nil, err
	}
	if err != nil {
		te := &Error{File: file, Err: &causedError{msg: tidySpiffMessage(err.Error()), cause: err}}
		var ee *spiff.EvalError
		if errors.As(err, &ee) {
			te.Spiff = ee.Landscaper
		}
		var pe *spiff.ParseError
		if errors.As(err, &pe) {
			return nil, &SourceError{Err: te, Landscaper: pe.Err.Error()}
		}
		return nil, te
	}
	return &Result{Output: res.Output, State: res.State}, nil
}

// decodeState returns the stored state as the GoTemplate binding: {} when
// there is none.
func decodeState(state []byte) (any, error) {
	if len(state) == 0 {
		return map[string]any{}, nil
	}
	var out any
	if err := yaml.Unmarshal(state, &out); err != nil {
		return nil, fmt.Errorf("read stored state: %w", err)
	}
	return out, nil
}

// outputState returns the "state" key of a GoTemplate output as JSON, nil
// if there is none. As Landscaper's gotemplate.storeState, it returns null
// for "state: null" and an empty "state:": Landscaper stores that, and the
// next execution's state binding is nil.
func outputState(out []byte) ([]byte, error) {
	var doc struct {
		// omitempty: DecodeYAML keeps the value as JSON, where a missing
		// key must stay missing, not become null.
		State json.RawMessage `json:"state,omitempty"`
	}
	if err := DecodeYAML(out, &doc); err != nil {
		return nil, nil // the caller reports the undecodable output
	}
	if len(doc.State) == 0 {
		return nil, nil
	}
	return doc.State, nil
}

// tidySpiffMessage puts Spiff's tab-separated, multi-line messages on one line.
func tidySpiffMessage(msg string) string {
	return strings.Join(strings.Fields(msg), " ")
}
