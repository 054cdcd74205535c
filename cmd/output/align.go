package output

import (
	"bytes"
	"fmt"
	"strings"
	"text/tabwriter"
	"unicode/utf8"
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
}

// render aligns the columns with text/tabwriter (3 spaces between columns,
// like kubectl) and then styles the header and the cells. Styling after
// alignment keeps escape sequences out of tabwriter's width count. Header
// cells must be non-empty and without spaces; newlines and tabs in cells are
// shown as spaces.
func (t *table) render(st Styles) string {
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 8, 3, ' ', 0)
	fmt.Fprintln(tw, strings.Join(t.header, "\t"))
	for _, row := range t.rows {
		texts := make([]string, len(row))
		for i, c := range row {
			texts[i] = oneLine(c.text)
		}
		fmt.Fprintln(tw, strings.Join(texts, "\t"))
	}
	_ = tw.Flush() // writes to a bytes.Buffer cannot fail
	// An empty last cell leaves the padding of the cell before it.
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	if !st.Enabled() {
		return strings.Join(lines, "\n") + "\n"
	}
	starts := t.columnStarts(lines[0])
	lines[0] = st.Bold(lines[0])
	for i, row := range t.rows {
		lines[i+1] = styleRow(st, lines[i+1], row, starts)
	}
	return strings.Join(lines, "\n") + "\n"
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
func oneLine(s string) string { return lineBreaks.Replace(s) }

var lineBreaks = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ", "\t", " ")

// orDash shows an empty value as "-".
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
