package fakecluster

import (
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestSpecEqual(t *testing.T) {
	tests := []struct {
		name string
		a, b Object
		want bool
	}{
		{name: "metadata and status do not count",
			a: &lsv1alpha1.Installation{ObjectMeta: metav1.ObjectMeta{Name: "a"}, Status: lsv1alpha1.InstallationStatus{JobID: "1"}},
			b: &lsv1alpha1.Installation{ObjectMeta: metav1.ObjectMeta{Name: "b"}}, want: true},
		{name: "spec counts", a: &lsv1alpha1.Installation{Spec: lsv1alpha1.InstallationSpec{Context: "a"}},
			b: &lsv1alpha1.Installation{}},
		{name: "secret data counts", a: &corev1.Secret{Data: map[string][]byte{"k": []byte("v")}}, b: &corev1.Secret{}},
		{name: "different types", a: &lsv1alpha1.Installation{}, b: &lsv1alpha1.Execution{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := SpecEqual(tt.a, tt.b); got != tt.want {
				t.Errorf("SpecEqual() = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestCopySpec(t *testing.T) {
	src := &lsv1alpha1.DeployItem{ObjectMeta: metav1.ObjectMeta{Name: "src"},
		Spec:   lsv1alpha1.DeployItemSpec{Type: "mock", Target: &lsv1alpha1.ObjectReference{Name: "t"}},
		Status: lsv1alpha1.DeployItemStatus{JobID: "src"}}
	dst := &lsv1alpha1.DeployItem{ObjectMeta: metav1.ObjectMeta{Name: "dst"}, Status: lsv1alpha1.DeployItemStatus{JobID: "dst"}}
	CopySpec(dst, src)
	src.Spec.Target.Name = "changed"
	if dst.Spec.Type != "mock" || dst.Spec.Target.Name != "t" || dst.Name != "dst" || dst.Status.JobID != "dst" {
		t.Errorf("after CopySpec dst = %s spec %+v target %v status %q; want src's spec, deep-copied, and its own metadata and status",
			dst.Name, dst.Spec, dst.Spec.Target, dst.Status.JobID)
	}
}
