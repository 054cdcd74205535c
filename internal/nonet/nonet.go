package nonet

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"sync"
	"testing"
)

// Forbid makes every network attempt through the defaults fail and fail
// t, until t ends. It returns the attempts made so far, for tests that
// expect none and want to say more than Forbid does.
func Forbid(t testing.TB) (attempts func() []string) {
	t.Helper()
	var mu sync.Mutex
	var seen []string
	record := func(what string) error {
		mu.Lock()
		seen = append(seen, what)
		mu.Unlock()
		t.Errorf("network attempt: %s", what)
		return fmt.Errorf("nonet: %s: no network in this test", what)
	}
	oldTransport, oldClient, oldResolver := http.DefaultTransport, http.DefaultClient, net.DefaultResolver
	rt := roundTripper(func(req *http.Request) (*http.Response, error) {
		return nil, record(req.Method + " " + req.URL.String())
	})
	http.DefaultTransport = rt
	http.DefaultClient = &http.Client{Transport: rt}
	net.DefaultResolver = &net.Resolver{PreferGo: true, Dial: func(_ context.Context, network, address string) (net.Conn, error) {
		return nil, record("dial " + network + " " + address + " (DNS)")
	}}
	t.Cleanup(func() {
		http.DefaultTransport, http.DefaultClient, net.DefaultResolver = oldTransport, oldClient, oldResolver
	})
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), seen...)
	}
}

// roundTripper is an http.RoundTripper made of a function.
type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }
