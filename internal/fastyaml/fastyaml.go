// Package fastyaml converts the common subset of Kubernetes-style YAML to
// exactly the JSON that sigs.k8s.io/yaml's YAMLToJSONStrict gives, without
// yaml.v2's scanner, parser, generic values and encoding/json's reflection.
//
// The subset: block mappings and sequences indented with spaces, plain
// scalars on one line, single- and double-quoted scalars on one line (the
// common escapes), literal and folded block scalars without an indentation
// indicator, flow mappings and sequences on one line, comments and blank
// lines. Anything else (anchors, aliases, tags, complex or non-string keys,
// merge keys, duplicate keys, floats, multi-line plain or quoted scalars,
// tabs in indentation, document markers, characters YAML refuses) makes
// ToJSON decline, and the caller converts with YAMLToJSONStrict, which keeps
// its results and error messages for everything outside the subset.
package fastyaml

import (
	"bytes"
	"fmt"
	"sync"

	"sigs.k8s.io/yaml"
)

// Verify makes ToJSON convert every document it takes with YAMLToJSONStrict
// as well and panic when that fails or gives other bytes. Tests turn it on
// (internal/mutationtest); it doubles the cost of a conversion.
var Verify bool

// ToJSON converts doc to JSON. When ok, js is byte for byte what
// yaml.YAMLToJSONStrict(doc) returns, and that call succeeds; when doc holds
// anything outside the subset ToJSON knows, or anything it is not sure of,
// ok is false and the caller converts with YAMLToJSONStrict.
func ToJSON(doc []byte) (js []byte, ok bool) {
	js, ok = toJSON(doc)
	if Verify && ok {
		verify(doc, js)
	}
	return js, ok
}

// verify panics unless js is what YAMLToJSONStrict gives for doc.
func verify(doc, js []byte) {
	want, err := yaml.YAMLToJSONStrict(doc)
	if err != nil || !bytes.Equal(js, want) {
		panic(fmt.Sprintf("fastyaml: ToJSON differs from YAMLToJSONStrict\ndocument:\n%s\nToJSON: %s\nYAMLToJSONStrict: %s (error %v)", doc, js, want, err))
	}
}

// bail is the panic value that makes toJSON decline a document.
type bail struct{}

// toJSON parses doc into nodes and writes them as JSON.
func toJSON(doc []byte) (js []byte, ok bool) {
	if !checkText(doc) {
		return nil, false
	}
	p := parsers.Get().(*parser)
	p.src, p.pos, p.depth = doc, 0, 0
	if cap(p.arena) < len(doc) {
		p.arena = make([]byte, 0, len(doc))
	}
	defer func() {
		p.release()
		if r := recover(); r != nil {
			if _, is := r.(bail); !is {
				panic(r)
			}
			js, ok = nil, false
		}
	}()
	root := p.document()
	out := make([]byte, 0, len(doc)+len(doc)/8+16)
	return p.emit(out, root), true
}

// parsers keeps parsers with their buffers between documents.
var parsers = sync.Pool{New: func() any { return new(parser) }}

// release empties p, so that it holds on to no document, and puts it back
// into the pool.
func (p *parser) release() {
	clear(p.nodes)
	clear(p.kids)
	clear(p.stack)
	p.src, p.nodes, p.kids, p.stack, p.arena = nil, p.nodes[:0], p.kids[:0], p.stack[:0], p.arena[:0]
	parsers.Put(p)
}
