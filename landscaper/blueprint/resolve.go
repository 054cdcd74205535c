package blueprint

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/internal/safefs"
	"github.com/lscli/lscli/reconcile"
)

// Reference names a blueprint that is not inline: a resource of a component.
type Reference struct {
	// ResourceName is spec.blueprint.ref.resourceName.
	ResourceName string
	// ComponentName is the name of the installation's component, or "" when
	// it has no component descriptor.
	ComponentName string
}

// Keys are the keys a Resolver looks a reference up by, most specific
// first: "<componentName>/<resourceName>", then "<resourceName>".
func (r Reference) Keys() []string {
	if r.ComponentName == "" {
		return []string{r.ResourceName}
	}
	return []string{r.ComponentName + "/" + r.ResourceName, r.ResourceName}
}

// ErrNotFound is returned (wrapped) by a Resolver that knows no blueprint for
// a reference.
var ErrNotFound = errors.New("blueprint not found")

// Resolver finds the blueprints that installations reference by resource
// name. Landscaper reads them from an OCM registry; lscli from elsewhere.
type Resolver interface {
	// Resolve returns the blueprint ref names. An unknown ref is an error
	// wrapping ErrNotFound that says what was looked for.
	Resolve(ref Reference) (*Blueprint, error)
}

// Folders resolves references to blueprints kept as local folders.
type Folders struct {
	// FS is the file system that Paths name. Nil means the host file
	// system, where Paths are OS paths, absolute or relative to the working
	// directory.
	FS fs.FS
	// Paths maps keys (see Reference.Keys) to the folders that hold the
	// blueprints, each with blueprint.yaml at its root.
	Paths map[string]string
	// Origin names where Paths come from, for messages, e.g. "lscli.yaml".
	// Defaults to "the config file".
	Origin string
	// Policy says where on the host files may be read when FS is nil: a
	// blueprint's symbolic links must lead below its roots, and only
	// regular files within its size limit are read. Nil means each folder
	// reads only below itself.
	Policy *safefs.Policy
}

var _ Resolver = (*Folders)(nil)

// Resolve reads the folder of the first key of ref that Paths has.
func (f *Folders) Resolve(ref Reference) (*Blueprint, error) {
	for _, key := range ref.Keys() {
		dir, ok := f.Paths[key]
		if !ok {
			continue
		}
		bp, err := f.read(dir)
		if err != nil {
			return nil, fmt.Errorf("folder %s (blueprints[%q] of %s): %w", dir, key, f.origin(), err)
		}
		return bp, nil
	}
	return nil, fmt.Errorf("%w: %s has no entry for %s in its blueprints map (known: %s)",
		ErrNotFound, f.origin(), quoteAll(ref.Keys(), " or "), f.known())
}

// read reads the blueprint in dir.
func (f *Folders) read(dir string) (*Blueprint, error) {
	var fsys fs.FS
	if f.FS == nil {
		info, err := os.Stat(dir)
		if err != nil || !info.IsDir() {
			return nil, fmt.Errorf("no such folder")
		}
		policy := f.Policy
		if policy == nil {
			policy = safefs.NewPolicy(0, dir)
		}
		fsys = policy.Dir(dir)
	} else {
		sub, err := fs.Sub(f.FS, filepath.ToSlash(filepath.Clean(dir)))
		if err != nil {
			return nil, err
		}
		fsys = sub
	}
	bp, err := FromFS(fsys)
	if err != nil {
		return nil, err
	}
	bp.Source = filepath.ToSlash(dir)
	return bp, nil
}

func (f *Folders) origin() string {
	if f.Origin == "" {
		return "the config file"
	}
	return f.Origin
}

// known lists the keys of Paths.
func (f *Folders) known() string {
	if len(f.Paths) == 0 {
		return "none"
	}
	keys := make([]string, 0, len(f.Paths))
	for k := range f.Paths {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return quoteAll(keys, ", ")
}

func quoteAll(list []string, sep string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, sep)
}

// ForInstallation returns the blueprint of inst: its inline blueprint, or the
// one r resolves for spec.blueprint.ref (r may be nil: then only inline
// blueprints are found). Errors are terminal and name the installation and
// what was looked for.
func ForInstallation(inst *lsv1alpha1.Installation, r Resolver) (*Blueprint, error) {
	def := inst.Spec.Blueprint
	name := inst.Namespace + "/" + inst.Name
	switch {
	case def.Inline != nil:
		bp, err := FromInline(def.Inline.Filesystem)
		if err != nil {
			// Landscaper's message as it is: the installation has it in
			// its status, and validate names the file and document.
			return nil, reconcile.Fatalf("BlueprintInvalid", "%w", err)
		}
		return bp, nil
	case def.Reference != nil:
		return resolveRef(inst, name, r)
	}
	return nil, reconcile.Fatalf("BlueprintNotFound", "installation %s: spec.blueprint has neither inline nor ref", name)
}

// resolveRef resolves spec.blueprint.ref of inst.
func resolveRef(inst *lsv1alpha1.Installation, name string, r Resolver) (*Blueprint, error) {
	ref := Reference{ResourceName: inst.Spec.Blueprint.Reference.ResourceName, ComponentName: ComponentName(inst)}
	if r == nil {
		return nil, reconcile.Fatalf("BlueprintNotFound", "installation %s: blueprint %s: lscli reads no registry; "+
			"map the resource to a local folder in the blueprints map of the config file (lscli.yaml)", name, describeRef(ref))
	}
	bp, err := r.Resolve(ref)
	if err != nil {
		reason := "BlueprintInvalid"
		if errors.Is(err, ErrNotFound) {
			reason = "BlueprintNotFound"
		}
		wrapped := fmt.Errorf("installation %s: blueprint %s: %w", name, describeRef(ref), err)
		if status := reconcile.StatusText(err); status != err.Error() {
			// Landscaper's words for the error: its status has them
			// alone (ResolveBlueprint's error as it is).
			wrapped = reconcile.WithStatusText(wrapped, status)
		}
		return nil, reconcile.TerminalWithCodes(wrapped, reason)
	}
	return bp, nil
}

// describeRef names a reference in messages.
func describeRef(ref Reference) string {
	s := fmt.Sprintf("ref.resourceName %q", ref.ResourceName)
	if ref.ComponentName != "" {
		s += fmt.Sprintf(" of component %s", ref.ComponentName)
	}
	return s
}

// ComponentName returns the name of the component of inst (from its
// component descriptor reference or inline descriptor), or "".
func ComponentName(inst *lsv1alpha1.Installation) string {
	cd := inst.Spec.ComponentDescriptor
	switch {
	case cd == nil:
		return ""
	case cd.Reference != nil:
		return cd.Reference.ComponentName
	case cd.Inline != nil:
		return cd.Inline.GetName()
	}
	return ""
}
