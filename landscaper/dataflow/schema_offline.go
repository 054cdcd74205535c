package dataflow

import (
	"github.com/xeipuuv/gojsonreference"
	"github.com/xeipuuv/gojsonschema"
)

// offlineLoader is a schema loader whose references load nothing: the
// validator would fetch a $ref it has not seen from the network or the
// host's files. resolve refuses such references before the validator sees
// them; this keeps it so for references that only an "$id" makes remote
// (a relative $ref below "$id": "https://...").
type offlineLoader struct {
	gojsonschema.JSONLoader
}

// LoaderFactory returns the factory of the loaders that refuse.
func (offlineLoader) LoaderFactory() gojsonschema.JSONLoaderFactory { return offlineFactory{} }

// offlineFactory makes loaders that refuse.
type offlineFactory struct{}

// New returns a loader for source that refuses to load it.
func (offlineFactory) New(source string) gojsonschema.JSONLoader {
	return refusedLoader{source: source}
}

// refusedLoader is a reference the validator wanted to load.
type refusedLoader struct {
	source string
}

func (l refusedLoader) JsonSource() any { return l.source }

// LoadJSON refuses.
func (l refusedLoader) LoadJSON() (any, error) { return nil, refused(l.source) }

func (l refusedLoader) JsonReference() (gojsonreference.JsonReference, error) {
	return gojsonreference.NewJsonReference(l.source)
}

func (l refusedLoader) LoaderFactory() gojsonschema.JSONLoaderFactory { return offlineFactory{} }
