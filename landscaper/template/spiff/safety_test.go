package spiff

import (
	"strings"
	"testing"

	"github.com/lscli/lscli/internal/crash"
)

// TestReadWithoutArgumentsPanicsInSpiff is the reproducer of spiff's
// `(( read() ))` panic (index out of range in dynaml.func_read): Execute and
// Map return it as a *crash.Error naming spiff instead of crashing.
func TestReadWithoutArgumentsPanicsInSpiff(t *testing.T) {
	_, err := Execute(Request{Name: "main", Template: []byte(`{"x": "(( read() ))"}`)})
	ce := crash.As(err)
	if ce == nil || ce.Component != Component || !strings.Contains(err.Error(), "index out of range") {
		t.Fatalf("Execute: err = %v, want a crash of spiff", err)
	}
	_, err = Map("m", []byte(`"(( read() ))"`), nil)
	if ce := crash.As(err); ce == nil || ce.Component != Component {
		t.Fatalf("Map: err = %v, want a crash of spiff", err)
	}
}
