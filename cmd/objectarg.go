package cmd

import (
	"context"
	"strings"

	"github.com/lscli/lscli/action"
)

// objectArg is the object a command's [KIND] NAME arguments name.
type objectArg struct {
	// kind is the kind: as the user wrote it as KIND (an alias, see
	// action.KindAliases), or resolved from KIND/NAME; empty when not given.
	kind string
	// namespace is the namespace -n gave, or NAME's; empty for any.
	namespace string
	name      string
	// prefix is NAME's part before the slash when it was read as a kind
	// (KIND/NAME): a namespace can have a kind's name (the example
	// "targets"), see orNamespaced.
	prefix string
}

// parseObjectArgs reads the arguments [KIND] NAME of a command, with ns the
// namespace of -n. As kubectl does, NAME may be KIND/NAME (installation/demo,
// or installation.landscaper.gardener.cloud/demo as `lscli get -o name`
// prints it); as lscli's trees and messages name objects, it may also be
// NAMESPACE/NAME (example/demo). A kind given twice, or a namespace that
// -n contradicts, is invalid input.
func parseObjectArgs(args []string, ns string) (objectArg, error) {
	o := objectArg{namespace: ns, name: args[len(args)-1]}
	if len(args) == 2 {
		o.kind = args[0]
	}
	prefix, name, ok := strings.Cut(o.name, "/")
	if !ok || strings.Contains(name, "/") {
		return o, nil // the lookup says it is not found
	}
	if kind, isKind := kindOfPrefix(prefix); isKind {
		given, err := action.ResolveKind(o.kind)
		switch {
		case o.kind != "" && (err != nil || given == kind):
			return o, invalidf("%q names a kind, and so does %q: give it once", o.name, o.kind)
		case o.kind == "":
			o.kind, o.name, o.prefix = kind, name, prefix
			return o, nil
		}
		// KIND and then NAMESPACE/NAME whose namespace has the name of
		// another kind.
	}
	if ns != "" && ns != prefix {
		return o, invalidf("%q names namespace %q, and -n names %q: give one", o.name, prefix, ns)
	}
	o.namespace, o.name = prefix, name
	return o, nil
}

// orNamespaced returns o read as NAMESPACE/NAME when its NAME was read as
// KIND/NAME of a kind that accept refuses and the state has an object of
// an accepted kind there: lscli's trees name objects NAMESPACE/NAME, and a
// namespace may have a kind's name ("targets/platform" is the installation
// platform of namespace targets for interrupt). Otherwise o stays as it is,
// and the command refuses its kind.
func (o objectArg) orNamespaced(s *settings, accept ...string) objectArg {
	if o.prefix == "" || o.namespace != "" && o.namespace != o.prefix {
		return o
	}
	for _, kind := range accept {
		if o.is(kind) {
			return o
		}
	}
	cfg, err := configuration(s)
	if err != nil {
		return o
	}
	for _, kind := range accept {
		a := action.NewGet(cfg)
		a.Namespace = o.prefix
		if found, err := a.Run(context.Background(), []string{kind, o.name}); err == nil && len(found) > 0 {
			return objectArg{namespace: o.prefix, name: o.name}
		}
	}
	return o
}

// kindOfPrefix reports whether prefix, the part of NAME before its slash, is
// a kind (with or without the Landscaper group), and returns it.
func kindOfPrefix(prefix string) (string, bool) {
	kind, err := action.ResolveKind(prefix)
	return kind, err == nil
}

// is reports whether the arguments name no kind, or kind.
func (o objectArg) is(kind string) bool {
	if o.kind == "" {
		return true
	}
	k, err := action.ResolveKind(o.kind)
	return err == nil && k == kind
}

// operatedObjects reads the arguments of a command that changes objects:
// [KIND] NAME for one (o), or, as kubectl takes them, KIND NAME NAME... or
// KIND/NAME KIND/NAME... for several (many, nil for one).
func operatedObjects(args []string, ns string) (o objectArg, many []action.ObjectName, err error) {
	objs, err := manyObjectArgs(args, ns)
	if err != nil || objs == nil {
		if err == nil && len(args) > 2 {
			return o, nil, invalidf("%s: name the objects as KIND NAME NAME..., or KIND/NAME KIND/NAME...", strings.Join(args, " "))
		}
		if err == nil {
			o, err = parseObjectArgs(args, ns)
		}
		return o, nil, err
	}
	for _, obj := range objs {
		many = append(many, action.ObjectName{Kind: obj.kind, Name: obj.name, Namespace: obj.namespace})
	}
	return o, many, nil
}
