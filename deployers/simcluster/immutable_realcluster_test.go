package simcluster

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/lscli/lscli/internal/testcluster"
)

// uids matches the uids in a message (a Job's template labels).
var uids = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// named gives the cluster-scoped objects of case i their own names.
func named(c immutableCase, i int) immutableCase {
	r := strings.NewReplacer("SCNAME", fmt.Sprintf("immutable-sc-%d", i), "RBNAME", fmt.Sprintf("immutable-crb-%d", i))
	c.create, c.update = r.Replace(c.create), r.Replace(c.update)
	return c
}

// TestRealClusterImmutableFields replays immutableCases on a real
// kube-apiserver and on a simulated cluster, each case in a namespace of
// its own, and compares the answers (status code, reason, message, causes).
func TestRealClusterImmutableFields(t *testing.T) {
	tc := testcluster.Get(t)
	for i, c := range immutableCases {
		c = named(c, i)
		f := immutableFixture(t)
		ns := tc.Namespace(t)
		sim, real := outcome(writeCase(t, f.c, "imm", c)), outcome(writeCase(t, tc.Client, ns, c))
		sim, real = uids.ReplaceAllString(sim, "UID"), uids.ReplaceAllString(real, "UID")
		if sim != real {
			t.Errorf("%s:\nsimulated: %s\nreal:      %s", c.name, sim, real)
		} else {
			t.Logf("%s: %s", c.name, real)
		}
	}
}
