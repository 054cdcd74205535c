// Package output renders lscli's state for people and for scripts.
//
// Every renderer is a pure function of its input and a [Styles]: it does no
// IO (apart from writing to the io.Writer it is given), reads no clock and
// does not ask for the terminal width, so the same state always gives the
// same bytes.
//
//   - [Tree] draws Installations, Executions and DeployItems as trees, like
//     `landscaper-cli installations inspect` (`lscli tree`, and the output of
//     the commands that run the simulation). [TreeOptions] adds the wide view.
//   - [Table] is the kubectl-like `lscli get` view: one aligned table per kind.
//   - [List] writes objects as a Kubernetes List in JSON or YAML
//     (`-o json|yaml`), in Landscaper's API shape, with an Execution's
//     deploy items in clear.
//   - [Events] and [EventsJSON] show the timeline (`lscli events`).
//
// Empty input renders as a sentence, not as nothing: [NoInstallations],
// [NoObjects] and [NoEvents]. The machine formats render empty input as an
// empty list ("items": [] and []).
//
// # Color
//
// cmd decides once whether output is colored (iostreams.ColorEnabled),
// builds one renderer for streams.Out with [NewRenderer] (or any
// lipgloss.Renderer whose profile is termenv.Ascii when color is off) and
// passes [NewStyles] of it down:
//
//	color, err := iostreams.ColorEnabled(mode, streams.IsStdoutTTY(), os.Getenv)
//	st := output.NewStyles(output.NewRenderer(streams.Out, color))
//	fmt.Fprint(streams.Out, output.Tree(objs, st, output.TreeOptions{}))
//
// The package never uses lipgloss's package-level default renderer, which is
// tied to os.Stdout and the process environment.
package output
