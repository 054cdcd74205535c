package dataflow

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"regexp"
	"strconv"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"sigs.k8s.io/yaml"

	"github.com/lscli/lscli/deployers/realcluster"
	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/landscaper/blueprint"
	"github.com/lscli/lscli/landscaper/template"
	"github.com/lscli/lscli/landscaper/template/funcs"
	"github.com/lscli/lscli/reconcile"
)

// Execution kinds, as messages name them (the blueprint's field names).
const (
	kindImport  = "importExecution"
	kindDeploy  = "deployExecution"
	kindSubinst = "subinstallationExecution"
	kindExport  = "exportExecution"
)

// runner renders the executions of one kind of one installation.
type runner struct {
	inst   *lsv1alpha1.Installation
	exec   *template.Executor
	values map[string]any
	kind   string
	// prefix is the state prefix; "" for stateless executions.
	prefix string
	// c reads and stores the state of stateful executions; nil for
	// stateless ones.
	c fakecluster.Client
	// goState is the "state" binding of the last stateful GoTemplate
	// execution that ran, nil before one ran. Landscaper's GoTemplate
	// executor sets it in the input that all executions of the kind
	// share, so a later Spiff execution has it among its values (and in
	// the input its errors show).
	goState map[string]any
}

// newRunner returns a runner for the executions of kind.
func newRunner(c fakecluster.Client, inst *lsv1alpha1.Installation, bp *blueprint.Blueprint, imps *Imports, kind, prefix string) (*runner, error) {
	values, err := bindings(inst, imps)
	if err != nil {
		return nil, err
	}
	return &runner{inst: inst, exec: &template.Executor{FS: bp.FS, Components: imps.components},
		values: values, kind: kind, prefix: prefix, c: c}, nil
}

// run renders ex and decodes its output into out (see render and
// decode).
func (ru *runner) run(ctx context.Context, ex lsv1alpha1.TemplateExecutor, out any) error {
	output, err := ru.render(ctx, ex)
	if err != nil {
		return err
	}
	return ru.decode(ex, output, out)
}

// render renders ex and returns its output. A stateful execution's new
// state is stored as soon as it has rendered, before its output is
// decoded, as Landscaper's templaters store it: it is kept when the output,
// a later execution or the rest of the job fails, and a later execution of
// the same name in the same job reads it.
func (ru *runner) render(ctx context.Context, ex lsv1alpha1.TemplateExecutor) ([]byte, error) {
	env := template.EnvironmentFrom(ctx)
	values := ru.values
	if ex.Type == lsv1alpha1.SpiffTemplateType && ru.goState != nil {
		// Landscaper's Spiff templater gets the input the GoTemplate
		// executions before it set "state" in.
		values = maps.Clone(values)
		maps.Copy(values, ru.goState)
	}
	req := template.Request{Execution: ex, Values: values, Stateful: ru.prefix != "", CheckNoValue: ru.kind != kindImport,
		Now: env.Now(), Seed: env.SeedFor(ru.inst.Namespace, ru.inst.Name, ru.inst.Status.JobID, ru.kind, ex.Name), Limits: env.Limits}
	if req.Stateful {
		st, err := loadState(ctx, ru.c, ru.inst, ru.prefix, ex.Name)
		if err != nil {
			return nil, err
		}
		req.State = st
	}
	// The kubeconfig functions resolve Targets as Landscaper's target
	// resolver does: spec.config, or the Secret of the secretRef; those
	// that ask a cluster reach the environment's clusters.
	ru.exec.ResolveTarget = func(t *lsv1alpha1.Target) ([]byte, error) {
		if ru.c == nil {
			return funcs.InlineTargets(t)
		}
		return realcluster.TargetContent(ctx, t, ru.c)
	}
	ru.exec.Clusters = env.Clusters
	req.Context = ctx
	res, err := ru.exec.Execute(req)
	if req.Stateful && ex.Type == lsv1alpha1.GOTemplateType {
		ru.goState = map[string]any{"state": ru.input(req.State)["state"]}
	}
	if err != nil {
		if lsErr := ru.noValue(req, err); lsErr != nil {
			return nil, ru.failLandscaper(ex, err, lsErr)
		}
		if lsErr := ru.goError(req, err); lsErr != nil {
			return nil, ru.failLandscaper(ex, err, lsErr)
		}
		if lsErr := ru.spiffError(err); lsErr != nil {
			return nil, ru.failLandscaper(ex, err, lsErr)
		}
		if lsErr := ru.sourceError(err); lsErr != nil {
			return nil, ru.failLandscaper(ex, err, lsErr)
		}
		return nil, ru.fail(ex, err)
	}
	if req.Stateful && res.State != nil {
		if err := storeState(ctx, ru.c, ru.inst, ru.prefix, ex.Name, res.State); err != nil {
			return nil, err
		}
	}
	return res.Output, nil
}

