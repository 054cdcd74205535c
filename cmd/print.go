package cmd

import (
	"fmt"
	"io"

	"github.com/lscli/lscli/action"
	"github.com/lscli/lscli/cmd/iostreams"
	"github.com/lscli/lscli/cmd/output"
	"github.com/lscli/lscli/fakecluster"
)

// objectFormats are the -o values of commands that print objects.
var objectFormats = []string{"tree", "wide", "yaml", "json"}

// styles decides color once, from --color, the terminal and the environment.
func (f *factory) styles(s *settings) (output.Styles, error) {
	color, err := iostreams.ColorEnabled(s.Color, f.streams.IsStdoutTTY(), f.getenv)
	if err != nil {
		return output.Styles{}, invalid(err)
	}
	return output.NewStyles(output.NewRenderer(f.streams.Out, color)), nil
}

// printObjects prints objs (narrowed to -n when given) as -o asks.
func (f *factory) printObjects(s *settings, objs []fakecluster.Object) error {
	objs = action.InNamespace(objs, s.Namespace)
	switch s.Output {
	case "yaml", "json":
		return output.List(objs, s.Output, f.streams.Out)
	}
	st, err := f.styles(s)
	if err != nil {
		return err
	}
	_, err = io.WriteString(f.streams.Out, output.Tree(objs, st, output.TreeOptions{Wide: s.Output == "wide"}))
	return err
}

// status prints a progress or summary line to ErrOut.
func (f *factory) status(format string, args ...any) {
	fmt.Fprintf(f.streams.ErrOut, format+"\n", args...)
}
