package fakecluster

import (
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestSpecEqualAndCopySpec(t *testing.T) {
	tests := []struct {
		name      string
		a, b      Object
		wantEqual bool
	}{
		{name: "metadata and status do not count",
			a: &lsv1alpha1.Installation{ObjectMeta: metav1.ObjectMeta{Name: "a"}, Status: lsv1alpha1.InstallationStatus{JobID: "1"}},
			b: &lsv1alpha1.Installation{ObjectMeta: metav1.ObjectMeta{Name: "b"}}, wantEqual: true},
		{name: "spec counts",
			a: &lsv1alpha1.Installation{Spec: lsv1alpha1.InstallationSpec{Context: "a"}},
			b: &lsv1alpha1.Installation{}},
		{name: "secret data counts",
			a: &corev1.Secret{Data: map[string][]byte{"k": []byte("v")}}, b: &corev1.Secret{}},
		{name: "different types", a: &lsv1alpha1.Installation{}, b: &lsv1alpha1.Execution{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := SpecEqual(tt.a, tt.b); got != tt.wantEqual {
				t.Errorf("SpecEqual() = %v, want %v", got, tt.wantEqual)
			}
			if tt.wantEqual || tt.a.GetObjectKind() == nil {
				return
			}
			if dst := tt.b.DeepCopyObject().(Object); SpecEqual(dst, tt.a) == false && sameType(dst, tt.a) {
				CopySpec(dst, tt.a)
				if !SpecEqual(dst, tt.a) || dst.GetName() != tt.b.GetName() {
					t.Errorf("after CopySpec, SpecEqual() = false or metadata changed")
				}
			}
		})
	}
}

func sameType(a, b Object) bool { return infoOf(a) == infoOf(b) }
