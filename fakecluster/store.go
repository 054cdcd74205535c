package fakecluster

import (
	"maps"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/selection"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lscli/lscli/internal/parallel"
)

// objKey names one stored object.
type objKey struct {
	gk        schema.GroupKind
	namespace string
	name      string
}

// entry is the place of one stored object in the store: the object map and
// the index sets hold the entry, and a write that replaces the object puts
// the new one into the same entry. So a List by owner, label or field takes
// the objects from the entries of an index set, without looking each one up
// by name in maps of tens of thousands of names. A removed entry holds no
// object.
type entry struct {
	key objKey
	obj Object
}

// labelKey is one entry of the label index: a kind and one key=value pair.
type labelKey struct {
	gk    schema.GroupKind
	key   string
	value string
}

// store holds the objects and the indexes over them. It is not safe for
// concurrent use; Cluster guards it. Stored objects are never handed out:
// callers copy before returning anything.
type store struct {
	// objects maps kind → namespace → name → the object's entry.
	objects map[schema.GroupKind]map[string]map[string]*entry
	// uids maps every stored UID to its object, so that the garbage collector
	// can tell whether an owner still exists.
	uids map[types.UID]objKey
	// owners maps an owner UID to the objects that reference it.
	owners map[types.UID]*keySet
	// labels maps kind + key=value to the objects carrying that label, for
	// the label keys of labelKeys only.
	labels map[labelKey]*keySet
	// labelKeys are the label keys indexed by kind: those a List has selected
	// by (see indexLabelKey). Most labels Landscaper sets (a data object's
	// job ID, source and source type, a deploy item's template name) are
	// never selected by, and indexing them was most of the label index.
	labelKeys map[schema.GroupKind]map[string]bool
	// indexers are the registered field indexes by kind and name; fields maps
	// kind + index + value to the objects found under it.
	indexers map[schema.GroupKind]map[string]IndexFunc
	fields   map[fieldKey]*keySet
	// groups are the group functions of grouped indexes (AddGroupedIndex);
	// shared counts, by kind + index + group, the values of the group that
	// two or more objects hold.
	groups map[schema.GroupKind]map[string]GroupFunc
	shared map[fieldKey]int
	// pending are the entries of objects stored by putUnindexed, whose
	// owner, label and field entries are made when an index is next read.
	pending []*entry
	// watch checks that stored objects are not changed in place; nil unless
	// DetectMutations is set.
	watch *mutationWatch
	// last is the entry lookup found last; one whose object was removed
	// (obj nil) is not used.
	last *entry
}

func newStore() *store {
	return &store{
		objects:   map[schema.GroupKind]map[string]map[string]*entry{},
		uids:      map[types.UID]objKey{},
		owners:    map[types.UID]*keySet{},
		labels:    map[labelKey]*keySet{},
		labelKeys: map[schema.GroupKind]map[string]bool{},
		indexers:  map[schema.GroupKind]map[string]IndexFunc{},
		fields:    map[fieldKey]*keySet{},
		groups:    map[schema.GroupKind]map[string]GroupFunc{},
		shared:    map[fieldKey]int{},
		watch:     newMutationWatch(),
	}
}

// get returns the stored object named k.
func (s *store) get(k objKey) (Object, bool) {
	e := s.lookup(k)
	if e == nil {
		return nil, false
	}
	return e.obj, true
}

// lookup returns the entry of the object named k, nil if none is stored.
// A step of the run loop reads, and then writes, the same object several
// times (the idle check, the read, the status write), so the entry last
// found is tried first: a lookup in maps of tens of thousands of names is
// mostly cache misses.
func (s *store) lookup(k objKey) *entry {
	if e := s.last; e != nil && e.obj != nil && e.key == k {
		return e
	}
	e := s.objects[k.gk][k.namespace][k.name]
	if e != nil {
		s.last = e
	}
	return e
}

// put stores obj under k, replacing and unindexing any object stored there.
func (s *store) put(k objKey, obj Object) {
	e := s.lookup(k)
	if e != nil {
		s.unindex(e)
	}
	s.index(s.set(k, obj))
}

