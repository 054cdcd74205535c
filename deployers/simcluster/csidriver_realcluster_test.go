package simcluster

import (
	"testing"

	"github.com/lscli/lscli/internal/testcluster"
)

// TestRealClusterCSIDriverImmutable replays csiDriverCases on a real
// kube-apiserver and checks its answers are the cases' want, which
// TestCSIDriverImmutable checks of the simulated cluster.
func TestRealClusterCSIDriverImmutable(t *testing.T) {
	tc := testcluster.Get(t)
	for i, c := range csiDriverCases {
		c = named(c, i)
		ns := tc.Namespace(t)
		if got := outcome(writeCase(t, tc.Client, ns, c)); got != c.want {
			t.Errorf("%s:\nreal: %s\nwant: %s", c.name, got, c.want)
		}
	}
}
