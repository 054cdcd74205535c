package action

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestNamesObject: what a workload's pods wait for names an ignored
// manifest by the Priority plugin's words or by a lookup's.
func TestNamesObject(t *testing.T) {
	pc := metav1.PartialObjectMetadata{TypeMeta: metav1.TypeMeta{Kind: "PriorityClass"}, ObjectMeta: metav1.ObjectMeta{Name: "workflow-controller"}}
	secret := metav1.PartialObjectMetadata{TypeMeta: metav1.TypeMeta{Kind: "Secret"}, ObjectMeta: metav1.ObjectMeta{Name: "tls"}}
	for _, c := range []struct {
		missing string
		o       metav1.PartialObjectMetadata
		want    bool
	}{
		{"no PriorityClass with name workflow-controller was found", pc, true},
		{"no PriorityClass with name other was found", pc, false},
		{`secret "tls" not found`, secret, true},
		{`secret "tls-2" not found`, secret, false},
		{`configmap "tls" not found`, secret, false},
	} {
		if got := namesObject(c.missing, c.o); got != c.want {
			t.Errorf("namesObject(%q, %s %s) = %v, want %v", c.missing, c.o.Kind, c.o.Name, got, c.want)
		}
	}
}
