package output

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/lscli/lscli/internal/parallel"
)

// cell is one table cell: plain text and an optional style for it, such as
// Styles.Phase.
type cell struct {
	text  string
	style func(Styles, string) string
}

// plain is a cell without style.
func plain(text string) cell { return cell{text: text} }

// table is a header and rows of cells, aligned like kubectl output.
type table struct {
	header []string
	rows   [][]cell
	// noHeader leaves the header line out of the rendered table.
	noHeader bool
}

// render aligns the columns as text/tabwriter does with 3 spaces between
// columns (like kubectl), and then styles the header and the cells. Styling
// after alignment keeps escape sequences out of the width count. Header
// cells must be non-empty and without spaces; line breaks and tabs in cells
// are shown as spaces.
func (t *table) render(st Styles) string {
	texts := make([][]string, 0, len(t.rows)+1)
	// Colored rows are placed by the header's columns: without colors, a
	// table without a header is aligned on its rows alone, as kubectl's.
	if !t.noHeader || st.Enabled() {
		texts = append(texts, t.header)
	}
	for _, row := range t.rows {
		line := make([]string, len(row))
		for i, c := range row {
			line[i] = oneLine(c.text)
		}
		texts = append(texts, line)
	}
	if !st.Enabled() {
		return alignLines(texts)
	}
	lines := strings.Split(strings.TrimSuffix(alignLines(texts), "\n"), "\n")
	starts := t.columnStarts(lines[0])
	lines[0] = st.Bold(lines[0])
	for i, row := range t.rows {
		lines[i+1] = styleRow(st, lines[i+1], row, starts)
	}
	if t.noHeader {
		lines = lines[1:]
	}
	return strings.Join(lines, "\n") + "\n"
}

// minParallel is the fewest lines worth a goroutine of their own.
const minParallel = 4096

// columnPadding is the space between columns.
const columnPadding = 3

// alignLines writes lines of cells as text/tabwriter.NewWriter(w, 0, 8,
// columnPadding, ' ', 0) aligns them, each line without trailing spaces and
// ending in a newline. Tables whose lines differ in length, or whose cells
// hold tabwriter's escape or cell-ending characters, go through tabwriter
// itself; the others are aligned here in one pass, which is what makes a
// timeline of many thousand events fast to print.
func alignLines(lines [][]string) string {
	if len(lines) == 0 {
		return tabwriterLines(lines)
	}
	cols := len(lines[0])
	counts := make([]int, len(lines)*cols) // the cells' widths in runes
	chunks := parallel.Chunks(0, len(lines), minParallel)
	chunkWidths := make([][]int, len(chunks))
	err := parallel.Run(chunks, func(c, lo, hi int) error {
		widths := make([]int, cols)
		for l := lo; l < hi; l++ {
			if !plainLine(lines[l], cols) {
				return errNotRectangular
			}
			for i, cell := range lines[l] {
				n := utf8.RuneCountInString(cell)
				counts[l*cols+i] = n
				widths[i] = max(widths[i], n+columnPadding)
			}
		}
		chunkWidths[c] = widths
		return nil
	})
	if err != nil {
		return tabwriterLines(lines)
	}
	widths := make([]int, cols)
	for _, cw := range chunkWidths {
		for i, w := range cw {
			widths[i] = max(widths[i], w)
		}
	}
	lineWidth := 1
	for _, w := range widths {
		lineWidth += w
	}
	parts := make([][]byte, len(chunkWidths))
	_ = parallel.Run(chunks, func(c, lo, hi int) error {
		var b bytes.Buffer
		b.Grow((hi - lo) * lineWidth) // cells of more bytes than runes grow it
		for l := lo; l < hi; l++ {
			start := b.Len()
			for i, cell := range lines[l] {
				b.WriteString(cell)
				if i < cols-1 {
					for range widths[i] - counts[l*cols+i] {
						b.WriteByte(' ')
					}
				}
			}
			// An empty last cell leaves the padding of the cell before it.
			b.Truncate(start + len(bytes.TrimRight(b.Bytes()[start:], " ")))
			b.WriteByte('\n')
		}
		parts[c] = b.Bytes()
		return nil
	})
	total := 0
	for _, p := range parts {
		total += len(p)
	}
	var out strings.Builder
	out.Grow(total)
	for _, p := range parts {
		out.Write(p)
	}
	return out.String()
}

// errNotRectangular stops alignLines' first pass at a line that is not a
// plainLine: text/tabwriter aligns such tables.
var errNotRectangular = errors.New("not rectangular")

// plainLine reports whether line has cols cells and none holds a
// character text/tabwriter treats specially.
func plainLine(line []string, cols int) bool {
	if len(line) != cols {
		return false
	}
	for _, cell := range line {
		if !controlFree(cell) && (strings.ContainsAny(cell, "\t\n\v\f") || strings.IndexByte(cell, tabwriter.Escape) >= 0) {
			return false
		}
	}
	return true
}

// controlFree reports whether s has no control character (below 0x20) and
// no 0xff byte, which covers every character rectangular and oneLine look
// for; a byte loop is faster than strings.ContainsAny on short cells.
func controlFree(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0xff {
			return false
		}
	}
	return true
}

// tabwriterLines aligns lines with text/tabwriter, trimming trailing spaces.
func tabwriterLines(lines [][]string) string {
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 8, columnPadding, ' ', 0)
	for _, line := range lines {
		fmt.Fprintln(tw, strings.Join(line, "\t"))
	}
	_ = tw.Flush() // writes to a bytes.Buffer cannot fail
	out := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	for i, l := range out {
		out[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(out, "\n") + "\n"
}

// columnStarts finds where each column starts, in runes, from the aligned
// header line (before it is styled).
func (t *table) columnStarts(headerLine string) []int {
	starts := make([]int, len(t.header))
	pos := 0
	for i, h := range t.header {
		for pos < len(headerLine) && headerLine[pos] == ' ' {
			pos++
		}
		starts[i] = pos
		pos += len(h)
	}
	return starts
}

// styleRow applies the cells' styles to one aligned line.
func styleRow(st Styles, line string, row []cell, starts []int) string {
	runes := []rune(line)
	var b strings.Builder
	prev := 0
	for i, c := range row {
		if c.style == nil || c.text == "" {
			continue
		}
		// Trailing spaces of the last cell were trimmed.
		start := min(starts[i], len(runes))
		end := min(start+utf8.RuneCountInString(oneLine(c.text)), len(runes))
		b.WriteString(string(runes[prev:start]))
		b.WriteString(c.style(st, string(runes[start:end])))
		prev = end
	}
	b.WriteString(string(runes[prev:]))
	return b.String()
}

// oneLine replaces line breaks and tabs, which would break the alignment.
func oneLine(s string) string {
	if controlFree(s) || !strings.ContainsAny(s, "\r\n\t") {
		return s
	}
	return lineBreaks.Replace(s)
}

var lineBreaks = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ", "\t", " ")

// orDash shows an empty value as "-".
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
