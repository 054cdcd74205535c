package limits

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// laughs is a "billion laughs" document: levels of lists of ten aliases to
// the level before, 10^levels nodes expanded.
func laughs(levels int) string {
	var b strings.Builder
	b.WriteString("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < levels; i++ {
		fmt.Fprintf(&b, "a%d: &a%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*a%d, ", i-1), 10), ", "))
	}
	return b.String()
}

func TestCheckYAML(t *testing.T) {
	tests := []struct {
		name, doc string
		max       int64
		err       string
	}{
		{name: "no aliases", doc: "a: [1, 2, 3]\n", max: 3},
		{name: "a few aliases", doc: "a: &a {x: 1}\nb: *a\nc: *a\n", max: 100},
		{name: "billion laughs", doc: laughs(9), err: "document 1: its aliases expand it to more than 10000000 nodes, more than limits.yamlNodes (10000000)"},
		{name: "small limit", doc: laughs(3), max: 500, err: "more than limits.yamlNodes (500)"},
		{name: "second document", doc: "a: 1\n---\n" + laughs(4), max: 1000, err: "document 2:"},
		{name: "not YAML", doc: "a: [\n*b", max: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckYAML([]byte(tt.doc), tt.max)
			if tt.err == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var le *Error
			if err == nil || !strings.Contains(err.Error(), tt.err) || !errors.As(err, &le) {
				t.Fatalf("err = %v, want %q", err, tt.err)
			}
		})
	}
}
