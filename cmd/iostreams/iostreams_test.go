package iostreams

import (
	"fmt"
	"io"
	"testing"
)

func TestTest(t *testing.T) {
	streams, in, out, errOut := Test()
	in.WriteString("input")
	fmt.Fprint(streams.Out, "data")
	fmt.Fprint(streams.ErrOut, "status")
	got, err := io.ReadAll(streams.In)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "input" {
		t.Errorf("In read %q, want %q", got, "input")
	}
	if out.String() != "data" {
		t.Errorf("out = %q, want %q", out.String(), "data")
	}
	if errOut.String() != "status" {
		t.Errorf("errOut = %q, want %q", errOut.String(), "status")
	}
	if streams.IsStdinTTY() || streams.IsStdoutTTY() || streams.IsStderrTTY() {
		t.Errorf("Test streams claim to be terminals")
	}
}

func TestSetTTY(t *testing.T) {
	for _, isTTY := range []bool{true, false} {
		t.Run(fmt.Sprint(isTTY), func(t *testing.T) {
			streams, _, _, _ := Test()
			streams.SetStdinTTY(isTTY)
			streams.SetStdoutTTY(isTTY)
			streams.SetStderrTTY(isTTY)
			if streams.IsStdinTTY() != isTTY || streams.IsStdoutTTY() != isTTY || streams.IsStderrTTY() != isTTY {
				t.Errorf("after Set*TTY(%v): stdin %v, stdout %v, stderr %v", isTTY,
					streams.IsStdinTTY(), streams.IsStdoutTTY(), streams.IsStderrTTY())
			}
		})
	}
}

func TestSystem(t *testing.T) {
	streams := System()
	if streams.In == nil || streams.Out == nil || streams.ErrOut == nil {
		t.Fatalf("System() left a stream nil: %+v", streams)
	}
}
