package descriptor

import (
	"maps"

	cdv2 "github.com/gardener/landscaper/legacy-component-spec/bindings-go/apis/v2"
)

// ResourceElements returns the identity parts of cd's resources.
func ResourceElements(cd *cdv2.ComponentDescriptor) []Element {
	elems := make([]Element, len(cd.Resources))
	for i, r := range cd.Resources {
		elems[i] = Element{Name: r.Name, Version: r.Version, Extra: r.ExtraIdentity}
	}
	return elems
}

// Element is what OCM's identity of a resource or component reference is
// made of.
type Element struct {
	Name, Version string
	Extra         cdv2.Identity
}

// OCMIdentity is the identity OCM gives elems[i] in its list
// (ElementMeta.GetIdentity): its extra identity and name, and its version
// when the extra identity has none and another element of the list has the
// same name and extra identity (apart from a version key).
func OCMIdentity(elems []Element, i int) cdv2.Identity {
	o := elems[i]
	id := cdv2.Identity{}
	for k, v := range o.Extra {
		id[k] = v
	}
	id[cdv2.SystemIdentityName] = o.Name
	if id[cdv2.SystemIdentityVersion] != "" {
		return id
	}
	found := false
	for _, m := range elems {
		if m.Name != o.Name {
			continue
		}
		mid := cdv2.Identity{}
		for k, v := range m.Extra {
			if k != cdv2.SystemIdentityVersion {
				mid[k] = v
			}
		}
		if !maps.Equal(mid, o.Extra) {
			continue
		}
		if found {
			id[cdv2.SystemIdentityVersion] = o.Version
			break
		}
		found = true
	}
	return id
}
