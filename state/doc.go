// Package state keeps the simulation between lscli commands: `lscli reconcile`,
// then `lscli interrupt`, then `lscli reconcile` again act on the same
// landscape. It saves and loads an state.Snapshot (objects, virtual clock,
// random source, pending timers and the timeline) in a state folder, .lscli
// under the working directory unless --state or LSCLI_STATE names another.
//
// A command takes the lock, loads, simulates, saves and unlocks:
//
//	d := state.New(path)
//	unlock, err := d.Lock()
//	...
//	defer unlock()
//	snap, err := d.Load(scheme) // errors.Is(err, state.ErrNoState) on a fresh folder
//	...
//	err = d.Save(snap, scheme)
//
// # Files
//
// The state folder holds:
//
//	state.json          the state (see below)
//	lock                empty; flock(2)ed by the lscli that is running
//	state.json.tmp-*    a state being written; renamed to state.json when
//	                    complete, so a crash leaves the old state.json intact
//
// `lscli reset` (Dir.Remove) deletes these files and the folder.
//
// # Format of state.json
//
// state.json is one JSON document laid out with one element a line, so that
// it stays readable and greppable for big landscapes, and so that lscli can
// decode the lines in parallel:
//
//	{"version":1,"seed":42,"rand":"<base64>","clock":"2006-01-02T15:04:05Z",
//	"timers":[
//	{"controller":"installation","namespace":"default","name":"app","due":"2006-01-02T15:06:05Z"}
//	],
//	"events":[
//	{"time":"2006-01-02T15:04:05Z","kind":"Installation","namespace":"default","name":"app","type":"Created"},
//	...
//	],
//	"objects":[
//	{"kind":"Installation","apiVersion":"landscaper.gardener.cloud/v1alpha1","metadata":{...},"spec":{...},"status":{...}},
//	...
//	]}
//
// version is the format version; an lscli refuses a version it does not know.
// seed, rand and clock are the random source and the virtual clock. timers
// and events have the JSON form of reconcile.Timer and state.Event (the events
// are the `lscli events -o json` entries). objects are the stored objects as
// the Kubernetes API would show them, with apiVersion and kind; an Execution
// has spec.deployItems in clear rather than Landscaper's gzipped
// spec.deployItemsCompressed (both are read). testdata/sample.json is an
// example with one object of every kind.
//
// jq reads the file as it is, e.g.
//
//	jq -r '.objects[] | select(.kind == "DeployItem") | .metadata.name + " " + .status.phase' .lscli/state.json
//
// The reading commands (get, tree, events, describe) open a View instead of
// loading: it reads the objects' kind, name and owners from the start of
// their lines, and decodes only the objects and the section the command
// shows (events read no objects, only the file's end, to know it is
// complete). A file the View cannot read that way is loaded as a whole,
// which reports what is wrong with it; a broken object line in the middle
// of a complete file is reported only by the commands that decode it.
// `get -o json` of many objects decodes none: it re-indents their lines
// (View.Line), which gives the bytes that decoding and encoding them would
// give, since a line that Save wrote decodes and encodes to itself (checked
// for every kind over random objects, and on the state of every script). A
// line edited by hand that is still valid JSON, with kind and apiVersion
// first, is shown as it was edited; one that is not valid JSON is an error
// naming the object.
//
// Save copies lines from the file it replaces, when that is the very file
// the Dir loaded or saved: the line of every object whose kind, name, uid
// and resourceVersion are unchanged, and the line of every loaded event
// that still starts the timeline. So an object or event line edited by hand
// into other valid JSON is kept as edited until its object changes.
//
// A file edited by hand may use any JSON layout; Load then decodes it as a
// whole, which is slower, and the next Save writes it back in this layout.
// A state file that cannot be read or decoded is an error naming the file and
// the line, never a silent fresh start.
package state
