package action

import (
	"fmt"

	"github.com/lscli/lscli/state"
)

// NoStateError says that the state folder holds no simulation yet: nothing
// has been reconciled there. An action that only reads returns it (exit 1
// unless the command line handles it: the read commands print a hint and an
// empty answer); an action that needs an object returns it as invalid input.
type NoStateError struct {
	// Path is the state folder.
	Path string
}

func (e *NoStateError) Error() string {
	return fmt.Sprintf("no simulation in %s yet: 'lscli reconcile DIR' starts one (or --state names another folder)", e.Path)
}

// Is makes errors.Is(err, state.ErrNoState) true.
func (e *NoStateError) Is(target error) bool { return target == state.ErrNoState }

// openExisting opens the session of an action that reads (readState) or
// changes (changeState) a saved simulation. When there is none it creates
// nothing and returns a NoStateError.
func openExisting(cfg *Configuration, acc access) (*session, error) {
	ok, err := state.New(cfg.StatePath).Exists()
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, &NoStateError{Path: statePath(cfg)}
	}
	return openSession(cfg, acc)
}

// statePath is the state folder as the user named it.
func statePath(cfg *Configuration) string {
	if cfg.StatePath == "" {
		return state.DefaultPath
	}
	return cfg.StatePath
}

// notFoundWithoutState is the error for an object asked for by name where
// there is no simulation at all.
func notFoundWithoutState(cfg *Configuration, kind, name string) error {
	return Invalid(&NotFoundError{Kind: kind, Name: name, Because: &NoStateError{Path: statePath(cfg)}})
}
