package webhook

import (
	"errors"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func deployItem(typ string, labels map[string]string) *lsv1alpha1.DeployItem {
	return &lsv1alpha1.DeployItem{
		ObjectMeta: metav1.ObjectMeta{Name: "di", Namespace: "ns", Labels: labels},
		Spec:       lsv1alpha1.DeployItemSpec{Type: lsv1alpha1.DeployItemType(typ)},
	}
}

func TestDeployItemUpdate(t *testing.T) {
	skip := map[string]string{SkipValidationLabel: "true"}
	tests := []struct {
		name       string
		old, upd   *lsv1alpha1.DeployItem
		wantDenied bool
	}{
		{"same type", deployItem("a", nil), deployItem("a", nil), false},
		{"type changed", deployItem("a", nil), deployItem("b", nil), true},
		{"skipped before and after", deployItem("a", skip), deployItem("b", skip), false},
		{"skipped only after", deployItem("a", nil), deployItem("b", skip), true},
		{"skipped only before", deployItem("a", skip), deployItem("b", nil), true},
		{"label not true", deployItem("a", map[string]string{SkipValidationLabel: "yes"}),
			deployItem("b", map[string]string{SkipValidationLabel: "yes"}), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := DeployItemUpdate(tt.old, tt.upd)
			if (err != nil) != tt.wantDenied {
				t.Fatalf("DeployItemUpdate() = %v, want denied %v", err, tt.wantDenied)
			}
			if err == nil {
				return
			}
			want := `admission webhook "deployitems.validation.landscaper.gardener.cloud" denied the request: .spec.type: Forbidden: type is immutable`
			if err.Error() != want {
				t.Errorf("message = %q, want %q", err.Error(), want)
			}
			var status apierrors.APIStatus
			if !errors.As(err, &status) || status.Status().Code != 403 {
				t.Errorf("error %#v is not a status error of code 403", err)
			}
		})
	}
}
