package nonet

import (
	"net"
	"net/http"
	"strings"
	"testing"
)

// TestForbid: with Forbid, HTTP and DNS attempts fail and are recorded.
func TestForbid(t *testing.T) {
	inner := &recorder{TB: t}
	attempts := Forbid(inner)
	if _, err := http.Get("http://example.invalid/x"); err == nil {
		t.Error("http.Get succeeded")
	}
	if _, err := net.LookupHost("example.invalid"); err == nil {
		t.Error("LookupHost succeeded")
	}
	got := attempts()
	if len(got) < 2 || got[0] != "GET http://example.invalid/x" || !strings.HasSuffix(got[1], "(DNS)") || inner.errors != len(got) {
		t.Errorf("attempts %q, %d test errors; want the GET, then DNS, each an error", got, inner.errors)
	}
}

// recorder counts the errors reported instead of failing.
type recorder struct {
	testing.TB
	errors int
}

func (r *recorder) Errorf(string, ...any) { r.errors++ }
