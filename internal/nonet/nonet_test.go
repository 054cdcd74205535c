package nonet

import (
	"net"
	"net/http"
	"strings"
	"sync/atomic"
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
	if n := int(inner.errors.Load()); len(got) < 2 || got[0] != "GET http://example.invalid/x" || !strings.HasSuffix(got[1], "(DNS)") || n != len(got) {
		t.Errorf("attempts %q, %d test errors; want the GET, then DNS, each an error", got, n)
	}
}

// recorder counts the errors reported instead of failing. Like a
// testing.T, it may be called from many goroutines at once (the resolver
// looks up A and AAAA records side by side).
type recorder struct {
	testing.TB
	errors atomic.Int64
}

func (r *recorder) Errorf(string, ...any) { r.errors.Add(1) }
