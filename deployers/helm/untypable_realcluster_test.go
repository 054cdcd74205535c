package helm

import (
	"testing"

	"github.com/lscli/lscli/internal/testcluster"
)

// TestRealClusterUntypableObjectsAsHelm3 is TestUntypableObjectsAsHelm3
// on a real kube-apiserver: the same ports after each write.
func TestRealClusterUntypableObjectsAsHelm3(t *testing.T) {
	tc := testcluster.Get(t)
	untypableWrites(t, tc.Client, tc.Namespace(t))
}
