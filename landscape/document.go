package landscape

import (
	"encoding/json"
	"fmt"
	"io/fs"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/internal/limits"
)

// objectKey identifies an object in a landscape.
type objectKey struct {
	kind, namespace, name string
}

// location is where a document is.
type location struct {
	file  string
	index int
}

func (l location) String() string {
	return fmt.Sprintf("%s: document %d", l.file, l.index)
}

// docResult is what reading one document gave: an object, problems, or both.
type docResult struct {
	at location
	// object names the object in problems.
	object string
	// obj is nil when the document could not be decoded.
	obj  fakecluster.Object
	msgs []string
}

// readFile reads the documents of f. A problem with the file itself is a
// result with document number 0.
func (ld *load) readFile(f file) []docResult {
	if f.problem != "" {
		return []docResult{{at: location{file: f.display}, msgs: []string{f.problem}}}
	}
	data := f.data
	if data == nil && isComponentFile(f.fsys, f.name) {
		return nil // part of a component-cli folder, as the descriptor is
	}
	if data == nil {
		var err error
		if data, err = fs.ReadFile(f.fsys, f.name); err != nil {
			return []docResult{{at: location{file: f.display}, msgs: []string{describeFSError(err)}}}
		}
	}
	if err := limits.CheckYAML(data, ld.maxNodes); err != nil {
		return []docResult{{at: location{file: f.display}, msgs: []string{err.Error()}}}
	}
	var results []docResult
	index := 0
	for _, c := range splitDocuments(data) {
		js, err := yamlToJSON(c)
		if err == nil && (string(js) == "null" || isComponentDocument(js)) {
			continue // empty, only comments, or part of a component source
		}
		index++
		at := location{file: f.display, index: index}
		if err != nil {
			results = append(results, docResult{at: at, msgs: []string{err.Error()}})
			continue
		}
		results = append(results, ld.readDocument(at, js))
	}
	return results
}

// readDocument decodes, defaults and validates the document js.
func (ld *load) readDocument(at location, js []byte) docResult {
	h, err := readHeader(js)
	if err != nil {
		return docResult{at: at, object: h.Kind, msgs: []string{err.Error()}}
	}
	r := docResult{at: at, object: objectName(h.Kind, h.Metadata.Name)}
	kind, msg := lookupKind(h.APIVersion, h.Kind)
	if msg != "" {
		if h.APIVersion == "" && h.Kind == "" {
			msg += valuesFileHint(js)
		}
		r.msgs = []string{msg}
		return r
	}
	obj, msgs := ld.decode(js, kind)
	r.msgs = append(msgs, checkName(h)...)
	if obj == nil || h.Metadata.Name == "" {
		return r
	}
	if obj.GetNamespace() == "" {
		obj.SetNamespace(ld.namespace)
	}
	ld.applyDefaults(obj)
	r.obj = obj
	r.msgs = append(r.msgs, validateObject(kind, obj)...)
	return r
}

// add adds the result of reading a document to the landscape: its object,
// or its problems. A duplicate object is a problem.
func (ld *load) add(r docResult) {
	if r.obj != nil {
		if msg := ld.define(r.at, r.obj); msg != "" {
			r.msgs = append(r.msgs, msg)
		}
	}
	for _, msg := range r.msgs {
		ld.problems = append(ld.problems, Problem{File: r.at.file, Document: r.at.index, Object: r.object, Message: msg})
	}
	if len(r.msgs) == 0 {
		ld.objects = append(ld.objects, Document{Object: r.obj, File: r.at.file, Index: r.at.index})
	}
}

// decode makes an object of the kind and decodes js into it strictly. It
// returns a nil object when js cannot be decoded, and the problems found.
func (ld *load) decode(js []byte, kind kindInfo) (fakecluster.Object, []string) {
	ro, err := ld.scheme.New(kind.gvk)
	if err != nil {
		return nil, []string{fmt.Sprintf("kind %s is not registered in the loader's scheme", kind.gvk)}
	}
	obj, ok := ro.(fakecluster.Object)
	if !ok {
		return nil, []string{fmt.Sprintf("kind %s has no object metadata in the loader's scheme", kind.gvk)}
	}
	var msgs []string
	if kind.gvk.Kind == "Execution" {
		var fatal bool
		if js, msgs, fatal = checkExecutionSpec(js); fatal {
			return nil, msgs
		}
	}
	more, fatal := decodeStrict(js, obj, "")
	if fatal {
		return nil, more
	}
	obj.GetObjectKind().SetGroupVersionKind(kind.gvk)
	return obj, append(msgs, more...)
}

// checkName tells what is wrong with the name of a document.
func checkName(h header) []string {
	switch {
	case h.Metadata.Name != "":
		return nil
	case h.Metadata.GenerateName != "":
		return []string{fmt.Sprintf("metadata.generateName %q is not allowed in a landscape file "+
			"(every apply would create another object): set metadata.name", h.Metadata.GenerateName)}
	}
	return []string{"metadata.name is missing"}
}

// define records where obj is defined. When it was defined before, it says
// where.
func (ld *load) define(at location, obj fakecluster.Object) string {
	kind := obj.GetObjectKind().GroupVersionKind().Kind
	key := objectKey{kind: kind, namespace: obj.GetNamespace(), name: obj.GetName()}
	if first, ok := ld.defined[key]; ok {
		return fmt.Sprintf("defined twice in namespace %q: first in %s "+
			"(a landscape holds each object once: rename one, or name the files to apply, as with kubectl apply -f)", key.namespace, first)
	}
	ld.defined[key] = at
	return ""
}

// valuesFileHint says what a document without apiVersion and kind whose
// top level has imports: is: the values file of landscaper-cli's
// `blueprints render`, which projects keep beside their blueprints. It is ""
// for any other document.
func valuesFileHint(js []byte) string {
	var top map[string]json.RawMessage
	if json.Unmarshal(js, &top) != nil {
		return ""
	}
	if _, ok := top["imports"]; !ok {
		return ""
	}
	return "; with its top-level imports: it looks like a values file of landscaper-cli's 'blueprints render': " +
		"lscli takes an installation's imports from its spec.imports (DataObjects, Targets, ConfigMaps, Secrets), " +
		"so leave the file out of the folders it reads, or name the files to apply"
}