// putUnindexed is put, but the owner, label and field index entries of obj
// are made only when an index is next read (indexPending): taking over many
// objects that nothing lists afterwards (the end of a dry run) does not
// build them. Its uid is indexed at once.
func (s *store) putUnindexed(k objKey, obj Object) {
	if e := s.lookup(k); e != nil {
		s.unindex(e)
	}
	e := s.set(k, obj)
	s.uids[obj.GetUID()] = k
	s.pending = append(s.pending, e)
}

// indexPending makes the index entries putUnindexed left out, for the
// objects in those entries now (their uids putUnindexed indexed at once).
// Indexing is idempotent, so an object indexed since, or twice, is fine;
// one removed since is skipped.
func (s *store) indexPending() {
	if len(s.pending) == 0 {
		return // every List asks
	}
	pending := s.pending
	s.indexApart(len(pending), func(i int) (*entry, bool) { return pending[i], pending[i].obj != nil }, nil)
	s.pending = nil
}

// indexApart makes the owner, label and field index entries of n objects,
// at(i) giving the entry of the i-th (false to leave it out), and
// runs beside, when not nil, which must not touch those indexes. Many
// objects (a restored state, a dry run's take-over) are indexed on all
// cores, each index by a goroutine of its own, and beside on another: the
// indexes are apart, and each is filled in the order of i, as one by one.
func (s *store) indexApart(n int, at func(i int) (*entry, bool), beside func()) {
	each := func(index func(e *entry)) {
		for i := range n {
			if e, ok := at(i); ok {
				index(e)
			}
		}
	}
	indexes := []func(e *entry){s.indexOwners, s.indexLabels,
		func(e *entry) { s.indexFields(e, true) }}
	if n < minParallel {
		if beside != nil {
			beside()
		}
		each(func(e *entry) {
			for _, index := range indexes {
				index(e)
			}
		})
		return
	}
	if beside != nil {
		indexes = append(indexes, nil)
	}
	parallel.Go(len(indexes), func(w int) {
		if indexes[w] == nil {
			beside()
			return
		}
		each(indexes[w])
	})
}

// minParallel is the fewest objects the store indexes (indexApart) or
// sorts (all) on more than one core.
const minParallel = 4096

// set stores obj under k in the object map, in the entry of the object
// stored there or in a new one, without touching the indexes, and returns
// the entry.
func (s *store) set(k objKey, obj Object) *entry {
	e := s.lookup(k)
	if e == nil {
		e = &entry{key: k}
		s.names(k)[k.name] = e
	}
	if s.watch != nil {
		s.watch.stored(k, e.obj, obj)
	}
	e.obj = obj
	return e
}

// setEntry puts e into the object map under its key, where no object is
// stored, without touching the indexes.
func (s *store) setEntry(e *entry) {
	if s.watch != nil {
		s.watch.stored(e.key, nil, e.obj)
	}
	s.names(e.key)[e.key.name] = e
}

// names returns the entries by name of k's kind and namespace, an empty map
// it stores if there are none.
func (s *store) names(k objKey) map[string]*entry {
	byNS := s.objects[k.gk]
	if byNS == nil {
		byNS = map[string]map[string]*entry{}
		s.objects[k.gk] = byNS
	}
	byName := byNS[k.namespace]
	if byName == nil {
		byName = map[string]*entry{}
		byNS[k.namespace] = byName
	}
	return byName
}

// replace stores obj under k in place of an object whose metadata and spec
// it has, so its index entries stay as they are.
func (s *store) replace(k objKey, obj Object) {
	e := s.lookup(k)
	if s.watch != nil {
		s.watch.stored(k, e.obj, obj)
	}
	e.obj = obj
}

// remove deletes the object named k and returns it.
func (s *store) remove(k objKey) (Object, bool) {
	e := s.lookup(k)
	if e == nil {
		return nil, false
	}
	obj := e.obj
	s.watch.removed(k, obj)
	s.unindex(e)
	byNS := s.objects[k.gk]
	delete(byNS[k.namespace], k.name)
	if len(byNS[k.namespace]) == 0 {
		delete(byNS, k.namespace)
	}
	if len(byNS) == 0 {
		delete(s.objects, k.gk)
	}
	e.obj = nil
	return obj, true
}

