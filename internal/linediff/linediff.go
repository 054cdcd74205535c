// Package linediff tells where two texts part, for tests that compare long
// outputs byte for byte and should say more than "they differ".
package linediff

import (
	"fmt"
	"strings"
)

// maxShown is how much of a line Describe shows.
const maxShown = 400

// Describe returns "" when a and b are the same text, else the first line
// where they part, each side named (nameA, nameB) and quoted, or, when one
// is the start of the other, how many lines each has.
func Describe(nameA, a, nameB, b string) string {
	if a == b {
		return ""
	}
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	width := max(len(nameA), len(nameB)) + 1
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return fmt.Sprintf("line %d differs:\n%-*s %.*q\n%-*s %.*q", i+1,
				width, nameA+":", maxShown, al[i], width, nameB+":", maxShown, bl[i])
		}
	}
	return fmt.Sprintf("%s has %d lines, %s %d", nameA, len(al), nameB, len(bl))
}
