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
//     deploy items in clear; [ListStored] writes the same bytes from the
//     state file's lines, without decoding them.
//   - [Events] and [EventsJSON] show the timeline (`lscli events`).
//   - [DrawTree] draws any tree of labels as lipgloss's tree draws it, and
//     [MarshalYAML] writes a value as sigs.k8s.io/yaml does (render's tree).
//
// Long outputs are written on all cores where the order allows (trees root
// by root, List items and events a round at a time), and YAML is written
// directly where yaml.v2 would write the same bytes (fastYAML), else by
// yaml.v2: the bytes are those of the plain way in every case.
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
