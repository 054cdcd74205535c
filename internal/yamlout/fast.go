package yamlout

import (
	"cmp"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// The YAML lscli prints is go.yaml.in/yaml/v2's (sigs.k8s.io/yaml's), and
// its encoder spends microseconds on every scalar: -o yaml of 100,000
// objects took 15 s of CPU. fastYAML writes the same bytes for the values
// that make up all of lscli's usual objects, block mappings and sequences
// of plain, double-quoted and literal scalars of printable ASCII, in a
// fraction of that, and declines anything else (strings that would be
// folded at the line width or need escapes or quotes of another kind,
// non-ASCII text, long keys, keys yaml.v2 may sort either way), which then
// goes through yaml.v2 as a whole. TestFastYAMLIsYAMLv2,
// TestFastYAMLLiterals and TestFastYAMLFoldsNothing compare the two on
// random values built to hit every rule below.

// yamlLineWidth is yaml.v2's best width: a plain or double-quoted scalar is
// folded at a space beyond this column.
const yamlLineWidth = 80

// yamlMaxSimpleKey is the longest key yaml.v2 writes as "key:"; a longer
// one is written as a complex key ("? key").
const yamlMaxSimpleKey = 128

// fastYAML appends the YAML document yaml.v2 writes for v, a mapping or a
// sequence as readYAMLValue returns them, to dst. ok is false, and dst is
// to be dropped, when v holds something fastYAML does not write.
func fastYAML(dst []byte, v any) (out []byte, ok bool) {
	w := yamlWriter{buf: dst}
	switch v := v.(type) {
	case map[any]any:
		if len(v) == 0 {
			return nil, false
		}
		ok = w.mapping(v, 0, false)
	case []any:
		if len(v) == 0 {
			return nil, false
		}
		ok = w.sequence(v, 0, false)
	}
	return w.buf, ok
}

// yamlWriter writes block YAML as yaml.v2's emitter does.
type yamlWriter struct {
	buf  []byte
	keys []string
}

// mapping writes the entries of m as a block mapping whose keys start at
// column indent; with inline, the first key follows on the current line
// (after a sequence's "- ").
func (w *yamlWriter) mapping(m map[any]any, indent int, inline bool) bool {
	start := len(w.keys)
	withDigits := 0
	for k := range m {
		s, isString := k.(string)
		if !isString || !yamlSimpleChars(s) {
			return false
		}
		if strings.ContainsAny(s, "0123456789") {
			withDigits++
		}
		w.keys = append(w.keys, s)
	}
	keys := w.keys[start:]
	defer func() { w.keys = w.keys[:start] }()
	if !sortYAMLKeys(keys, withDigits) {
		return false
	}
	for i, k := range keys {
		if i > 0 || !inline {
			w.indent(indent)
		}
		if len(k) > yamlMaxSimpleKey {
			return false
		}
		before := len(w.buf)
		if !w.str(k, true, 0) {
			return false
		}
		// The value starts after "key: "; keys are ASCII, a byte a column.
		valueCol := indent + len(w.buf) - before + 2
		w.buf = append(w.buf, ':')
		switch v := m[k].(type) {
		case map[any]any:
			if len(v) == 0 {
				w.buf = append(w.buf, " {}\n"...)
			} else {
				w.buf = append(w.buf, '\n')
				if !w.mapping(v, indent+2, false) {
					return false
				}
			}
		case []any:
			if len(v) == 0 {
				w.buf = append(w.buf, " []\n"...)
			} else {
				// yaml.v2 does not indent a sequence in a mapping.
				w.buf = append(w.buf, '\n')
				if !w.sequence(v, indent, false) {
					return false
				}
			}
		default:
			w.buf = append(w.buf, ' ')
			if !w.scalar(v, valueCol, indent+2) {
				return false
			}
		}
	}
	return true
}

// sequence writes the items of l as a block sequence whose dashes are at
// column indent; with inline, the first dash follows on the current line.
func (w *yamlWriter) sequence(l []any, indent int, inline bool) bool {
	for i, item := range l {
		if i > 0 || !inline {
			w.indent(indent)
		}
		w.buf = append(w.buf, "- "...)
		switch v := item.(type) {
		case map[any]any:
			if len(v) == 0 {
				w.buf = append(w.buf, "{}\n"...)
			} else if !w.mapping(v, indent+2, true) {
				return false
			}
		case []any:
			if len(v) == 0 {
				w.buf = append(w.buf, "[]\n"...)
			} else if !w.sequence(v, indent+2, true) {
				return false
			}
		default:
			if !w.scalar(v, indent+2, indent+2) {
				return false
			}
		}
	}
	return true
}

func (w *yamlWriter) indent(n int) {
	for range n {
		w.buf = append(w.buf, ' ')
	}
}

// scalar writes a scalar value that starts at column col, and the end of
// its line; the lines of a literal block scalar are indented by block.
func (w *yamlWriter) scalar(v any, col, block int) bool {
	if s, ok := v.(string); ok && strings.IndexByte(s, '\n') >= 0 {
		return w.literal(s, block)
	}
	if !w.oneLineScalar(v, col) {
		return false
	}
	w.buf = append(w.buf, '\n')
	return true
}

// oneLineScalar writes a scalar value without a line break, starting at
// column col.
func (w *yamlWriter) oneLineScalar(v any, col int) bool {
	switch v := v.(type) {
	case nil:
		w.buf = append(w.buf, "null"...)
	case bool:
		w.buf = strconv.AppendBool(w.buf, v)
	case int:
		w.buf = strconv.AppendInt(w.buf, int64(v), 10)
	case int64:
		w.buf = strconv.AppendInt(w.buf, v, 10)
	case uint64:
		w.buf = strconv.AppendUint(w.buf, v, 10)
	case float64:
		s := strconv.FormatFloat(v, 'g', -1, 64)
		switch s {
		case "+Inf":
			s = ".inf"
		case "-Inf":
			s = "-.inf"
		case "NaN":
			s = ".nan"
		}
		w.buf = append(w.buf, s...)
	case string:
		return w.str(v, false, col)
	default:
		return false
	}
	return true
}

// str writes s as yaml.v2 writes a string: plain when it reads back as
// that string, else double-quoted; it declines what needs more (see
// fastYAML). A key is never folded; a value starting at column col is
// declined when it could be.
func (w *yamlWriter) str(s string, key bool, col int) bool {
	if !yamlSimpleChars(s) {
		return false
	}
	quoted := !plainString(s)
	if !key && strings.IndexByte(s, ' ') >= 0 {
		end := col + len(s)
		if quoted {
			end += 2
		}
		if end > yamlLineWidth {
			return false
		}
	}
	if !quoted {
		if !plainAllowed(s) {
			return false // yaml.v2 would single-quote it
		}
		w.buf = append(w.buf, s...)
		return true
	}
	w.buf = append(w.buf, '"')
	w.buf = append(w.buf, s...)
	w.buf = append(w.buf, '"')
	return true
}

// literal writes s, which has a line break, as yaml.v2 writes such a
// string: a literal block scalar ("|", "|-" without a final line break,
// "|2" when it starts with a space or a line break) whose lines are
// indented by indent, empty lines left empty. It declines what yaml.v2
// writes otherwise: characters other than printable ASCII and line breaks,
// a space at the end or before a line break (double-quoted), and more than
// one line break at the end ("|+", after which yaml.v2 may end the
// document with "...").
func (w *yamlWriter) literal(s string, indent int) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 0x20 || c > 0x7e) && c != '\n' {
			return false
		}
	}
	if s[len(s)-1] == ' ' || strings.Contains(s, " \n") || s == "\n" || strings.HasSuffix(s, "\n\n") {
		return false
	}
	w.buf = append(w.buf, '|')
	if s[0] == ' ' || s[0] == '\n' {
		w.buf = append(w.buf, '2')
	}
	body, clip := strings.CutSuffix(s, "\n")
	if !clip {
		w.buf = append(w.buf, '-')
	}
	w.buf = append(w.buf, '\n')
	for line := range strings.SplitSeq(body, "\n") {
		if line != "" {
			w.indent(indent)
			w.buf = append(w.buf, line...)
		}
		w.buf = append(w.buf, '\n')
	}
	return true
}

