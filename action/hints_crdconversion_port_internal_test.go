package action

import (
	"strings"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
)

// TestConversionHintPort: a conversion webhook whose port the Service does
// not have (Prometheus Operator's patch.json names 8443, its Service has
// 443) is a mistake of the CRD, which no waiting mends: the hint says which
// field to match with which and does not send the user to dependsOn.
func TestConversionHintPort(t *testing.T) {
	di := failedItem(lsv1alpha1.DeployItemPhases.Failed, `timeout at: "manifest deployer: start reconcile"`)
	di.Status.LastErrors = []*lsv1alpha1.Error{{Message: `unable to create resource monitoring/main: conversion webhook for ` +
		`monitoring.coreos.com/v1beta1, Kind=AlertmanagerConfig failed: Post "https://prometheus-operator-admission-webhook.default.svc:8443/convert?timeout=30s": ` +
		`no service port 8443 found for service "prometheus-operator-admission-webhook"`}, di.Status.LastError}
	got := conversionHint(di)
	for _, w := range []string{"the Service does not have the webhook's port",
		"spec.conversion.webhook.clientConfig.service.port must be one of the Service's spec.ports[].port (not a targetPort)"} {
		if !strings.Contains(got, w) {
			t.Errorf("hint = %q, want it to contain %q", got, w)
		}
	}
	if strings.Contains(got, "dependsOn") {
		t.Errorf("hint = %q, want no advice to wait", got)
	}
}
