package cmd

import (
	"errors"
	"fmt"
	"io"

	"github.com/lscli/lscli/action"
	"github.com/lscli/lscli/cmd/iostreams"
	"github.com/lscli/lscli/cmd/output"
	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/reconcile"
	"github.com/lscli/lscli/state"
)

// styles decides color once, from --color, the terminal and the environment.
func (f *factory) styles(s *settings) (output.Styles, error) {
	color, err := iostreams.ColorEnabled(s.Color, f.streams.IsStdoutTTY(), f.getenv)
	if err != nil {
		return output.Styles{}, invalid(err)
	}
	return output.NewStyles(output.NewRenderer(f.streams.Out, color)), nil
}

// printObjects prints objs (narrowed to -n when given) as -o asks: the tree
// (tree, wide) or one of kubectl's formats. explain, when not nil, has
// lscli's texts of the errors of a run, which the tree shows under the
// lastErrors they explain (see output.TreeOptions.Explain).
func (f *factory) printObjects(s *settings, objs []fakecluster.Object, explain *reconcile.Explanations) error {
	objs = action.InNamespace(objs, s.Namespace)
	if !treeOutput(s) {
		return output.Print(objs, s.Output, false, f.streams.Out)
	}
	st, err := f.styles(s)
	if err != nil {
		return err
	}
	opts := output.TreeOptions{Wide: s.Output == "wide"}
	if explain != nil {
		opts.Explain = explain.Lookup
	}
	_, err = io.WriteString(f.streams.Out, output.Tree(objs, st, opts))
	return err
}

// treeOutput reports whether -o asks for the tree (tree, wide).
func treeOutput(s *settings) bool { return s.Output == "tree" || s.Output == "wide" }

// status prints a progress or summary line to ErrOut.
func (f *factory) status(format string, args ...any) {
	fmt.Fprintf(f.streams.ErrOut, format+"\n", args...)
}

// noState handles the answer of a read command where there is no
// simulation yet: a hint on ErrOut, and for the machine formats (-o json,
// yaml) the empty answer, so that scripts still parse it. Other errors come
// back as they are.
func (f *factory) noState(err error, empty func() error) error {
	var ns *action.NoStateError
	if !errors.As(err, &ns) || !errors.Is(err, state.ErrNoState) || action.ExitCodeOf(err) != action.ExitBug {
		return err
	}
	f.status("hint: %v", ns)
	if empty == nil {
		return nil
	}
	return empty()
}
