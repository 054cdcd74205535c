package state

import (
	"bufio"
	"bytes"
	"os"
	"slices"
	"sync"
	"sync/atomic"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/lscli/lscli/fakecluster"
)

// Ahead encodes the lines of objects that a later Save writes while the
// simulation still runs, on a goroutine of its own: the run loop keeps one
// core, and the other, which otherwise mostly marks for the garbage
// collector, encodes what the loop has stored. Save then reads those lines
// instead of encoding the objects again. The lines are made by the code
// Save uses (encodeLine), so the file is the same, byte for byte, with and
// without an Ahead.
//
// The API server hands each object it stores to Stored (see
// fakecluster.Cluster.OnStored). Stored objects are never changed in
// place, so a stored version can be encoded while the loop goes on. A
// version is encoded only when aheadDelay batches of objects were stored
// after it and it is still the newest of its object: most objects are
// written several times in a short while (an installation about four times
// in a run), and what is written again after its line was made is encoded
// by Save. A line is used only for the very version it was made from (the
// same pointer), so a line that is out of date is never written.
//
// The lines go to a spool file in the state folder, not into memory: a
// heap that grows by the size of the state file while the run allocates
// made the garbage collector, held to lscli's memory limit, cost more
// than the encoding saved. The file is removed as soon as it is created
// where the system allows it (and otherwise by Close, or by the next
// save's removal of stale temporary files).
//
// Stored may be called while the goroutine runs; Stop ends it and must be
// called before the Snapshot is saved (Save does), Close after the save.
type Ahead struct {
	scheme *runtime.Scheme
	// mu guards pending and the sends on work, which Stop closes.
	mu      sync.Mutex
	pending []fakecluster.Object
	work    chan aheadWork
	done    chan struct{}
	stopped atomic.Bool
	once    sync.Once

	// Written by the goroutine only, read after Stop.
	spool   *os.File
	name    string // the spool's name, when it could not be removed at once
	objects map[aheadKey]aheadLine
	failed  bool // writing the spool failed: no line is used
}

// aheadBatch is how many stored objects go to the goroutine at once, and
// aheadDelay how many batches an object's version waits before it is
// encoded (about 20,000 writes later): in a run of 10,000 chained
// installations (370,000 writes of 100,000 objects), a fifth of the lines
// made are of versions that are written again later, and 8% of the
// objects are left for Save.
// They are variables for the tests.
var (
	aheadBatch = 4096
	aheadDelay = 5
)

// aheadLinesUsed counts the lines encoded ahead that saves have used, for
// the tests.
var aheadLinesUsed atomic.Int64

// aheadWork is a batch of stored objects for the goroutine, or, in tests,
// a channel it closes when it has done everything sent before.
type aheadWork struct {
	objects  []fakecluster.Object
	caughtUp chan struct{}
}

// aheadKey names an object as the API server does: apiVersion, kind,
// namespace, name.
type aheadKey struct{ apiVersion, kind, namespace, name string }

// keyOfObject takes the kind from the object's TypeMeta, as the API server
// sets it, without parsing its apiVersion.
func keyOfObject(obj fakecluster.Object) aheadKey {
	if tm, ok := obj.GetObjectKind().(*metav1.TypeMeta); ok {
		return aheadKey{tm.APIVersion, tm.Kind, obj.GetNamespace(), obj.GetName()}
	}
	gvk := obj.GetObjectKind().GroupVersionKind()
	return aheadKey{gvk.GroupVersion().String(), gvk.Kind, obj.GetNamespace(), obj.GetName()}
}

// aheadLine is where the line of one stored version of an object is in
// the spool (without its line end).
type aheadLine struct {
	obj    fakecluster.Object
	off, n int64
}

