package deployers

import (
	"errors"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/lscli/lscli/reconcile"
)

func TestCheckContainerConfig(t *testing.T) {
	tests := []struct {
		name, config            string
		wantReason, wantMessage string
	}{
		{name: "missing", wantReason: "ProviderConfigurationMissing", wantMessage: "provider configuration missing"},
		{name: "without image, kind and apiVersion", config: `{"command":["true"]}`},
		{name: "unknown field", config: `{"image":"alpine","imagePullPolicy":"Always"}`},
		{name: "pull secret without name and namespace", config: `{"registryPullSecrets":[{}]}`,
			wantReason: "ValidateProviderConfiguration",
			wantMessage: "[registryPullSecrets[0].name: Required value: name must not be empty, " +
				"registryPullSecrets[0].namespace: Required value: namespace must not be empty]"},
		{name: "cron and every", config: `{"continuousReconcile":{"cron":"* * * * *","every":"1h"}}`,
			wantReason: "ValidateProviderConfiguration", wantMessage: `continuousReconcile: Invalid value: {"cron":"* * * * *","every":"1h0m0s"}: exactly one of [Cron, Every] must be set (currently set: [Cron, Every])`},
		{name: "every not positive", config: `{"continuousReconcile":{"every":"-1h"}}`,
			wantReason: "ValidateProviderConfiguration", wantMessage: `continuousReconcile.every: Invalid value: "-1h0m0s": specified duration has to be greater than zero`},
		{name: "args not a list", config: `{"args":"a"}`, wantReason: "DecodeProviderConfiguration",
			wantMessage: "unable to decode to internal type: json: cannot unmarshal string into Go struct field ProviderConfiguration.args of type []string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			item := &lsv1alpha1.DeployItem{}
			item.Spec.Type = ContainerType
			if tt.config != "" {
				item.Spec.Configuration = &runtime.RawExtension{Raw: []byte(tt.config)}
			}
			err := CheckContainerConfig(item)
			if tt.wantReason == "" {
				if err != nil {
					t.Fatalf("CheckContainerConfig() = %v, want nil", err)
				}
				return
			}
			var lerr *reconcile.Error
			if !errors.As(err, &lerr) {
				t.Fatalf("CheckContainerConfig() = %v, want a *reconcile.Error", err)
			}
			if lerr.Reason != tt.wantReason || lerr.Message != tt.wantMessage || !reconcile.IsUnrecoverable(err) {
				t.Errorf("CheckContainerConfig() = reason %q, message %q, unrecoverable %v; want %q, %q, true",
					lerr.Reason, lerr.Message, reconcile.IsUnrecoverable(err), tt.wantReason, tt.wantMessage)
			}
		})
	}
}
