package suggest

import "testing"

func TestClosest(t *testing.T) {
	kinds := []string{"Installation", "Target", "DataObject", "Context"}
	for _, tt := range []struct{ in, want string }{
		{"Instalation", "Installation"},  // one edit
		{"installation", "Installation"}, // case only
		{"Targte", "Target"},             // two edits
		{"Taret", "Target"},
		{"Deployment", ""}, // nothing near
		{"", ""},
		{"Contxet", "Context"},
	} {
		if got := Closest(tt.in, kinds); got != tt.want {
			t.Errorf("Closest(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := Closest("ab", []string{"ax", "ay"}); got != "ax" {
		t.Errorf("of equally near candidates: %q, want the first", got)
	}
}

func TestEditDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"a", "", 1}, {"", "abc", 3}, {"kitten", "sitting", 3}, {"flaw", "lawn", 2}, {"same", "same", 0}} {
		if got := editDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := editDistance(tt.b, tt.a); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.b, tt.a, got, tt.want)
		}
	}
}