// yamlSimpleChars reports whether s has only printable ASCII characters
// that a double-quoted scalar writes as they are (no quote, no backslash).
func yamlSimpleChars(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// plainString reports whether yaml.v2 asks for s in plain style: it reads
// back as the string s (see yamlResolvesToString) and is no base 60 float.
func plainString(s string) bool {
	return s != "" && yamlResolvesToString(s) && !isYAMLBase60Float(s)
}

// plainAllowed reports whether yaml.v2's emitter writes s, made of simple
// characters, plain in block context (its analysis of the scalar): no
// leading or trailing space, no document marker at the start, no indicator
// where it would start a YAML construct.
func plainAllowed(s string) bool {
	if s == "" || s[0] == ' ' || s[len(s)-1] == ' ' {
		return false
	}
	if strings.HasPrefix(s, "---") || strings.HasPrefix(s, "...") {
		return false
	}
	blankAfter := func(i int) bool { return i+1 >= len(s) || s[i+1] == ' ' }
	switch s[0] {
	case '#', ',', '[', ']', '{', '}', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
		return false
	case '?', ':', '-':
		if blankAfter(0) {
			return false
		}
	}
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case ':':
			if blankAfter(i) {
				return false
			}
		case '#':
			if s[i-1] == ' ' {
				return false
			}
		}
	}
	return true
}

