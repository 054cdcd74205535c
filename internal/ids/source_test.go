package ids

import "testing"

// TestSourceIsStable pins the values a Source derives: they are uids, job
// IDs and generated names in saved states and golden files, so a change of
// the hashing (or of how parts are framed) must show here first.
func TestSourceIsStable(t *testing.T) {
	s := NewSource(7)
	long := "this-is-a-very-long-base-name-that-goes-on-and-on-and-on-for-sure-x"
	for _, c := range []struct{ got, want string }{
		{s.UUID("uid", "Installation.landscaper.gardener.cloud", "ns", "a", "2025-01-01T00:00:00Z", "0"), "47ab8de0-f270-4635-8123-e54df7426c73"},
		{s.GenerateName("di-", "DeployItem", "default", "owner", "0"), "di-28tqm"},
		{s.GenerateName(long, "k"), "this-is-a-very-long-base-name-that-goes-on-and-on-and-on-fgmtrz"},
		{s.JobID("Installation", "ns", "a", "uid-1", ""), "185c9914-2c85-4810-84f5-3b1ea23e441f"},
		{NewSource(1).UUID(), "7c9fa136-d441-4fa6-9736-37e883b6998d"},
	} {
		if c.got != c.want {
			t.Errorf("got %s, want %s", c.got, c.want)
		}
	}
	if got := s.Uint(1000, "x", ""); got != 453 {
		t.Errorf("Uint = %d, want 453", got)
	}
}

// TestSourceAllocates counts what deriving an ID costs: it runs for every
// object the API server creates.
func TestSourceAllocates(t *testing.T) {
	s := NewSource(7)
	if n := testing.AllocsPerRun(100, func() { _ = s.Uint(10, "uid", "Installation", "ns", "name", "0") }); n != 0 {
		t.Errorf("Uint allocates %v times, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() { _ = s.UUID("uid", "Installation", "ns", "name", "0") }); n > 1 {
		t.Errorf("UUID allocates %v times, want 1 (its string)", n)
	}
	if n := testing.AllocsPerRun(100, func() { _ = s.GenerateName("di-", "DeployItem", "ns", "owner", "0") }); n > 1 {
		t.Errorf("GenerateName allocates %v times, want 1 (its string)", n)
	}
}
