package template

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math/rand/v2"
	"strings"
	"sync"
	gotmpl "text/template"
	"time"

	"github.com/lscli/lscli/internal/fastjson"
	"github.com/lscli/lscli/internal/memo"
	"github.com/lscli/lscli/landscaper/blueprint"
	"github.com/lscli/lscli/landscaper/template/budget"
	"github.com/lscli/lscli/landscaper/template/funcs"
)

// inlineName is the name of an inline GoTemplate in text/template's errors.
const inlineName = "template"

// maxIncludeDepth bounds how often one file may be included within itself,
// as Landscaper's recursionMaxNums does: an include of a file that is
// already active more than maxIncludeDepth times fails, so 101 nested
// includes of one file render.
const maxIncludeDepth = 100

// goRun is one GoTemplate execution with its include bookkeeping, budget,
// time and random source.
type goRun struct {
	e *Executor
	// included counts the active includes of each file, by the name the
	// template gives, as Landscaper counts them.
	included map[string]int
	// b is what the execution may still spend.
	b *budget.Budget
	// now is the time the time functions see.
	now time.Time
	// clusters serve the cluster kubeconfig functions.
	clusters *funcs.Clusters
	// seed seeds rnd, which the random functions use; made on first use.
	seed   [32]byte
	chacha *rand.ChaCha8
	rnd    *rand.Rand
}

// parsed caches parsed templates by name and text: most blueprints are
// rendered many times, once per job and per installation that uses them. At
// most maxParsed entries are kept.
var parsed = memo.Bounded[parseKey, *cachedTemplate]{Max: 4096, Size: func(k parseKey) int { return len(k.text) }}

type parseKey struct{ name, text string }

// cachedTemplate is a parsed template whose run-bound functions (runFuncs)
// call the goRun in run, set for the duration of one execution. mu guards run;
// a nested execution of the same template (a file including itself) cannot
// take it and renders a clone instead.
type cachedTemplate struct {
	mu  sync.Mutex
	run *goRun
	t   *gotmpl.Template
}

// cached returns the cached template for name and text, parsing it first
// when it is not in the cache.
func cached(name, text string) (*cachedTemplate, error) {
	k := parseKey{name, text}
	if ct, ok := parsed.Get(k); ok {
		return ct, nil
	}
	ct := &cachedTemplate{}
	t, err := gotmpl.New(name).Option("missingkey=zero").Funcs(ct.funcs()).Parse(text)
	if err != nil {
		return nil, err
	}
	instrument(t)
	ct.t = t
	parsed.Put(k, ct)
	return ct, nil
}

// funcs are the functions of ct's template, which call the current run of
// ct (see allFuncs).
func (ct *cachedTemplate) funcs() gotmpl.FuncMap {
	return allFuncs(func() *goRun { return ct.run })
}

// execute renders ct with data for r.
func (ct *cachedTemplate) execute(r *goRun, out *bytes.Buffer, data any) error {
	if !ct.mu.TryLock() {
		t, err := ct.t.Clone()
		if err != nil {
			return err
		}
		return t.Funcs(allFuncs(func() *goRun { return r })).Execute(r.b.Writer(out), data)
	}
	defer ct.mu.Unlock()
	ct.run = r
	defer func() { ct.run = nil }()
	return ct.t.Execute(r.b.Writer(out), data)
}

// executeGo renders a GoTemplate execution.
func (e *Executor) executeGo(req Request) (*Result, error) {
	raw, file, err := e.source(req.Execution)
	if err != nil {
		return nil, err
	}
	text := string(raw)
	if file == "" {
		if err := fastjson.Unmarshal(raw, &text); err != nil {
			return nil, &SourceError{Err: fmt.Errorf("a GoTemplate template must be a string (template: |): %w", err), Landscaper: err.Error()}
		}
	}
	values := maps.Clone(req.Values)
	if values == nil {
		values = map[string]any{}
	}
	if req.Stateful {
		if values["state"], err = decodeState(req.State); err != nil {
			return nil, err
		}
	}
	r := &goRun{e: e, included: map[string]int{}, b: budget.New(req.Limits), now: req.now(), seed: req.Seed, clusters: e.clusters(req)}
	defer r.b.Done()
	name := file
	if name == "" {
		name = inlineName
	}
	out, err := r.execute(name, text, values)
	if err != nil {
		return nil, newGoError(err, name, text, e.FS)
	}
	if req.CheckNoValue {
		if err := checkNoValue(out); err != nil {
			return nil, err
		}
	}
	res := &Result{Output: out}
	if req.Stateful {
		res.State, _ = outputState(out)
	}
	return res, nil
}

// execute parses (or takes from the cache) and runs one template text.
func (r *goRun) execute(name, text string, data any) ([]byte, error) {
	ct, err := cached(name, text)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := ct.execute(r, &out, data); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// include is Landscaper's include: it reads a file of the blueprint and
// renders it as a template with binding.
func (r *goRun) include(p string, binding any) (string, error) {
	name := blueprint.FilePath(p)
	if r.included[p] > maxIncludeDepth {
		return "", funcs.Worded(fmt.Errorf("include %q: included within itself more than %d times", p, maxIncludeDepth),
			fmt.Sprintf("rendering template has a nested reference name: %s: unable to execute template", p))
	}
	data, err := r.e.readFile(name)
	if err != nil {
		err = fmt.Errorf("include %q: %w", p, err)
		if text := vfsError(r.e.FS, p, err); text != "" {
			err = funcs.Worded(err, fmt.Sprintf("unable to read include file %q: %s", p, text))
		}
		return "", err
	}
	r.included[p]++
	defer func() { r.included[p]-- }()
	out, err := r.execute(name, string(data), binding)
	return string(out), err
}

// vfsError is the error Landscaper's blueprint file system (mandelsoft/vfs's
// memoryfs, read-only) gives for opening p, a file that fsys (nil: no
// files) cannot read with error err: "file does not exist", or, for a
// directory on the way that does not exist or is a file, that directory's
// path error (" /<dir>: file does not exist", " /<dir>: is no directory",
// with vfs's empty operation). It is "" for other errors.
func vfsError(fsys fs.FS, p string, err error) string {
	elems := strings.Split(blueprint.FilePath(p), "/")
	for i := 1; i < len(elems); i++ {
		dir := strings.Join(elems[:i], "/")
		var info fs.FileInfo
		statErr := fs.ErrNotExist
		if fsys != nil {
			info, statErr = fs.Stat(fsys, dir)
		}
		switch {
		case statErr != nil:
			return " /" + dir + ": file does not exist"
		case !info.IsDir():
			return " /" + dir + ": is no directory"
		}
	}
	if fsys == nil || errors.Is(err, fs.ErrNotExist) {
		return "file does not exist"
	}
	return ""
}

// BlueprintFileError is vfsError for other packages: Landscaper's words
// for err, an error reading file p of a blueprint's files fsys, "" when
// they are not known.
func BlueprintFileError(fsys fs.FS, p string, err error) string { return vfsError(fsys, p, err) }

// wordedFSError is err, an error reading p from the blueprint's files fsys,
// with Landscaper's words where vfsError has them.
func wordedFSError(fsys fs.FS, p string, err error) error {
	if text := vfsError(fsys, p, err); text != "" {
		return funcs.Worded(err, text)
	}
	return err
}