func (s *store) index(e *entry) {
	s.uids[e.obj.GetUID()] = e.key
	s.indexOwners(e)
	s.indexLabels(e)
	s.indexFields(e, true)
}

// indexOwners adds e under the UIDs of its object's owners.
func (s *store) indexOwners(e *entry) {
	for _, ref := range e.obj.GetOwnerReferences() {
		addEntry(s.owners, ref.UID, e)
	}
}

// indexLabels adds e under those of its object's labels whose keys are
// indexed.
func (s *store) indexLabels(e *entry) {
	keys := s.labelKeys[e.key.gk]
	if len(keys) == 0 {
		return
	}
	for key, value := range e.obj.GetLabels() {
		if keys[key] {
			addEntry(s.labels, labelKey{gk: e.key.gk, key: key, value: value}, e)
		}
	}
}

// indexLabelKey makes sure the label index of kind gk covers the label key:
// the first List that selects by it indexes every stored object of the kind
// under it, and every object stored from then on is. Pending objects must
// be indexed first (indexPending), or they would be indexed under the key
// twice, which is harmless but wasted.
func (s *store) indexLabelKey(gk schema.GroupKind, key string) {
	keys := s.labelKeys[gk]
	if keys[key] {
		return
	}
	if keys == nil {
		keys = map[string]bool{}
		s.labelKeys[gk] = keys
	}
	keys[key] = true
	for _, byName := range s.objects[gk] {
		for _, e := range byName {
			if value, ok := e.obj.GetLabels()[key]; ok {
				addEntry(s.labels, labelKey{gk: gk, key: key, value: value}, e)
			}
		}
	}
}

// unindex takes e out of every index, as its object is now.
func (s *store) unindex(e *entry) {
	obj, k := e.obj, e.key
	if s.uids[obj.GetUID()] == k {
		delete(s.uids, obj.GetUID())
	}
	for _, ref := range obj.GetOwnerReferences() {
		removeEntry(s.owners, ref.UID, e)
	}
	if keys := s.labelKeys[k.gk]; len(keys) != 0 {
		for key, value := range obj.GetLabels() {
			if keys[key] {
				removeEntry(s.labels, labelKey{gk: k.gk, key: key, value: value}, e)
			}
		}
	}
	s.indexFields(e, false)
}

func addEntry[K comparable](m map[K]*keySet, idx K, e *entry) {
	set := m[idx]
	if set == nil {
		set = &keySet{}
		m[idx] = set
	}
	set.add(e)
}

func removeEntry[K comparable](m map[K]*keySet, idx K, e *entry) {
	set := m[idx]
	if set == nil {
		return
	}
	set.remove(e)
	if set.len() == 0 {
		delete(m, idx)
	}
}

// candidates returns the stored objects of kind gk that may match opts,
// from the smallest index that applies (field, owner or label), so that a
// List by field, owner or label does not visit objects the other filters
// would drop anyway. The caller still has to filter (see matches).
func (s *store) candidates(gk schema.GroupKind, opts ListOptions) []*entry {
	s.indexPending()
	var set *keySet
	useSet := false
	narrow := func(candidate *keySet) {
		if !useSet || candidate.len() < set.len() {
			set, useSet = candidate, true
		}
	}
	if f := opts.Field; f != nil {
		narrow(s.fields[fieldKey{gk: gk, index: f.Index, value: f.Value}])
	}
	if opts.OwnerUID != "" {
		narrow(s.owners[opts.OwnerUID])
	}
	if key, value, ok := firstEquality(opts.LabelSelector); ok {
		s.indexLabelKey(gk, key)
		narrow(s.labels[labelKey{gk: gk, key: key, value: value}])
	}
	if useSet {
		return entriesOf(gk, set)
	}
	if opts.Namespace != "" {
		return slices.Collect(maps.Values(s.objects[gk][opts.Namespace]))
	}
	var out []*entry
	for _, byName := range s.objects[gk] {
		out = slices.AppendSeq(out, maps.Values(byName))
	}
	return out
}

