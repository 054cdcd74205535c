package output

import (
	"io"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

func TestStyles(t *testing.T) {
	tests := []struct {
		name  string
		st    Styles
		color bool
		want  map[string]string // Phase input -> output
	}{
		{name: "zero value", st: Styles{}, want: map[string]string{
			"Succeeded": "Succeeded", "Failed": "Failed", "Init": "Init", "": "-",
		}},
		{name: "nil renderer", st: NewStyles(nil), want: map[string]string{"Failed": "Failed"}},
		{name: "color off", st: plainStyles(), want: map[string]string{
			"Succeeded": "Succeeded", "DeleteFailed": "DeleteFailed", "Progressing": "Progressing", "": "-",
		}},
		{name: "color on", st: colorStyles(), color: true, want: map[string]string{
			"Succeeded":       "\x1b[32mSucceeded\x1b[0m",
			"Failed":          "\x1b[31mFailed\x1b[0m",
			"DeleteFailed":    "\x1b[31mDeleteFailed\x1b[0m",
			"Progressing":     "\x1b[33mProgressing\x1b[0m",
			"CleanupOrphaned": "\x1b[33mCleanupOrphaned\x1b[0m",
			"":                "-",
			"-":               "-",
		}},
		{name: "ascii renderer from caller", st: NewStyles(asciiRenderer()), want: map[string]string{"Succeeded": "Succeeded"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.st.Enabled() != tt.color {
				t.Errorf("Enabled() = %v, want %v", tt.st.Enabled(), tt.color)
			}
			for in, want := range tt.want {
				if got := tt.st.Phase(in); got != want {
					t.Errorf("Phase(%q) = %q, want %q", in, got, want)
				}
			}
			if !tt.color {
				for _, f := range []func(string) string{tt.st.Green, tt.st.Red, tt.st.Yellow, tt.st.Faint, tt.st.Bold} {
					if got := f("text"); got != "text" {
						t.Errorf("helper with color off = %q, want plain text", got)
					}
				}
			}
		})
	}
}

func TestStylesColorHelpers(t *testing.T) {
	st := colorStyles()
	for _, tt := range []struct{ got, want string }{
		{st.Green("x"), "\x1b[32mx\x1b[0m"},
		{st.Red("x"), "\x1b[31mx\x1b[0m"},
		{st.Yellow("x"), "\x1b[33mx\x1b[0m"},
		{st.Faint("x"), "\x1b[2mx\x1b[0m"},
		{st.Bold("x"), "\x1b[1mx\x1b[0m"},
		{st.Bold(""), ""},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

// asciiRenderer is built the way the brief of cmd describes it: from the
// output writer, with termenv.Ascii set when color is off.
func asciiRenderer() *lipgloss.Renderer {
	r := lipgloss.NewRenderer(io.Discard, termenv.WithProfile(termenv.Ascii))
	r.SetColorProfile(termenv.Ascii)
	return r
}

// TestStylesMatchLipgloss checks that the cached escape sequences give the
// same text as lipgloss, for single and multiple lines.
func TestStylesMatchLipgloss(t *testing.T) {
	st := colorStyles()
	for _, text := range []string{"x", "Succeeded", "two words", "line one\nline two", "tab\there"} {
		for _, s := range []style{st.green, st.red, st.yellow, st.faint, st.bold} {
			if got, want := st.apply(s, text), s.Render(text); got != want {
				t.Errorf("apply(%q) = %q, lipgloss renders %q", text, got, want)
			}
		}
	}
}