// yamlWords are the plain scalars YAML 1.1 reads as booleans, null or
// special floats.
var yamlWords = map[string]bool{
	"y": true, "Y": true, "yes": true, "Yes": true, "YES": true, "true": true, "True": true, "TRUE": true,
	"on": true, "On": true, "ON": true, "n": true, "N": true, "no": true, "No": true, "NO": true,
	"false": true, "False": true, "FALSE": true, "off": true, "Off": true, "OFF": true,
	"~": true, "null": true, "Null": true, "NULL": true,
	".nan": true, ".NaN": true, ".NAN": true, ".inf": true, ".Inf": true, ".INF": true,
	"+.inf": true, "+.Inf": true, "+.INF": true, "-.inf": true, "-.Inf": true, "-.INF": true,
}

var (
	yamlFloatSyntax = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)
	yamlBase60Float = regexp.MustCompile(`^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`)
	yamlTimestamps  = []string{"2006-1-2T15:4:5.999999999Z07:00", "2006-1-2t15:4:5.999999999Z07:00", "2006-1-2 15:4:5.999999999", "2006-1-2"}
)

// yamlResolvesToString reports whether yaml.v2 reads the plain scalar s as
// a string: not a boolean, null, number or timestamp as YAML 1.1 (and
// yaml.v2) resolve them by the first character.
func yamlResolvesToString(s string) bool {
	switch c := s[0]; {
	case strings.IndexByte("yYnNtTfFoO~", c) >= 0:
		return !yamlWords[s]
	case c == '.':
		if yamlWords[s] {
			return false
		}
		_, err := strconv.ParseFloat(s, 64)
		return err != nil
	case c == '+' || c == '-' || c >= '0' && c <= '9':
		if yamlWords[s] || yamlTimestamp(s) {
			return false
		}
		plain := strings.ReplaceAll(s, "_", "")
		if _, err := strconv.ParseInt(plain, 0, 64); err == nil {
			return false
		}
		if _, err := strconv.ParseUint(plain, 0, 64); err == nil {
			return false
		}
		if yamlFloatSyntax.MatchString(plain) {
			if _, err := strconv.ParseFloat(plain, 64); err == nil {
				return false
			}
		}
		if rest, ok := strings.CutPrefix(plain, "0b"); ok {
			if _, err := strconv.ParseInt(rest, 2, 64); err == nil {
				return false
			}
			if _, err := strconv.ParseUint(rest, 2, 64); err == nil {
				return false
			}
		} else if rest, ok := strings.CutPrefix(plain, "-0b"); ok {
			if _, err := strconv.ParseInt("-"+rest, 2, 64); err == nil {
				return false
			}
		}
	}
	return true
}

// yamlTimestamp reports whether yaml.v2 reads the plain scalar s as a
// timestamp: four digits, a dash, then one of its formats.
func yamlTimestamp(s string) bool {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i != 4 || i == len(s) || s[i] != '-' {
		return false
	}
	for _, format := range yamlTimestamps {
		if _, err := time.Parse(format, s); err == nil {
			return true
		}
	}
	return false
}

