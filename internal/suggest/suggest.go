// Package suggest finds what a user probably meant by a misspelt name: the
// nearest of the names that exist, by edit distance.
package suggest

import "strings"

// maxDistance is the largest edit distance taken for a misspelling.
const maxDistance = 2

// Closest returns the candidate nearest to s in edit distance, ignoring
// case, when it is near enough to be a misspelling of it (at most two
// edits); else "". Of candidates equally near, the first wins.
func Closest(s string, candidates []string) string {
	best, bestDist := "", maxDistance+1
	for _, c := range candidates {
		if d := editDistance(strings.ToLower(s), strings.ToLower(c)); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
