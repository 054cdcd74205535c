package output

import (
	"io"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// NewRenderer returns a lipgloss renderer that writes for w, with color on
// or off as cmd decided (see iostreams.ColorEnabled). It never looks at the
// process environment or the terminal: color on means the 16-color ANSI
// profile, which is all the styles of this package use; color off means
// termenv.Ascii.
func NewRenderer(w io.Writer, color bool) *lipgloss.Renderer {
	profile := termenv.Ascii
	if color {
		profile = termenv.ANSI
	}
	r := lipgloss.NewRenderer(w, termenv.WithProfile(profile))
	r.SetColorProfile(profile)
	return r
}

// Styles colors parts of the output. Its helpers return text unchanged when
// color is off. The zero value (and NewStyles(nil)) is plain text.
type Styles struct {
	color bool

	green, red, yellow, faint, bold style
}

// style is a lipgloss style and the escape sequences it puts around a
// single line, computed once: lipgloss.Style.Render costs microseconds, and
// a big tree has tens of thousands of styled words.
type style struct {
	lipgloss.Style
	open, close string
}

func newStyle(s lipgloss.Style) style {
	const marker = "x"
	rendered := s.Render(marker)
	i := strings.Index(rendered, marker)
	return style{Style: s, open: rendered[:i], close: rendered[i+len(marker):]}
}

// NewStyles makes the styles from r. Color is off when r's color profile is
// termenv.Ascii; callers build r from streams.Out and set that profile when
// color is off, e.g. with NewRenderer. A nil r means plain text.
func NewStyles(r *lipgloss.Renderer) Styles {
	if r == nil {
		return Styles{}
	}
	return Styles{
		color:  r.ColorProfile() != termenv.Ascii,
		green:  newStyle(r.NewStyle().Foreground(lipgloss.Color("2"))),
		red:    newStyle(r.NewStyle().Foreground(lipgloss.Color("1"))),
		yellow: newStyle(r.NewStyle().Foreground(lipgloss.Color("3"))),
		faint:  newStyle(r.NewStyle().Faint(true)),
		bold:   newStyle(r.NewStyle().Bold(true)),
	}
}

// Enabled reports whether the styles color their text.
func (s Styles) Enabled() bool { return s.color }

// Green colors text green, for success.
func (s Styles) Green(text string) string { return s.apply(s.green, text) }

// Red colors text red, for failures.
func (s Styles) Red(text string) string { return s.apply(s.red, text) }

// Yellow colors text yellow, for work in progress.
func (s Styles) Yellow(text string) string { return s.apply(s.yellow, text) }

// Faint dims text that matters less, such as job IDs.
func (s Styles) Faint(text string) string { return s.apply(s.faint, text) }

// Bold emphasizes text, such as table headers.
func (s Styles) Bold(text string) string { return s.apply(s.bold, text) }

// Phase shows a Landscaper phase: Succeeded green, Failed and DeleteFailed
// red, every other phase yellow. An empty phase (or "-", the placeholder
// for one) is shown as "-", uncolored.
func (s Styles) Phase(phase string) string {
	switch phase {
	case "", "-":
		return "-"
	case "Succeeded":
		return s.Green(phase)
	case "Failed", "DeleteFailed":
		return s.Red(phase)
	default:
		return s.Yellow(phase)
	}
}

func (s Styles) apply(st style, text string) string {
	switch {
	case !s.color || text == "":
		return text
	case strings.ContainsAny(text, "\t\r\n"):
		return st.Render(text)
	}
	return st.open + text + st.close
}
