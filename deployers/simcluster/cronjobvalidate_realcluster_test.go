package simcluster

import "testing"

// TestRealClusterCronJobValidation writes cronJobCases to a real
// kube-apiserver and to a simulated cluster, and compares the answers with
// each other and with the case's.
func TestRealClusterCronJobValidation(t *testing.T) {
	compareDataCases(t, cronJobCases)
}
