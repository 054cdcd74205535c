package state

// savedLayout is where the last Save put each object's JSON in the state
// file it wrote (or found holding the snapshot already), for SavedObjects.
type savedLayout struct {
	spans []lineSpan
	// names are the namespace and name of each object, in file order.
	names [][2]string
	// size is the file's size; -1 until the file is written.
	size int64
}

// SavedObjects returns the objects of the state file the last Save wrote
// (or left as it was because it held the snapshot), as a View's Stored
// returns them, taken from where Save put them instead of from a scan of
// the file's lines and headers: a run prints them for -o json
// (TestSavedObjectsAreStored). ok is false when there was no such Save,
// or the file is not as that Save left it (another size, a line that is
// not where it was put); the caller then opens a View. The caller holds
// the lock and must not change the JSON.
func (d *Dir) SavedObjects() (objs []StoredObject, ok bool, err error) {
	l := d.saved
	if l == nil {
		return nil, false, nil
	}
	data, err := readFile(d.file(stateFileName))
	if err != nil {
		return nil, false, err
	}
	if int64(len(data)) != l.size {
		return nil, false, nil
	}
	objs = make([]StoredObject, len(l.spans))
	for i, sp := range l.spans {
		end := sp.off + sp.n
		if sp.off <= 0 || sp.n < 2 || end >= int64(len(data)) || data[sp.off-1] != '\n' || data[end-1] != '}' ||
			(data[end] != ',' && data[end] != '\n') {
			return nil, false, nil
		}
		line := data[sp.off:end]
		kind, _, ok := cutString(line, `{"kind":"`)
		if !ok || kind == "" {
			return nil, false, nil
		}
		objs[i] = StoredObject{Kind: kind, Namespace: l.names[i][0], Name: l.names[i][1], JSON: line}
	}
	return objs, true, nil
}
