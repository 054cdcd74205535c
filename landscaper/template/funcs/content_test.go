package funcs

import (
	"errors"
	"strings"
	"testing"

	cdv2 "github.com/gardener/landscaper/legacy-component-spec/bindings-go/apis/v2"

	"github.com/lscli/lscli/landscaper/components/descriptor"
)

// contents serves fixed content per resource name.
type contents map[string][2]string

func (c contents) ResourceContent(_ *cdv2.ComponentDescriptor, res cdv2.Resource) ([]byte, string, error) {
	v, ok := c[res.Name]
	if !ok {
		return nil, "", errors.New("no content")
	}
	return []byte(v[0]), v[1], nil
}

func TestResourceContent(t *testing.T) {
	c := testComponents(t)
	c.Contents = contents{"image": {"text", "text/plain"}}
	if got, err := c.ResourceContent("cd://resources/image"); err != nil || got != "text" {
		t.Fatalf("text: %q %v", got, err)
	}
	c.Contents = contents{"image": {"bytes", "application/octet-stream"}}
	if got, err := c.ResourceContent("cd://resources/image"); err != nil || got != "Ynl0ZXM=" {
		t.Fatalf("octet-stream: %q %v", got, err)
	}
	for args, want := range map[string]string{
		"":                    "unable to provide key for empty relative artifact reference",
		"cd://resources/nope": "unable to resolve relative resource reference",
		"cd://componentReferences/db/resources/chart": "unable to read resource content: no content",
	} {
		var err error
		if args == "" {
			_, err = c.ResourceContent()
		} else {
			_, err = c.ResourceContent(args)
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err %v, want %q", args, err, want)
		}
	}
	if _, err := (&Components{}).ResourceContent("cd://resources/x"); err == nil || err.Error() != "unable to use this function without ocm component version" {
		t.Errorf("no component: %v", err)
	}
}

func TestBindingsV3(t *testing.T) {
	c := testComponents(t)
	c.Schema = descriptor.SchemaV3
	cd, list, err := c.Bindings()
	if err != nil {
		t.Fatal(err)
	}
	if cd.(map[string]any)["kind"] != "ComponentVersion" {
		t.Errorf(".cd: %v", cd)
	}
	if l, ok := list.([]any); !ok || len(l) != len(c.List) {
		t.Errorf(".components: %T %v", list, list)
	}
	v3, _ := descriptor.Encode(c.Root, descriptor.SchemaV3)
	if res, err := c.Resource(v3, "name", "image"); err != nil || res["name"] != "image" {
		t.Errorf("getResource with a v3 descriptor: %v %v", res, err)
	}
}
