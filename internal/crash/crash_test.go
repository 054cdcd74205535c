package crash

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestRecover(t *testing.T) {
	run := func(component string, f func()) (err error) {
		defer Recover(component, &err)
		f()
		return nil
	}
	err := run("spiff", func() {
		var s []int
		_ = s[0]
	})
	ce := As(fmt.Errorf("wrapped: %w", err))
	if ce == nil || ce.Component != "spiff" || !strings.Contains(string(ce.Stack), "TestRecover") {
		t.Fatalf("err = %#v", err)
	}
	if want := "spiff panicked: runtime error: index out of range [0] with length 0 (a bug in spiff"; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("message %q, want prefix %q", err, want)
	}
	var re interface{ RuntimeError() }
	if !errors.As(err, &re) {
		t.Error("the runtime error is not unwrapped")
	}
	own := run(Own, func() { panic("boom") })
	if !strings.Contains(own.Error(), "lscli panicked: boom") || !strings.Contains(own.Error(), "bug in lscli") {
		t.Errorf("own panic: %v", own)
	}
	if err := run("x", func() {}); err != nil {
		t.Errorf("no panic: %v", err)
	}
	// A crash re-raised keeps its component.
	inner := run("sprig", func() { panic("deep") })
	outer := run(Own, func() { panic(inner) })
	if As(outer).Component != "sprig" {
		t.Errorf("re-raised crash: %v", outer)
	}
}
