package fakecluster

import (
	"reflect"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestCopyObject: the copies that share raw JSON are equal to the original,
// and changing a copy (anything but the bytes of that JSON) leaves the
// original as it was.
func TestCopyObject(t *testing.T) {
	raw := lsv1alpha1.NewAnyJSON([]byte(`{"blueprint.yaml":"kind: Blueprint"}`))
	objs := []Object{
		&lsv1alpha1.Installation{
			ObjectMeta: metav1.ObjectMeta{Name: "i", Labels: map[string]string{"a": "b"}},
			Spec: lsv1alpha1.InstallationSpec{Context: "default",
				Blueprint: lsv1alpha1.BlueprintDefinition{Inline: &lsv1alpha1.InlineBlueprint{Filesystem: raw}},
				Imports:   lsv1alpha1.InstallationImports{Data: []lsv1alpha1.DataImport{{Name: "x", DataRef: "y"}}}},
			Status: lsv1alpha1.InstallationStatus{JobID: "j", LastError: &lsv1alpha1.Error{Message: "m"}},
		},
		&lsv1alpha1.DataObject{ObjectMeta: metav1.ObjectMeta{Name: "d", Annotations: map[string]string{"k": "v"}}, Data: raw},
		&lsv1alpha1.Target{ObjectMeta: metav1.ObjectMeta{Name: "t"},
			Spec: lsv1alpha1.TargetSpec{Type: "x", Configuration: &raw, SecretRef: &lsv1alpha1.LocalSecretReference{Name: "s"}}},
	}
	for _, obj := range objs {
		want := obj.DeepCopyObject()
		cp := copyObject(obj)
		if !reflect.DeepEqual(cp, want) {
			t.Errorf("%T: copy %+v differs from %+v", obj, cp, want)
		}
		cp.SetName("changed")
		if l := cp.GetLabels(); l != nil {
			l["a"] = "changed"
		}
		switch c := cp.(type) {
		case *lsv1alpha1.Installation:
			c.Spec.Imports.Data[0].DataRef = "changed"
			c.Status.LastError.Message = "changed"
		case *lsv1alpha1.Target:
			c.Spec.SecretRef.Name = "changed"
		}
		if !reflect.DeepEqual(obj, want) {
			t.Errorf("%T: changing the copy changed the original: %+v", obj, obj)
		}
	}
}
