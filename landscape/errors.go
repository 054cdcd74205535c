package landscape

import (
	"fmt"
	"strings"
)

// Problem is one thing wrong with the input.
type Problem struct {
	// File is the file or directory, as the caller named it, with forward
	// slashes.
	File string
	// Document is the 1-based number of the YAML document in File, counting
	// only documents that are not empty. It is 0 when the problem concerns the
	// whole file or directory.
	Document int
	// Object names the object, like `Installation "app"`. It is empty when
	// the document could not be read far enough to know.
	Object string
	// Message says what is wrong, with the bad value and what is allowed.
	Message string
}

// String formats p as "FILE: document N: OBJECT: MESSAGE", leaving out the
// parts that are not known.
func (p Problem) String() string {
	var b strings.Builder
	b.WriteString(Where(p.File, p.Document))
	if p.Object != "" {
		b.WriteString(": ")
		b.WriteString(p.Object)
	}
	b.WriteString(": ")
	b.WriteString(p.Message)
	return b.String()
}

// Where names document number document (1-based) of file as problems name
// it, "FILE: document N", or file alone for document 0.
func Where(file string, document int) string {
	if document > 0 {
		return fmt.Sprintf("%s: document %d", file, document)
	}
	return file
}

// LoadError is the error [Loader.Load] returns when the input is invalid. It
// lists every problem found, in the order of the files and documents.
type LoadError struct {
	Problems []Problem
}

// Error returns one line per problem.
func (e *LoadError) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// objectName formats kind and name as `Installation "app"`, or only the kind
// when the name is not known. A missing kind is written "object".
func objectName(kind, name string) string {
	switch {
	case name == "":
		return kind
	case kind == "":
		kind = "object"
	}
	return fmt.Sprintf("%s %q", kind, name)
}
