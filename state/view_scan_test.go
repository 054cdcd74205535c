package state

import (
	"bytes"
	"os"
	"reflect"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/internal/fastjson"
)

// tokenHeader reads h the slow way only, token by token.
func tokenHeader(line []byte) (ObjectHeader, bool) {
	var r headerReader
	var h ObjectHeader
	r.rd.Reset(line)
	ok := r.readTokens(&h)
	return h, ok
}

func TestScanHeaderReadsWhatTokensRead(t *testing.T) {
	d := tempDir(t)
	snap := bigSnapshot(20)
	// Escapes, empty and null values, and strings holding delimiters in
	// the fields scanHeader skips.
	odd := installation(999)
	odd.Name = "odd"
	odd.Labels["quote"] = `a"b\c,}]`
	odd.Annotations["json"] = `{"ownerReferences":[{"uid":"not-an-owner"}]}`
	odd.Annotations["unicode"] = "é\u2028<>&"
	odd.DeletionGracePeriodSeconds = new(int64)
	snap.Objects = append(snap.Objects, odd)
	savedInStoreOrder(t, d, snap)
	data, err := os.ReadFile(d.file(stateFileName))
	if err != nil {
		t.Fatal(err)
	}
	l, ok := splitLayout(data)
	if !ok {
		t.Fatal("not in Save's layout")
	}
	scanned := 0
	for _, ln := range l.sections[2] {
		want, wantOK := tokenHeader(ln.text)
		var r headerReader
		var got ObjectHeader
		if !r.scanHeader(ln.text, &got) {
			continue
		}
		scanned++
		if !wantOK || !reflect.DeepEqual(got, want) {
			t.Errorf("line %d: scanned %+v, tokens read %+v (ok %v)", ln.no, got, want, wantOK)
		}
	}
	if scanned != len(l.sections[2]) {
		t.Errorf("scanned %d of %d lines as Save writes them", scanned, len(l.sections[2]))
	}
}

func TestScanHeaderLeavesOtherLinesToTokens(t *testing.T) {
	for _, line := range []string{
		`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"d","uid":"u","resourceVersion":"1"}}`,
		`{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a\u0062","namespace":"d","uid":"u","resourceVersion":"1"}}`,
		`{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a","namespace":"d","uid":"u","resourceVersion":"1"`,
		`{"kind":"ConfigMap", "apiVersion":"v1","metadata":{"name":"a","namespace":"d","uid":"u","resourceVersion":"1"}}`,
		`{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a","labels":{"x":"y"`,
		`{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a","ownerReferences":[{"uid":"o\"1"}]}}`,
		`{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a","labels":{"x":"y",}}}`,
		`{"kind":"ConfigMap","apiVersion":"v1","metadata":[]}`,
		`{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":` + string(bytes.Repeat([]byte("["), maxSkipDepth+2)) + `}}`,
	} {
		var r headerReader
		var h ObjectHeader
		if r.scanHeader([]byte(line), &h) {
			t.Errorf("scanned %s as %+v, want it left to the token reader", line, h)
		}
	}
}

func TestScanHeaderOwners(t *testing.T) {
	yes := true
	cm := objectMeta("a", 3, ownerRef("Installation", "root", 1))
	cm.OwnerReferences = append(cm.OwnerReferences, metav1.OwnerReference{APIVersion: "v1", Kind: "Secret", Name: "s", UID: "second", Controller: &yes})
	obj := configMap()
	obj.ObjectMeta = cm
	b, err := wireObject(testScheme(), fakecluster.Object(obj))
	if err != nil {
		t.Fatal(err)
	}
	data, err := fastjson.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	var r headerReader
	var h ObjectHeader
	if !r.scanHeader(data, &h) {
		t.Fatalf("not scanned: %s", data)
	}
	if want := []string{"00000000-0000-0000-0000-000000000001", "second"}; len(h.Owners) != 2 || string(h.Owners[0]) != want[0] || string(h.Owners[1]) != want[1] {
		t.Errorf("owners %v, want %v", h.Owners, want)
	}
}
