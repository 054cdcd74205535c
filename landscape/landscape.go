package landscape

import (
	"slices"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"

	"github.com/lscli/lscli/fakecluster"
)

// Landscape is what [Loader.Load] read: decoded, defaulted and valid objects.
type Landscape struct {
	// Objects are in load order: files in the order they were found, and
	// documents in the order of the file.
	Objects []Document
}

// Document is one object and where it came from.
type Document struct {
	// Object is a pointer to a Landscaper or core/v1 type, such as
	// *v1alpha1.Installation, with TypeMeta and namespace set.
	Object fakecluster.Object
	// File is the file as the caller named it, with forward slashes.
	File string
	// Index is the 1-based number of the document in File, counting only
	// documents that are not empty.
	Index int
}

// Namespaces returns the namespaces of all objects, sorted, without
// duplicates.
func (l *Landscape) Namespaces() []string {
	var namespaces []string
	for _, d := range l.Objects {
		namespaces = append(namespaces, d.Object.GetNamespace())
	}
	slices.Sort(namespaces)
	return slices.Compact(namespaces)
}

// NamespacesWithoutDefaultContext returns, sorted, the namespaces of
// [Landscape.Namespaces] that have no Context named "default". Landscaper
// needs one in every namespace (spec.context defaults to it, and a real
// cluster's context controller copies it into every namespace), so the caller
// creates an empty one in each namespace returned.
func (l *Landscape) NamespacesWithoutDefaultContext() []string {
	withDefault := map[string]bool{}
	for _, d := range l.Objects {
		if c, ok := d.Object.(*lsv1alpha1.Context); ok && c.Name == lsv1alpha1.DefaultContextName {
			withDefault[c.Namespace] = true
		}
	}
	var missing []string
	for _, ns := range l.Namespaces() {
		if !withDefault[ns] {
			missing = append(missing, ns)
		}
	}
	return missing
}
