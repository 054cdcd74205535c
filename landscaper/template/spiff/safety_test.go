package spiff

import (
	"strings"
	"testing"

	"github.com/lscli/lscli/internal/crash"
	"github.com/lscli/lscli/internal/limits"
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
	_, err = Map("m", []byte(`"(( read() ))"`), nil, limits.Limits{})
	if ce := crash.As(err); ce == nil || ce.Component != Component {
		t.Fatalf("Map: err = %v, want a crash of spiff", err)
	}
}

// TestNoEnvironmentOrHostFiles: Spiff's env() sees no variable of the
// process, and read() no file of the host, with and without blueprint files.
func TestNoEnvironmentOrHostFiles(t *testing.T) {
	t.Setenv("LSCLI_SECRET", "s3cr3t")
	for _, tmpl := range []string{`"(( env(\"LSCLI_SECRET\") ))"`, `"(( env(\"HOME\") ))"`, `"(( read(\"/etc/hostname\", \"text\") ))"`} {
		if v, err := Map("m", []byte(tmpl), nil, limits.Limits{}); err == nil {
			t.Errorf("%s = %v, want an error", tmpl, v)
		}
		res, err := Execute(Request{Name: "main", Template: []byte(`{"x": ` + tmpl + `}`)})
		if err == nil {
			t.Errorf("%s renders %s, want an error", tmpl, res.Output)
		}
	}
	if v, err := Map("m", []byte(`"(( env(\"LSCLI_SECRET\", \"HOME\") ))"`), nil, limits.Limits{}); err != nil || toString(v) != "{}" {
		t.Errorf("env of several names = %v, %v; want {}", toString(v), err)
	}
}
