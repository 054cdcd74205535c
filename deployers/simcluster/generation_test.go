package simcluster

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/randfill"

	"github.com/lscli/lscli/fakecluster"
)

// TestCoreGenerationAgreesWithLandscapeServer: lscli's own API server
// (fakecluster, which holds Secrets, ConfigMaps and what a Target with
// selfConfig applies) and the simulated clusters give the same core/v1
// kinds a metadata.generation.
func TestCoreGenerationAgreesWithLandscapeServer(t *testing.T) {
	for gvk := range builtin().AllKnownTypes() {
		if gvk.Group != "" || gvk.Version != "v1" || isListKind(gvk) {
			continue
		}
		_, sim := generationRuleFor(gvk, nil)
		if own := fakecluster.HasGeneration(schema.GroupKind{Kind: gvk.Kind}); own != sim {
			t.Errorf("%s: generation in lscli's API server %v, in a simulated cluster %v", gvk.Kind, own, sim)
		}
	}
}

// TestGenerationChangeFastPath checks that changed, which takes deeply
// equal versioned fields of typed objects as unchanged without encoding
// them, answers as the comparison of the encoded fields alone does: for
// every built-in kind with a generation rule, random objects and copies
// with random metadata, status, versioned fields or everything changed.
func TestGenerationChangeFastPath(t *testing.T) {
	encoded := func(r generationRule, a, b runtime.Object) bool {
		if r.frozen {
			return false
		}
		ja, errA := json.Marshal(r.versioned(a))
		jb, errB := json.Marshal(r.versioned(b))
		return errA != nil || errB != nil || !bytes.Equal(ja, jb)
	}
	f := randfill.NewWithSeed(1).NilChance(0.3).NumElements(0, 2).MaxDepth(6)
	tried, changed := 0, 0
	for gvk := range builtin().AllKnownTypes() {
		r, ok := generationKinds[gvk.GroupKind()]
		if !ok || isListKind(gvk) || gvk.Version == runtime.APIVersionInternal {
			continue
		}
		for i := range 20 {
			ro, err := builtin().New(gvk)
			if err != nil {
				t.Fatal(err)
			}
			f.Fill(ro)
			a := ro
			b := a.DeepCopyObject()
			v := reflect.ValueOf(b).Elem()
			switch i % 5 {
			case 1:
				f.Fill(v.FieldByName("ObjectMeta").Addr().Interface())
			case 2:
				if s := v.FieldByName("Status"); s.IsValid() {
					f.Fill(s.Addr().Interface())
				}
			case 3:
				for j := range v.NumField() {
					if fl := v.Type().Field(j); fl.Name != "TypeMeta" && fl.Name != "ObjectMeta" && fl.Name != "Status" && j%2 == i%2 {
						f.Fill(v.Field(j).Addr().Interface())
					}
				}
			case 4:
				f.Fill(b)
			}
			validFields(a)
			validFields(b)
			want := encoded(r, a, b)
			if got := r.changed(a, b); got != want {
				t.Errorf("%s, case %d: changed = %v, by the encoded fields %v", gvk, i%5, got, want)
			}
			if got := r.changed(b, a); got != encoded(r, b, a) {
				t.Errorf("%s, case %d, reversed: changed = %v, by the encoded fields %v", gvk, i%5, got, !got)
			}
			tried++
			if want {
				changed++
			}
		}
	}
	if tried < 100 || changed == 0 || changed == tried {
		t.Errorf("%d pairs tried, %d changed: the test covers too little", tried, changed)
	}
}

// validFields gives the managed fields of obj valid JSON, as every stored
// object has: random bytes fail the conversion the encoded comparison
// makes, a case no write meets.
func validFields(obj runtime.Object) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return
	}
	mf := m.GetManagedFields()
	for i := range mf {
		if mf[i].FieldsV1 != nil {
			mf[i].FieldsV1.Raw = []byte(`{"f:metadata":{}}`)
		}
	}
}