// decode decodes output, what ex rendered, into out. An error says what
// is wrong in the blueprint's terms (see explainOutput); the status gets
// Landscaper's message (see failOutput).
func (ru *runner) decode(ex lsv1alpha1.TemplateExecutor, output []byte, out any) error {
	if err := template.DecodeYAML(output, out); err != nil {
		return ru.failOutput(ex, output, explainOutput(ru.kind, output, out, err))
	}
	return nil
}

// failOutput is the terminal error err about output, what ex rendered,
// which does not decode: the status shows Landscaper's message for it
// (see decodeError) where Landscaper's templater rejects output too.
func (ru *runner) failOutput(ex lsv1alpha1.TemplateExecutor, output []byte, err error) error {
	if lsErr := ru.decodeError(ex, output); lsErr != nil {
		return ru.failLandscaper(ex, err, lsErr)
	}
	return ru.fail(ex, err)
}

// fail is a terminal error naming the installation and the execution.
func (ru *runner) fail(ex lsv1alpha1.TemplateExecutor, err error) error {
	return failTemplate(ru.inst, ReasonTemplatingFailed, err, "%s %q", ru.kind, ex.Name)
}

// failLandscaper is fail for an error that Landscaper words as lsErr: the
// installation's status shows lsErr's text alone (see
// InstallationError.StatusText), render and validate lscli's err.
func (ru *runner) failLandscaper(ex lsv1alpha1.TemplateExecutor, err, lsErr error) error {
	ie := about(ru.inst, err, "%s %q: %w", ru.kind, ex.Name, err)
	ie.Landscaper = lsErr.Error()
	return reconcile.TerminalWithCodes(ie, ReasonTemplatingFailed)
}

// noValue returns Landscaper's error for the "<no value>" in the output of
// a GoTemplate execution that err (of req) reports, nil for any other
// error. lscli's error names the first one only, Landscaper's has the
// whole output and the input, so the template is rendered once more,
// without the check: the same request renders the same output.
func (ru *runner) noValue(req template.Request, err error) error {
	var te *template.Error
	if !req.CheckNoValue || req.Execution.Type != lsv1alpha1.GOTemplateType || !errors.As(err, &te) || !te.Output {
		return nil
	}
	req.CheckNoValue = false
	res, err := ru.exec.Execute(req)
	if err != nil || res == nil {
		return nil
	}
	return noValueError(ru.kind, res.Output, ru.input(req.State))
}

// spiffError returns Landscaper's error for a Spiff template that failed
// to evaluate, nil for any other error: Spiff's message and the template
// input, as the spiff templater's TemplateError writes them (Build in
// pkg/landscaper/installations/executions/template/spiff/error.go), its
// input formatter hiding the values of imports, values and state only.
// Landscaper's import constructor puts its own words before it
// (RenderImportExecutions).
func (ru *runner) spiffError(err error) error {
	var te *template.Error
	if !errors.As(err, &te) || te.Spiff == "" {
		return nil
	}
	in := maps.Clone(ru.values)
	maps.Copy(in, ru.goState)
	msg := te.Spiff + "\ntemplate input:\n" + formatInput(in, "\t", "imports", "values", "state")
	if ru.kind == kindImport {
		msg = "RenderImportExecutions - unable to template executions: " + msg
	}
	return errors.New(msg)
}

// sourceError returns Landscaper's error for a template that cannot be
// read (see template.SourceError), nil for any other error: its
// templaters return it as it is, the import constructor puts its own words
// before it (RenderImportExecutions).
func (ru *runner) sourceError(err error) error {
	var se *template.SourceError
	if !errors.As(err, &se) {
		return nil
	}
	msg := se.Landscaper
	if ru.kind == kindImport {
		msg = "RenderImportExecutions - unable to template executions: " + msg
	}
	return errors.New(msg)
}

// goError returns Landscaper's error for a GoTemplate template of req
// that failed to parse or execute, nil for any other error: text/template's
// message, the template source around the line it names and the template
// input, as the GoTemplate templater's TemplateError writes them
// (pkg/landscaper/installations/executions/template/gotemplate
// /template_error.go). A parse error has the source twice: TemplateExecution
// builds a TemplateError of it, which the templater builds into another.
func (ru *runner) goError(req template.Request, err error) error {
	var te *template.Error
	if req.Execution.Type != lsv1alpha1.GOTemplateType || !errors.As(err, &te) || te.Go == nil {
		return nil
	}
	msg := te.Go.Message
	if te.Go.Included != "" {
		// An included file that does not parse: its source follows its
		// error, before the including template's.
		msg = msg[:te.Go.IncludedAt] + withSource(msg[te.Go.IncludedAt:], te.Go.Included)
	}
	if te.Go.Parse {
		msg = withSource(msg, te.Go.Source)
	}
	msg = withSource(msg, te.Go.Source) + "\ntemplate input:\n" + formatInput(ru.input(req.State), "\t", "imports", "targets", "values", "state")
	if ru.kind == kindImport {
		msg = "RenderImportExecutions - unable to template executions: " + msg
	}
	return errors.New(msg)
}

