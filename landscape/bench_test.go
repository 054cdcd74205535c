package landscape

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
)

// BenchmarkLoad loads 1,000 Installations with inline blueprints, each with a
// Target and a DataObject, from 100 files.
func BenchmarkLoad(b *testing.B) {
	fsys := fstest.MapFS{}
	for f := range 100 {
		var docs []string
		for i := range 10 {
			n := fmt.Sprintf("i%d-%d", f, i)
			docs = append(docs, installation(n, "  imports:\n    data: [{name: a, dataRef: do-"+n+"}]\n"+
				"    targets: [{name: c, target: t-"+n+"}]\n"),
				obj(lsGV, "Target", "t-"+n)+"spec: {type: x, config: {kubeconfig: abc}}\n",
				obj(lsGV, "DataObject", "do-"+n)+"data: {a: [1, 2, 3]}\n")
		}
		fsys[fmt.Sprintf("l/%03d.yaml", f)] = &fstest.MapFile{Data: []byte(strings.Join(docs, "---\n"))}
	}
	l := &Loader{FS: fsys}
	for b.Loop() {
		if _, err := l.Load("l"); err != nil {
			b.Fatal(err)
		}
	}
}
