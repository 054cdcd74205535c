package components

import (
	"errors"
	"fmt"
	"net/url"
	"path"
	"strings"

	cdv2 "github.com/gardener/landscaper/legacy-component-spec/bindings-go/apis/v2"

	"github.com/lscli/lscli/landscaper/components/source"
)

// Keywords of cd:// URIs.
const (
	uriComponentReferences = "componentReferences"
	uriResources           = "resources"
	maxURILength           = 2083
)

// URI is a cd:// reference into a component version:
// cd://componentReferences/<name>/.../resources/<name>[#fragment].
type URI struct {
	// Raw is the URI as written.
	Raw string
	// Path are the keyword and value pairs.
	Path []URIElement
	// Fragment is what follows "#".
	Fragment string
}

// URIElement is one keyword/value pair of a URI.
type URIElement struct {
	Keyword, Value string
}

// ParseURI parses a cd:// URI as Landscaper does.
func ParseURI(s string) (*URI, error) {
	if len(s) > maxURILength {
		return nil, fmt.Errorf("too long uri, got %d but expected max %d", len(s), maxURILength)
	}
	u, err := url.Parse(s)
	if err != nil {
		return nil, err
	}
	if u.Scheme != "cd" {
		return nil, fmt.Errorf("scheme must be cd but given %s", u.Scheme)
	}
	parts := strings.Split(path.Join(u.Host, u.Path), "/")
	if len(parts)%2 != 0 {
		return nil, errors.New("even number of path arguments expected")
	}
	out := &URI{Raw: s, Fragment: u.Fragment}
	for i := 0; i < len(parts); i += 2 {
		out.Path = append(out.Path, URIElement{Keyword: parts[i], Value: parts[i+1]})
	}
	return out, nil
}

// References returns the component reference names the URI follows and
// the resource it ends with ("" when it ends at a component).
func (u *URI) References() (refs []string, resource string, err error) {
	for i, e := range u.Path {
		switch e.Keyword {
		case uriComponentReferences:
			refs = append(refs, e.Value)
		case uriResources:
			if i != len(u.Path)-1 {
				return nil, "", errors.New("the selector seems to contain more path segements after a resource")
			}
			resource = e.Value
		default:
			return nil, "", fmt.Errorf("unknown keyword %s", e.Keyword)
		}
	}
	return refs, resource, nil
}

// Follow follows u from v: it returns the version u leads to and the
// resource it names (the zero resource when u ends at a component). The
// tree's overwrites apply to each component reference.
func (t *Tree) Follow(v *source.Version, u *URI) (*source.Version, cdv2.Resource, error) {
	return t.follow(v, u, true)
}

// FollowAsWritten is Follow without the tree's overwrites, as Landscaper
// finds the resource of a subinstallation's cd:// blueprint reference.
func (t *Tree) FollowAsWritten(v *source.Version, u *URI) (*source.Version, cdv2.Resource, error) {
	return t.follow(v, u, false)
}

// follow is Follow, with or without the tree's overwrites. It walks the
// path element by element, as Landscaper's URI.Get and URI.GetResource do
// (pkg/landscaper/registry/components/cdutils/uri.go): a component
// reference is followed before the next keyword is read, and a resource is
// looked up before the check that nothing follows it.
func (t *Tree) follow(v *source.Version, u *URI, replace bool) (*source.Version, cdv2.Resource, error) {
	for i, e := range u.Path {
		switch e.Keyword {
		case uriComponentReferences:
			next, _, err := t.referenced(v, e.Value, replace)
			if err != nil {
				return nil, cdv2.Resource{}, err
			}
			v = next
		case uriResources:
			res, err := Resource(v, e.Value)
			if err != nil {
				return nil, cdv2.Resource{}, t.reg.missingResource(v, fmt.Errorf("local resource %s cannot be found", e.Value))
			}
			if i != len(u.Path)-1 {
				return nil, cdv2.Resource{}, errors.New("the selector seems to contain more path segements after a external resource")
			}
			return v, res, nil
		default:
			return nil, cdv2.Resource{}, fmt.Errorf("unknown keyword %s", e.Keyword)
		}
	}
	return v, cdv2.Resource{}, nil
}
