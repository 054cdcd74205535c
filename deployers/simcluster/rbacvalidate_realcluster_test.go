package simcluster

import (
	"testing"

	"github.com/lscli/lscli/internal/testcluster"
)

// TestRealClusterBindingValidation writes bindingCases to a real
// kube-apiserver and to a simulated cluster, and compares the answers with
// each other and with the case's.
func TestRealClusterBindingValidation(t *testing.T) {
	tc := testcluster.Get(t)
	f := newFixture(t)
	f.create("apiVersion: v1\nkind: Namespace\nmetadata: {name: data}\n")
	for _, c := range bindingCases {
		ns := tc.Namespace(t)
		sim, real := outcome(writeDataCase(t, f.c, "data", c)), outcome(writeDataCase(t, tc.Client, ns, c))
		if sim != real || real != c.want {
			t.Errorf("%s:\nsimulated: %s\nreal:      %s\ncase:      %s", c.name, sim, real, c.want)
		} else {
			t.Logf("%s: %s", c.name, real)
		}
	}
}

// TestRealClusterRoleValidation writes roleCases to a real kube-apiserver
// and to a simulated cluster, and compares the answers with each other and
// with the case's.
func TestRealClusterRoleValidation(t *testing.T) {
	tc := testcluster.Get(t)
	f := newFixture(t)
	f.create("apiVersion: v1\nkind: Namespace\nmetadata: {name: data}\n")
	for _, c := range roleCases {
		ns := tc.Namespace(t)
		sim, real := outcome(writeDataCase(t, f.c, "data", c)), outcome(writeDataCase(t, tc.Client, ns, c))
		if sim != real || real != c.want {
			t.Errorf("%s:\nsimulated: %s\nreal:      %s\ncase:      %s", c.name, sim, real, c.want)
		} else {
			t.Logf("%s: %s", c.name, real)
		}
	}
}
