package action

import (
	"context"
	"errors"

	"github.com/lscli/lscli/fakecluster"
	"github.com/lscli/lscli/state"
)

// Tree reads the tree of one root installation, or every object, and runs
// nothing: `lscli tree`.
type Tree struct {
	cfg *Configuration
	// Namespace narrows the lookup of the root; empty finds it in any namespace.
	Namespace string
}

// NewTree returns the tree action over cfg.
func NewTree(cfg *Configuration) *Tree { return &Tree{cfg: cfg} }

// Run returns the root installation name and everything it owns, or every
// object when name is empty. An unknown or ambiguous name is invalid input.
// Where there is no simulation yet, it returns a NoStateError (invalid input
// when a name was asked for).
func (a *Tree) Run(_ context.Context, name string) ([]fakecluster.Object, error) {
	r, err := openReading(a.cfg, true)
	if err != nil {
		if errors.Is(err, state.ErrNoState) && name != "" {
			return nil, notFoundWithoutState(a.cfg, "Installation", name)
		}
		return nil, err
	}
	defer r.close()
	if name == "" {
		return r.all()
	}
	named, err := r.objects(func(kind, ns, n string) bool {
		return kind == "Installation" && n == name && (a.Namespace == "" || ns == a.Namespace)
	})
	if err != nil {
		return nil, err
	}
	root, err := FindOne(named, "Installation", name, a.Namespace)
	if err != nil {
		return nil, err
	}
	return r.subtree(root)
}
