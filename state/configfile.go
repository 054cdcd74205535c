package state

import (
	"bufio"
	"bytes"
)

// headerBuffer bounds what SavedConfigFile reads of the state file: the
// header line Save writes (seed, random state, clock, component roots,
// config file) is far shorter.
const headerBuffer = 64 << 10

// SavedConfigFile returns the config file the state was last saved with
// (Snapshot.ConfigFile), read from the header line alone, before the state
// is opened: the config of a command is chosen before it locks and loads the
// state. It returns "" when there is no state, or its first line is not a
// header as Save writes it (a file laid out by hand), or names none.
func (d *Dir) SavedConfigFile() string {
	f, err := openFile(d.file(stateFileName))
	if err != nil {
		return ""
	}
	defer f.Close()
	line, err := bufio.NewReaderSize(f, headerBuffer).ReadSlice('\n')
	if err != nil {
		return ""
	}
	header, ok := headerObject(bytes.TrimRight(line, "\r\n"))
	if !ok {
		return ""
	}
	h, err := decodeHeader(header)
	if err != nil {
		return ""
	}
	return h.ConfigFile
}
