package simcluster

import "testing"

// TestRealClusterBindingValidation writes bindingCases to a real
// kube-apiserver and to a simulated cluster, and compares the answers with
// each other and with the case's.
func TestRealClusterBindingValidation(t *testing.T) {
	compareDataCases(t, bindingCases)
}

// TestRealClusterRoleValidation writes roleCases to a real kube-apiserver
// and to a simulated cluster, and compares the answers with each other and
// with the case's.
func TestRealClusterRoleValidation(t *testing.T) {
	compareDataCases(t, roleCases)
}
