package semantic_test

import (
	"testing"
	"time"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/lscli/lscli/internal/semantic"
)

func TestDeepEqualIsSemantics(t *testing.T) {
	inst := func(fs string, cfg []byte) *lsv1alpha1.Installation {
		return &lsv1alpha1.Installation{ObjectMeta: metav1.ObjectMeta{Name: "a",
			CreationTimestamp: metav1.NewTime(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))},
			Spec: lsv1alpha1.InstallationSpec{Blueprint: lsv1alpha1.BlueprintDefinition{
				Inline: &lsv1alpha1.InlineBlueprint{Filesystem: lsv1alpha1.NewAnyJSON([]byte(fs))}}},
			Status: lsv1alpha1.InstallationStatus{JobID: string(cfg)}}
	}
	q1, q2 := resource.MustParse("1"), resource.MustParse("1000m")
	pairs := [][2]any{
		{inst(`{"a":1}`, nil), inst(`{"a":1}`, nil)},
		{inst(`{"a":1}`, nil), inst(`{"a":2}`, nil)},
		{inst(`{"a":1}`, nil), inst(`{"a":1} `, nil)},
		{&runtime.RawExtension{Raw: nil}, &runtime.RawExtension{Raw: []byte{}}},
		{&runtime.RawExtension{Raw: []byte("x")}, &runtime.RawExtension{Raw: []byte("y")}},
		{&corev1.Secret{Data: map[string][]byte{"k": nil}}, &corev1.Secret{Data: map[string][]byte{"k": {}}}},
		{&corev1.Secret{Data: map[string][]byte{"k": []byte("v")}}, &corev1.Secret{Data: map[string][]byte{"k": []byte("w")}}},
		{q1, q2},
		{metav1.NewTime(time.Unix(5, 0)), metav1.NewTime(time.Unix(5, 0).In(time.FixedZone("x", 3600)))},
		{[]byte(nil), []byte{}},
		{nil, []byte{}},
	}
	for i, p := range pairs {
		if got, want := semantic.DeepEqual(p[0], p[1]), equality.Semantic.DeepEqual(p[0], p[1]); got != want {
			t.Errorf("pair %d: DeepEqual %v, equality.Semantic %v", i, got, want)
		}
	}
}
