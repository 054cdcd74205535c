package output

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	kruntime "k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lscli/lscli/fakecluster"
)

// TestJSONListStreams: the streaming, parallel JSON writer gives the bytes of
// encoding/json's indenting encoder over the whole list, for empty lists,
// one item and lists longer than a chunk.
func TestJSONListStreams(t *testing.T) {
	for _, n := range []int{0, 1, listRound + 3} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			var objs []fakecluster.Object
			for i := range n {
				objs = append(objs, &lsv1alpha1.DataObject{
					ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("d%04d", i), Namespace: "ns", Labels: map[string]string{"a": "<b>&"}},
					Data:       lsv1alpha1.NewAnyJSON([]byte([]string{`{"x":[1,2,{"y":"<z>"}]}`, `{"e":[],"o":{},"s":"a\"\\\u2028é","n":1.5e3,"z":null,"t":[[],[{}]]}`}[i%2])),
				})
			}
			var got bytes.Buffer
			if err := List(objs, FormatJSON, &got); err != nil {
				t.Fatal(err)
			}
			want := wholeList(t, objs, FormatJSON)
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("streamed list differs from the encoder's:\n%s\n---\n%s", got.String()[:min(400, got.Len())], want.String()[:min(400, want.Len())])
			}
		})
	}
}

// wholeList is the List of objs in format as encoding/json and
// sigs.k8s.io/yaml write it whole, the reference for lscli's writers.
func wholeList(t *testing.T, objs []fakecluster.Object, format string) *bytes.Buffer {
	t.Helper()
	list := kubeList{APIVersion: "v1", Kind: "List", Items: []json.RawMessage{}}
	for _, o := range sortObjects(objs) {
		item, err := marshalItem(o)
		if err != nil {
			t.Fatal(err)
		}
		list.Items = append(list.Items, item)
	}
	data, err := marshalJSON(list, "    ")
	if err != nil {
		t.Fatal(err)
	}
	if format == FormatYAML {
		// sigs.k8s.io/yaml itself, the reference for lscli's conversion.
		if data, err = yaml.JSONToYAML(data); err != nil {
			t.Fatal(err)
		}
	}
	return bytes.NewBuffer(data)
}

// TestMarshalCompactIsEncodingJSON: the fast encoder gives encoding/json's
// bytes (without HTML escaping) on the shapes lscli prints.
func TestMarshalCompactIsEncodingJSON(t *testing.T) {
	now := metav1.NewTime(time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC))
	timeout := lsv1alpha1.Duration{Duration: 90 * time.Second}
	values := []any{
		&lsv1alpha1.Installation{ObjectMeta: metav1.ObjectMeta{Name: "i", Namespace: "n", CreationTimestamp: now,
			Labels: map[string]string{"z": "1", "a": "<&>"}, Finalizers: []string{"f"}},
			Spec: lsv1alpha1.InstallationSpec{Context: "default",
				Blueprint: lsv1alpha1.BlueprintDefinition{Inline: &lsv1alpha1.InlineBlueprint{
					Filesystem: lsv1alpha1.NewAnyJSON([]byte(`{"blueprint.yaml":"x: \u2028 <y>\n","n":1.5e300}`))}},
				Imports: lsv1alpha1.InstallationImports{Data: []lsv1alpha1.DataImport{{Name: "a", DataRef: "b"}}, Targets: []lsv1alpha1.TargetImport{}}},
			Status: lsv1alpha1.InstallationStatus{InstallationPhase: "Failed", JobID: "j", PhaseTransitionTime: &now,
				LastError: &lsv1alpha1.Error{Message: "bad \"quote\" \t tab é", Codes: []lsv1alpha1.ErrorCode{"ERR_TIMEOUT"},
					LastTransitionTime: now, LastUpdateTime: now}}},
		&lsv1alpha1.DeployItem{ObjectMeta: metav1.ObjectMeta{Name: "d"},
			Spec: lsv1alpha1.DeployItemSpec{Type: "t", Timeout: &timeout,
				Configuration: &kruntime.RawExtension{Raw: []byte(`{"b":[1,2.50,-0,1e6],"a":null}`)}},
			Status: lsv1alpha1.DeployItemStatus{ProviderStatus: &kruntime.RawExtension{Raw: []byte(`{}`)}}},
		&lsv1alpha1.DataObject{ObjectMeta: metav1.ObjectMeta{Name: "o"}, Data: lsv1alpha1.NewAnyJSON([]byte(`"just a string"`))},
		&lsv1alpha1.Target{ObjectMeta: metav1.ObjectMeta{Name: "t"}},
		map[string]any{"f": 0.1, "big": 123456789012345678.0, "s": []any{}, "m": map[string]any{}, "n": nil},
	}
	for _, v := range values {
		want, err := marshalJSON(v, "")
		if err != nil {
			t.Fatal(err)
		}
		got, err := marshalCompact(v)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%T:\n got %s\nwant %s", v, got, want)
		}
	}
}
