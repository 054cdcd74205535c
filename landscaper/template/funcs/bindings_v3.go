package funcs

import (
	"github.com/lscli/lscli/landscaper/components/descriptor"
)

// bindingsV3 returns .cd as a v3alpha1 descriptor and .components as a
// plain list of them, as Landscaper gives them for a root in v3alpha1.
func (c *Components) bindingsV3() (cd, components any, err error) {
	if cd, err = descriptor.Encode(c.Root, descriptor.SchemaV3); err != nil {
		return nil, nil, err
	}
	list := make([]any, 0, len(c.List))
	for i := range c.List {
		m, err := descriptor.Encode(&c.List[i], descriptor.SchemaV3)
		if err != nil {
			return nil, nil, err
		}
		list = append(list, m)
	}
	return cd, list, nil
}