// isYAMLBase60Float reports whether yaml.v2 quotes s as a YAML 1.1 base 60
// float ("1:20").
func isYAMLBase60Float(s string) bool {
	if s == "" {
		return false
	}
	c := s[0]
	if !(c == '+' || c == '-' || c >= '0' && c <= '9') || strings.IndexByte(s, ':') < 0 {
		return false
	}
	return yamlBase60Float.MatchString(s)
}

// sortYAMLKeys sorts keys of simple characters, of which withDigits have
// digits, as yaml.v2 sorts them, and reports whether that order is the one
// yaml.v2 gives. yaml.v2 compares runs of digits by their value, which for
// some sets of keys is no order ("0o1" < "1.5" < "007" < "0o1"): the order
// it gives them then depends on the order Go's map hands them out. Keys of
// which at most one has digits, and none 19 in a row (whose value
// overflows), are in an order compareYAMLKeys gives; other sets are sorted
// by yaml.v2's comparison and kept when it orders every pair of them the
// same way.
func sortYAMLKeys(keys []string, withDigits int) bool {
	if withDigits <= 1 && !slices.ContainsFunc(keys, longDigitRun) {
		slices.SortFunc(keys, compareYAMLKeys)
		return true
	}
	if len(keys) > maxCheckedKeys {
		return false
	}
	bs := make([][]byte, len(keys))
	for i, k := range keys {
		bs[i] = []byte(k)
	}
	slices.SortFunc(bs, compareBy[byte])
	for i := range bs {
		for j := i + 1; j < len(bs); j++ {
			if !keyLess(bs[i], bs[j]) || keyLess(bs[j], bs[i]) {
				return false
			}
		}
		keys[i] = string(bs[i])
	}
	return true
}

// maxCheckedKeys is the most keys with digits whose order sortYAMLKeys
// checks pair by pair.
const maxCheckedKeys = 64

// longDigitRun reports whether s has 19 digits in a row.
func longDigitRun(s string) bool {
	run := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			run = 0
		} else if run++; run >= 19 {
			return true
		}
	}
	return false
}

// compareYAMLKeys orders keys of simple characters as yaml.v2 sorts them
// when at most one of them has digits, and none has 19 in a row:
// character by character, other characters, then digits, then letters,
// each by code point; a key before the keys it starts.
func compareYAMLKeys(a, b string) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return cmp.Compare(keyRank(a[i]), keyRank(b[i]))
		}
	}
	return cmp.Compare(len(a), len(b))
}

// keyRank orders a character of a key: other characters, digits, letters,
// each by code point.
func keyRank(c byte) int {
	switch {
	case isLetter(c):
		return 512 + int(c)
	case isDigit(c):
		return 256 + int(c)
	}
	return int(c)
}

// keyLess is yaml.v2's comparison of two string keys, given as their
// bytes (ASCII keys) or runes: letters by code point and after anything
// else, runs of digits by their value (an int64, which a long run
// overflows, as in yaml.v2), and a run with leading zeros after the same
// value without.
func keyLess[C byte | rune](a, b []C) bool {
	letter := func(c C) bool { return unicode.IsLetter(rune(c)) }
	digit := func(c C) bool { return unicode.IsDigit(rune(c)) }
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] == b[i] {
			continue
		}
		al, bl := letter(a[i]), letter(b[i])
		if al && bl {
			return a[i] < b[i]
		}
		if al || bl {
			return bl
		}
		var an, bn int64
		if a[i] == '0' || b[i] == '0' {
			for j := i - 1; j >= 0 && digit(a[j]); j-- {
				if a[j] != '0' {
					an, bn = 1, 1
					break
				}
			}
		}
		ai, bi := i, i
		for ; ai < len(a) && digit(a[ai]); ai++ {
			an = an*10 + int64(a[ai]-'0')
		}
		for ; bi < len(b) && digit(b[bi]); bi++ {
			bn = bn*10 + int64(b[bi]-'0')
		}
		if an != bn {
			return an < bn
		}
		if ai != bi {
			return ai < bi
		}
		return a[i] < b[i]
	}
	return len(a) < len(b)
}

// compareBy turns keyLess into a comparison for sorting.
func compareBy[C byte | rune](a, b []C) int {
	switch {
	case keyLess(a, b):
		return -1
	case keyLess(b, a):
		return 1
	}
	return 0
}

func isLetter(c byte) bool { return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
