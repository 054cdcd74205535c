// Package nonet is for tests: it proves that code under test opens no
// network connection. [Forbid] replaces the process's default HTTP
// transport, HTTP client and DNS resolver (what Go code reaches the network
// through: net/http's Get, net.LookupHost, ...) with ones that record the
// attempt and fail it, and restores them when the test ends.
//
//	func TestOffline(t *testing.T) {
//		nonet.Forbid(t)
//		... // any attempt fails the test, naming the address
//	}
//
// Tests that use it must not run in parallel with tests that need the
// network.
package nonet