// NewAhead starts the goroutine that encodes objects with scheme's kinds
// into a spool file in d's folder, for d's next Save. Without a spool file
// (the folder is not writable) it returns nil, which every method takes as
// "nothing encoded".
func (d *Dir) NewAhead(scheme *runtime.Scheme) *Ahead {
	f, err := os.CreateTemp(d.dir(), tempPrefix+"ahead-*")
	if err != nil {
		return nil
	}
	a := &Ahead{scheme: scheme, spool: f, work: make(chan aheadWork, 64), done: make(chan struct{}),
		objects: map[aheadKey]aheadLine{}}
	if os.Remove(f.Name()) != nil {
		a.name = f.Name()
	}
	go a.run()
	return a
}

// Stored takes an object the API server has just stored. It never blocks:
// when the goroutine is behind, the batch grows until it takes it.
func (a *Ahead) Stored(obj fakecluster.Object) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.stopped.Load() {
		return
	}
	a.pending = append(a.pending, obj)
	if len(a.pending) < aheadBatch {
		return
	}
	select {
	case a.work <- aheadWork{objects: a.pending}:
		a.pending = nil
	default:
	}
}

// Stop ends the goroutine, leaving what it has not encoded yet to Save,
// and waits for it. Calling it again does nothing.
func (a *Ahead) Stop() {
	if a == nil {
		return
	}
	a.once.Do(func() {
		a.mu.Lock()
		a.stopped.Store(true)
		close(a.work)
		a.pending = nil
		a.mu.Unlock()
		<-a.done
	})
}

// Close stops a and removes its spool file.
func (a *Ahead) Close() {
	if a == nil {
		return
	}
	a.Stop()
	_ = a.spool.Close()
	if a.name != "" {
		_ = os.Remove(a.name)
	}
}

// run encodes until Stop: each batch of objects when aheadDelay more
// batches have come after it.
func (a *Ahead) run() {
	defer close(a.done)
	w := bufio.NewWriterSize(a.spool, 1<<20)
	var at int64
	latest := map[aheadKey]fakecluster.Object{}
	var waiting [][]fakecluster.Object
	var buf bytes.Buffer
	for work := range a.work {
		if work.caughtUp != nil {
			close(work.caughtUp)
			continue
		}
		if a.stopped.Load() || a.failed {
			continue // drain: Save encodes the rest
		}
		batch := work.objects
		for _, obj := range batch {
			latest[keyOfObject(obj)] = obj
		}
		waiting = append(waiting, batch)
		if len(waiting) <= aheadDelay {
			continue
		}
		batch, waiting = waiting[0], waiting[1:]
		for _, obj := range batch {
			if a.stopped.Load() {
				break
			}
			k := keyOfObject(obj)
			if latest[k] != obj {
				continue // stored again since
			}
			buf.Reset()
			if err := encodeLine(&buf, func(int) (any, error) { return wireObject(a.scheme, obj) }, nil, 0, false); err != nil {
				continue // Save encodes it and reports the error
			}
			line := buf.Bytes()[:buf.Len()-len(",\n")]
			if _, err := w.Write(line); err != nil {
				a.failed = true
				break
			}
			a.objects[k] = aheadLine{obj: obj, off: at, n: int64(len(line))}
			at += int64(len(line))
		}
	}
	if !a.failed && w.Flush() != nil {
		a.failed = true
	}
}

// objectLiner returns writeLines' ahead for objs: nil when a has no lines.
// The function it returns appends the line of objs[i] to dst, if a made
// one for that very version, and may be called from several goroutines.
func (a *Ahead) objectLiner(objs []fakecluster.Object) func(i int, dst []byte) ([]byte, bool) {
	if a == nil || a.failed || len(a.objects) == 0 {
		return nil
	}
	return func(i int, dst []byte) ([]byte, bool) {
		l, ok := a.objects[keyOfObject(objs[i])]
		if !ok || l.obj != objs[i] {
			return dst, false
		}
		out := slices.Grow(dst, int(l.n))[:len(dst)+int(l.n)]
		if _, err := a.spool.ReadAt(out[len(dst):], l.off); err != nil {
			return dst, false
		}
		aheadLinesUsed.Add(1)
		return out, true
	}
}
