package linediff

import (
	"strings"
	"testing"
)

func TestDescribe(t *testing.T) {
	for _, tc := range []struct{ a, b, want string }{
		{"x\ny", "x\ny", ""},
		{"x\ny\nz", "x\nY\nz", "line 2 differs:\nA: \"y\"\nB: \"Y\""},
		{"x\ny", "x\ny\nz", "A has 2 lines, B 3"},
	} {
		if got := Describe("A", tc.a, "B", tc.b); got != tc.want {
			t.Errorf("Describe(%q, %q) = %q, want %q", tc.a, tc.b, got, tc.want)
		}
	}
	long := strings.Repeat("x", 1000)
	if got := Describe("A", long, "B", long+"y"); len(got) > 2*maxShown+100 {
		t.Errorf("a long line is shown whole: %d bytes", len(got))
	}
}
