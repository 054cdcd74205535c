package funcs

import (
	"encoding/base64"
	"errors"
	"fmt"

	cdv2 "github.com/gardener/landscaper/legacy-component-spec/bindings-go/apis/v2"
)

// ContentReader reads the content of a resource of one of the components.
type ContentReader interface {
	// ResourceContent returns the content of res, a resource of cd, and the
	// media type its access states.
	ResourceContent(cd *cdv2.ComponentDescriptor, res cdv2.Resource) (data []byte, mediaType string, err error)
}

// mediaTypeOctet is the media type whose content getResourceContent gives
// base64 encoded.
const mediaTypeOctet = "application/octet-stream"

// ResourceContent implements getResourceContent: the content of the
// resource a reference names (as for getResourceKey), as a string, base64
// encoded when the access's media type is application/octet-stream. Spiff's
// getResourceContent reads that string as YAML.
func (c *Components) ResourceContent(args ...any) (string, error) {
	data, mediaType, err := c.resourceContent(args)
	if err != nil {
		return "", err
	}
	if mediaType == mediaTypeOctet {
		return base64.StdEncoding.EncodeToString(data), nil
	}
	return string(data), nil
}

// resourceContent resolves the reference in args and reads the content.
func (c *Components) resourceContent(args []any) ([]byte, string, error) {
	switch {
	case len(args) == 0:
		return nil, "", errors.New("unable to provide key for empty relative artifact reference")
	case len(args) > 1:
		return nil, "", errors.New("this function only requires a single argument, but multiple were provided")
	case c == nil || c.Root == nil:
		return nil, "", errors.New("unable to use this function without ocm component version")
	}
	s, ok := args[0].(string)
	if !ok {
		return nil, "", errors.New("unable to assert the first argument as string")
	}
	ref, err := parseResourceReference(s)
	if err != nil {
		return nil, "", err
	}
	cd, res, err := c.resolveReference(ref)
	if err != nil {
		return nil, "", fmt.Errorf("unable to resolve relative resource reference: %w", err)
	}
	if c.Contents == nil {
		return nil, "", fmt.Errorf("unable to read resource content: no content of component %s:%s is available", cd.GetName(), cd.GetVersion())
	}
	data, mediaType, err := c.Contents.ResourceContent(cd, *res)
	if err != nil {
		return nil, "", fmt.Errorf("unable to read resource content: %w", err)
	}
	return data, mediaType, nil
}