// stateTemplateResult is Landscaper's gotemplate.StateTemplateResult, into
// which its GoTemplate templater decodes an output for its state.
type stateTemplateResult struct {
	State json.RawMessage `json:"state"`
}

// decodeError returns Landscaper's error for out, the output of ex that
// lscli cannot decode, nil when Landscaper's templater would decode it.
// Landscaper's GoTemplate templater decodes a stateful execution's output
// for its state first (storeState in gotemplate.go), which fails on YAML
// that does not parse and on an output that is not a mapping ("unable to
// store state: ..."). Then both templaters decode the output into the type
// of its kind (see landscaperOutput), with a message that names
// Landscaper's Go types; the GoTemplate templater puts "error while
// decoding templated execution: " before it, except for an export
// execution, and the import constructor its own words before an import
// execution's.
func (ru *runner) decodeError(ex lsv1alpha1.TemplateExecutor, out []byte) error {
	goTemplate := ex.Type == lsv1alpha1.GOTemplateType
	if goTemplate && ru.prefix != "" {
		if err := yaml.Unmarshal(out, &stateTemplateResult{}); err != nil {
			msg := strings.ReplaceAll(err.Error(), "dataflow.stateTemplateResult", "gotemplate.StateTemplateResult")
			return errors.New("unable to store state: " + msg)
		}
	}
	err := yaml.Unmarshal(out, landscaperOutput(ru.kind))
	if err == nil {
		return nil
	}
	msg := err.Error()
	if goTemplate && ru.kind != kindExport {
		msg = "error while decoding templated execution: " + msg
	}
	if ru.kind == kindImport {
		msg = "RenderImportExecutions - unable to template executions: " + msg
	}
	return errors.New(msg)
}

// landscaperOutput returns a pointer to a new value of the type
// Landscaper's templaters decode the output of an execution of kind into.
func landscaperOutput(kind string) any {
	switch kind {
	case kindImport:
		return &template.ImportExecutorOutput{}
	case kindSubinst:
		return &template.SubinstallationExecutorOutput{}
	case kindExport:
		return &template.ExportExecutorOutput{}
	}
	return &template.DeployExecutorOutput{}
}

// sourcePos finds the line and column in a GoTemplate error, as
// Landscaper's TemplateError.formatSource does: the first ":LINE:" or
// ":LINE:COLUMN:" of the message.
var sourcePos = regexp.MustCompile(`(?m):([0-9]+)(:([0-9]+))?:`)

// withSource is msg followed by "template source:" and the lines of
// source around the line msg names, as TemplateError.Build writes them
// (nothing after the heading when msg names none).
func withSource(msg, source string) string {
	snippet := ""
	if m := sourcePos.FindStringSubmatch(msg); m != nil {
		line, err := strconv.Atoi(m[1])
		if err == nil {
			col, err := strconv.Atoi(m[3])
			if err != nil {
				col = 0
			}
			snippet = sourceSnippet(line, col, strings.Split(source, "\n"))
		}
	}
	return msg + "\ntemplate source:\n" + snippet
}

// input is the input of the runner's templates with the stored state, as
// a GoTemplate execution sees it: the state decoded, or {} when there is
// none.
func (ru *runner) input(state []byte) map[string]any {
	in := maps.Clone(ru.values)
	if ru.prefix == "" {
		return in
	}
	in["state"] = map[string]any{}
	if len(state) > 0 {
		var st any
		if err := yaml.Unmarshal(state, &st); err == nil {
			in["state"] = st
		}
	}
	return in
}

// runImportExecutions runs the blueprint's importExecutions. Each one sees
// the imports including the bindings of those before it; its bindings are
// added to the imports. The first one that returns errors ends the chain
// with a terminal error listing them.
func runImportExecutions(ctx context.Context, inst *lsv1alpha1.Installation, bp *blueprint.Blueprint, imps *Imports) error {
	if len(bp.Info.ImportExecutions) == 0 {
		return nil
	}
	ru, err := newRunner(nil, inst, bp, imps, kindImport, "")
	if err != nil {
		return err
	}
	imports := ru.values["imports"].(map[string]any)
	for _, ex := range bp.Info.ImportExecutions {
		var out struct {
			Bindings map[string]any `json:"bindings"`
			Errors   []string       `json:"errors"`
		}
		if err := ru.run(ctx, ex, &out); err != nil {
			return err
		}
		for k, v := range out.Bindings {
			imports[k] = v
			imps.Values[k] = v
		}
		if len(out.Errors) > 0 {
			return failWrap(inst, ReasonTemplatingFailed, ImportExecutionErrors(out.Errors), "importExecution %q: import validation failed", ex.Name)
		}
	}
	return nil
}
