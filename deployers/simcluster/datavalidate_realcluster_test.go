package simcluster

import (
	"testing"

	"github.com/lscli/lscli/internal/testcluster"
)

// TestRealClusterDataValidation writes dataCases to a real kube-apiserver
// and to a simulated cluster, and compares the answers (status code,
// reason, message, causes) with each other and with the case's.
func TestRealClusterDataValidation(t *testing.T) {
	compareDataCases(t, dataCases)
}

// compareDataCases writes cases to a real kube-apiserver and to a
// simulated cluster, and compares the answers with each other and with
// the case's.
func compareDataCases(t *testing.T, cases []dataCase) {
	t.Helper()
	tc := testcluster.Get(t)
	f := newFixture(t)
	f.create("apiVersion: v1\nkind: Namespace\nmetadata: {name: data}\n")
	for _, c := range cases {
		ns := tc.Namespace(t)
		sim, real := outcome(writeDataCase(t, f.c, "data", c)), outcome(writeDataCase(t, tc.Client, ns, c))
		if sim != real || real != c.want {
			t.Errorf("%s:\nsimulated: %s\nreal:      %s\ncase:      %s", c.name, sim, real, c.want)
		} else {
			t.Logf("%s: %s", c.name, real)
		}
	}
}
