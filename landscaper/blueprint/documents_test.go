package blueprint

import "testing"

func TestIgnoredDocuments(t *testing.T) {
	for _, tc := range []struct {
		name string
		data string
		want int
	}{
		{"one", "kind: InstallationTemplate\nname: a\n", 0},
		{"empty", "", 0},
		{"trailing separator", "name: a\n---\n", 0},
		{"trailing comments", "name: a\n---\n# nothing here\n---\n\n", 0},
		{"leading separator", "---\nname: a\n", 0},
		{"leading comments", "# about the file\n---\nname: a\n", 0},
		{"two", "name: a\n---\nname: b\n", 1},
		{"three with empty between", "name: a\n---\n---\nname: b\n---\n# c\n---\nname: c\n", 2},
		{"separator with comment", "name: a\n--- # next\nname: b\n", 1},
		{"invalid second", "name: a\n---\nname: [b\n", 1},
		{"null document", "name: a\n---\nnull\n", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := IgnoredDocuments([]byte(tc.data)); got != tc.want {
				t.Errorf("IgnoredDocuments(%q) = %d, want %d", tc.data, got, tc.want)
			}
		})
	}
}