// ownedBy returns the keys of the objects with an owner reference to uid,
// sorted.
func (s *store) ownedBy(uid types.UID) []objKey {
	s.indexPending()
	return sortedKeys(s.owners[uid])
}

// entriesOf returns the entries in set of objects of kind gk.
func entriesOf(gk schema.GroupKind, set *keySet) []*entry {
	out := make([]*entry, 0, set.len())
	for e := range set.all() {
		if e.key.gk == gk {
			out = append(out, e)
		}
	}
	return out
}

// all returns every stored object sorted by kind, group, namespace and name.
func (s *store) all() []objKey {
	// Kind and namespace order the buckets of the object map; only the
	// names within a bucket need sorting, and big buckets sort on all
	// cores. TestAllIsSorted compares it with sorting every key.
	gks := slices.SortedFunc(maps.Keys(s.objects), func(a, b schema.GroupKind) int {
		return CompareKeys(a, "", "", b, "", "")
	})
	type bucket struct {
		gk    schema.GroupKind
		ns    string
		names []string
	}
	var buckets []bucket
	n := 0
	for _, gk := range gks {
		for _, ns := range slices.Sorted(maps.Keys(s.objects[gk])) {
			names := slices.Collect(maps.Keys(s.objects[gk][ns]))
			buckets = append(buckets, bucket{gk, ns, names})
			n += len(names)
		}
	}
	sortNames := func(_, lo, hi int) error {
		for _, b := range buckets[lo:hi] {
			slices.Sort(b.names)
		}
		return nil
	}
	if n < minParallel {
		_ = sortNames(0, 0, len(buckets))
	} else {
		_ = parallel.ForChunks(len(buckets), 1, sortNames)
	}
	keys := make([]objKey, 0, n)
	for _, b := range buckets {
		for _, name := range b.names {
			keys = append(keys, objKey{gk: b.gk, namespace: b.ns, name: name})
		}
	}
	return keys
}

func compareKeys(a, b objKey) int {
	return CompareKeys(a.gk, a.namespace, a.name, b.gk, b.namespace, b.name)
}

// CompareKeys orders objects as the API server lists them (Objects, List):
// by kind, group, namespace and name.
func CompareKeys(gkA schema.GroupKind, nsA, nameA string, gkB schema.GroupKind, nsB, nameB string) int {
	if c := strings.Compare(gkA.Kind, gkB.Kind); c != 0 {
		return c
	}
	if c := strings.Compare(gkA.Group, gkB.Group); c != 0 {
		return c
	}
	if c := strings.Compare(nsA, nsB); c != 0 {
		return c
	}
	return strings.Compare(nameA, nameB)
}

// firstEquality returns the first requirement of sel that pins a label to a
// single value (k=v, k==v or k in (v)).
func firstEquality(sel labels.Selector) (key, value string, ok bool) {
	if sel == nil {
		return "", "", false
	}
	reqs, selectable := sel.Requirements()
	if !selectable {
		return "", "", false
	}
	for _, r := range reqs {
		vals := r.ValuesUnsorted()
		switch r.Operator() {
		case selection.Equals, selection.DoubleEquals, selection.In:
			if len(vals) == 1 {
				return r.Key(), vals[0], true
			}
		}
	}
	return "", "", false
}

// matches reports whether the object in e, of kind gk, passes every filter
// of opts.
func (s *store) matches(gk schema.GroupKind, e *entry, opts ListOptions) bool {
	obj := e.obj
	if opts.Namespace != "" && e.key.namespace != opts.Namespace {
		return false
	}
	if f := opts.Field; f != nil {
		if !s.fields[fieldKey{gk: gk, index: f.Index, value: f.Value}].has(e) {
			return false
		}
	}
	if opts.OwnerUID != "" && !hasOwner(obj, opts.OwnerUID) {
		return false
	}
	if opts.LabelSelector != nil && !opts.LabelSelector.Matches(labels.Set(obj.GetLabels())) {
		return false
	}
	return true
}

func hasOwner(obj Object, uid types.UID) bool {
	for _, ref := range obj.GetOwnerReferences() {
		if ref.UID == uid {
			return true
		}
	}
	return false
}
