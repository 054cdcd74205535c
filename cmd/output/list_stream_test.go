package output

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lscli/lscli/fakecluster"
)

// TestJSONListStreams: the streaming, parallel JSON writer gives the bytes of
// encoding/json's indenting encoder over the whole list, for empty lists,
// one item and lists longer than a chunk.
func TestJSONListStreams(t *testing.T) {
	for _, n := range []int{0, 1, jsonChunk + 3} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			var objs []fakecluster.Object
			for i := range n {
				objs = append(objs, &lsv1alpha1.DataObject{
					ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("d%04d", i), Namespace: "ns", Labels: map[string]string{"a": "<b>&"}},
					Data:       lsv1alpha1.NewAnyJSON([]byte(`{"x":[1,2,{"y":"<z>"}]}`)),
				})
			}
			var got bytes.Buffer
			if err := List(objs, FormatJSON, &got); err != nil {
				t.Fatal(err)
			}
			list := kubeList{APIVersion: "v1", Kind: "List", Items: make([]json.RawMessage, 0, n)}
			for _, o := range sortObjects(objs) {
				item, err := marshalItem(o)
				if err != nil {
					t.Fatal(err)
				}
				list.Items = append(list.Items, item)
			}
			var want bytes.Buffer
			if err := writeList(list, FormatJSON, &want); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("streamed list differs from the encoder's:\n%s\n---\n%s", got.String()[:min(400, got.Len())], want.String()[:min(400, want.Len())])
			}
		})
	}
}
