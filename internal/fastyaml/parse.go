package fastyaml

import (
	"bytes"
	"slices"
	"unicode/utf8"
)

// Kinds of nodes.
const (
	kindMap = iota + 1 // entries are key and value
	kindSeq            // entries are values
	kindStr            // val is the string
	kindRaw            // val is the JSON literal: null, true, false or an integer
)

// node is a parsed value.
type node struct {
	kind uint8
	// val is the string of a kindStr node, the JSON text of a kindRaw one.
	val []byte
	// first and n are the entries of a collection in parser.kids.
	first, n int32
}

// entry is a key (nil in a sequence) and the index of its value.
type entry struct {
	key []byte
	val int32
}

// parser reads a document line by line. It panics with bail{} at anything
// outside the subset.
type parser struct {
	src []byte
	// pos is the start of the current line.
	pos   int
	nodes []node
	// kids holds the entries of finished collections, each contiguous.
	kids []entry
	// stack holds the entries of the collections being parsed.
	stack []entry
	// arena holds strings that are not slices of src: block scalars and
	// quoted scalars with escapes. Node values keep slices of it; appending
	// leaves what they see as it was.
	arena []byte
	depth int
}

// maxDepth bounds nesting; deeper documents go to yaml.v2.
const maxDepth = 200

// maxKey bounds the length of a key; yaml.v2 refuses simple keys longer
// than 1024 characters.
const maxKey = 1000

var (
	litNull  = []byte("null")
	litTrue  = []byte("true")
	litFalse = []byte("false")
)

func (p *parser) add(n node) int32 {
	p.nodes = append(p.nodes, n)
	return int32(len(p.nodes) - 1)
}

func (p *parser) enter() {
	p.depth++
	if p.depth > maxDepth {
		panic(bail{})
	}
}

// document parses the whole document: nothing (null), a block mapping or a
// block sequence.
func (p *parser) document() int32 {
	ind := p.next()
	if ind < 0 {
		return p.add(node{kind: kindRaw, val: litNull})
	}
	var root int32
	if j := p.pos + ind; p.isEntry(j) {
		root = p.seq(ind, j, false)
	} else {
		root = p.mapping(ind, j)
	}
	if p.next() >= 0 {
		panic(bail{})
	}
	return root
}

// next moves p.pos to the start of the next line that holds more than
// spaces and a comment and returns its indentation, or -1 at the end.
func (p *parser) next() int {
	src := p.src
	for p.pos < len(src) {
		j := p.pos
		for j < len(src) && src[j] == ' ' {
			j++
		}
		if j == len(src) {
			p.pos = j
			return -1
		}
		switch src[j] {
		case '\n':
			p.pos = j + 1
		case '#':
			p.pos = p.nextLine(j)
		case '\t':
			panic(bail{})
		default:
			return j - p.pos
		}
	}
	return -1
}

// eol returns the index of the line break at or after i, or len(src).
func (p *parser) eol(i int) int {
	if n := bytes.IndexByte(p.src[i:], '\n'); n >= 0 {
		return i + n
	}
	return len(p.src)
}

// nextLine returns the start of the line after the one holding i.
func (p *parser) nextLine(i int) int {
	e := p.eol(i)
	if e < len(p.src) {
		return e + 1
	}
	return e
}

// endLine checks that what follows a value at k is spaces and maybe a
// comment after at least one of them, and returns the start of the next
// line.
func (p *parser) endLine(k int) int {
	src := p.src
	i := k
	for i < len(src) && src[i] == ' ' {
		i++
	}
	if i == len(src) || src[i] == '\n' || src[i] == '#' && i > k {
		return p.nextLine(i)
	}
	panic(bail{})
}

// isEntry reports whether a block sequence entry ("- ") starts at j.
func (p *parser) isEntry(j int) bool {
	src := p.src
	if src[j] != '-' {
		return false
	}
	if j+1 == len(src) {
		return true
	}
	switch src[j+1] {
	case ' ', '\n':
		return true
	case '\t':
		panic(bail{})
	}
	return false
}

// plainStart reports whether a plain scalar of the subset may start at i:
// not at a blank or an indicator ("-" is one when a blank follows; keys and
// flow scalars refuse it on their own).
func plainStart(src []byte, i int) bool {
	switch src[i] {
	case ' ', '\t', '\n', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
		return false
	case '-':
		return i+1 < len(src) && src[i+1] != ' ' && src[i+1] != '\t' && src[i+1] != '\n'
	}
	return true
}

// mapping parses a block mapping at column col whose first key starts at j
// (at the start of a line or after "- ").
func (p *parser) mapping(col, j int) int32 {
	p.enter()
	base := len(p.stack)
	for {
		key, k := p.key(j)
		v := p.value(col, k)
		p.stack = append(p.stack, entry{key: key, val: v})
		ind := p.next()
		if ind < col {
			break
		}
		if ind > col {
			panic(bail{})
		}
		j = p.pos + col
	}
	p.depth--
	return p.finishMap(base)
}

// finishMap moves the entries from base on of the stack into a mapping
// node, sorted by key as encoding/json sorts them. Duplicate keys are
// errors of YAMLToJSONStrict: they go to yaml.v2.
func (p *parser) finishMap(base int) int32 {
	es := p.stack[base:]
	slices.SortFunc(es, func(a, b entry) int { return bytes.Compare(a.key, b.key) })
	for i := 1; i < len(es); i++ {
		if bytes.Equal(es[i-1].key, es[i].key) {
			panic(bail{})
		}
	}
	return p.finish(kindMap, base)
}

// finish moves the entries from base on of the stack into a collection node.
func (p *parser) finish(kind uint8, base int) int32 {
	first := len(p.kids)
	p.kids = append(p.kids, p.stack[base:]...)
	n := len(p.stack) - base
	p.stack = p.stack[:base]
	return p.add(node{kind: kind, first: int32(first), n: int32(n)})
}

// key parses the key of a block mapping entry at j and returns it (as
// decoded) and the position after its ":".
func (p *parser) key(j int) ([]byte, int) {
	src := p.src
	var key []byte
	var k int
	switch src[j] {
	case '"', '\'':
		key, k = p.quoted(j)
		if k >= len(src) || src[k] != ':' {
			panic(bail{})
		}
	default:
		if !plainStart(src, j) || src[j] == '-' {
			panic(bail{})
		}
		k = j
		for {
			if k == len(src) || src[k] == '\n' || src[k] == '\t' {
				panic(bail{})
			}
			if src[k] == ':' && (k+1 == len(src) || src[k+1] == ' ' || src[k+1] == '\n') {
				break
			}
			if src[k] == ' ' && k+1 < len(src) && src[k+1] == '#' {
				panic(bail{})
			}
			k++
		}
		key = src[j:k]
		if key[len(key)-1] == ' ' || !keyString(key) {
			panic(bail{})
		}
	}
	k++
	if k-j > maxKey || k < len(src) && src[k] != ' ' && src[k] != '\n' {
		panic(bail{})
	}
	return key, k
}

// isKey reports whether a block mapping entry starts at i, after "- ".
func (p *parser) isKey(i int) bool {
	src := p.src
	if src[i] == '"' || src[i] == '\'' {
		_, k := p.quoted(i)
		return k < len(src) && src[k] == ':'
	}
	if !plainStart(src, i) {
		return false
	}
	for k := i; k < len(src) && src[k] != '\n'; k++ {
		if src[k] == ':' && (k+1 == len(src) || src[k+1] == ' ' || src[k+1] == '\n' || src[k+1] == '\t') {
			return true
		}
		if (src[k] == ' ' || src[k] == '\t') && k+1 < len(src) && src[k+1] == '#' {
			return false
		}
	}
	return false
}

// value parses the value of a block mapping entry at column col, from k
// (after the ":") on, and leaves p.pos at the start of the line after it.
func (p *parser) value(col, k int) int32 {
	src := p.src
	i := k
	for i < len(src) && src[i] == ' ' {
		i++
	}
	if i == len(src) || src[i] == '\n' || src[i] == '#' && i > k {
		p.pos = p.nextLine(i)
		return p.nested(col, true)
	}
	return p.inline(col, i)
}

// nested parses a value given on the lines after its key or "-": a block
// node indented more than col, an indentless sequence at col (after a key),
// or else null.
func (p *parser) nested(col int, indentless bool) int32 {
	ind := p.next()
	if ind > col {
		j := p.pos + ind
		if p.isEntry(j) {
			return p.seq(ind, j, false)
		}
		return p.mapping(ind, j)
	}
	if ind == col && indentless && p.isEntry(p.pos+col) {
		return p.seq(col, p.pos+col, true)
	}
	return p.add(node{kind: kindRaw, val: litNull})
}

// seq parses a block sequence at column s whose first "-" is at j. An
// indentless sequence (the value of a key at the key's column) ends at a
// line of that column without "-".
func (p *parser) seq(s, j int, indentless bool) int32 {
	p.enter()
	src := p.src
	base := len(p.stack)
	for {
		i := j + 1
		for i < len(src) && src[i] == ' ' {
			i++
		}
		var v int32
		switch {
		case i == len(src) || src[i] == '\n' || src[i] == '#' && i > j+1:
			p.pos = p.nextLine(i)
			v = p.nested(s, false)
		case p.isEntry(i):
			panic(bail{})
		case p.isKey(i):
			v = p.mapping(i-p.pos, i)
		default:
			v = p.inline(s, i)
		}
		p.stack = append(p.stack, entry{val: v})
		ind := p.next()
		if ind < s {
			break
		}
		if ind > s {
			panic(bail{})
		}
		j = p.pos + s
		if !p.isEntry(j) {
			if indentless {
				break
			}
			panic(bail{})
		}
	}
	p.depth--
	return p.finish(kindSeq, base)
}

// inline parses a value that starts at i on the line of its key or "-";
// indent is the indentation of the collection holding it (for block
// scalars). It leaves p.pos at the start of the line after the value.
func (p *parser) inline(indent, i int) int32 {
	src := p.src
	var v int32
	var k int
	switch src[i] {
	case '"', '\'':
		var s []byte
		s, k = p.quoted(i)
		v = p.add(node{kind: kindStr, val: s})
	case '|', '>':
		return p.blockScalar(indent, i)
	case '{', '[':
		v, k = p.flow(i)
	default:
		if !plainStart(src, i) {
			panic(bail{})
		}
		e := i
		for e < len(src) && src[e] != '\n' {
			c := src[e]
			if c == '\t' || c == ':' && (e+1 == len(src) || src[e+1] == ' ' || src[e+1] == '\n') {
				panic(bail{})
			}
			if c == ' ' && e+1 < len(src) && src[e+1] == '#' {
				break
			}
			e++
		}
		k = e
		for src[e-1] == ' ' {
			e--
		}
		v = p.scalar(src[i:e])
	}
	p.pos = p.endLine(k)
	return v
}

// scalar makes the node of a plain scalar.
func (p *parser) scalar(s []byte) int32 {
	lit, isStr := resolve(s)
	if isStr {
		return p.add(node{kind: kindStr, val: s})
	}
	return p.add(node{kind: kindRaw, val: lit})
}

// quoted parses a single- or double-quoted scalar at i that ends on its
// line, and returns its value and the position after the closing quote.
func (p *parser) quoted(i int) ([]byte, int) {
	src := p.src
	q := src[i]
	for j := i + 1; j < len(src); j++ {
		switch c := src[j]; {
		case c == '\n':
			panic(bail{})
		case c == q:
			if q == '\'' && j+1 < len(src) && src[j+1] == '\'' {
				return p.unescape(i, j)
			}
			return src[i+1 : j], j + 1
		case c == '\\' && q == '"':
			return p.unescape(i, j)
		}
	}
	panic(bail{})
}

// unescape decodes the quoted scalar at i, with its first escape at j, into
// the arena.
func (p *parser) unescape(i, j int) ([]byte, int) {
	src := p.src
	q := src[i]
	start := len(p.arena)
	p.arena = append(p.arena, src[i+1:j]...)
	for j < len(src) {
		c := src[j]
		switch {
		case c == '\n':
			panic(bail{})
		case c == q && q == '\'':
			if j+1 < len(src) && src[j+1] == '\'' {
				p.arena = append(p.arena, '\'')
				j += 2
				continue
			}
			return p.arena[start:len(p.arena):len(p.arena)], j + 1
		case c == q:
			return p.arena[start:len(p.arena):len(p.arena)], j + 1
		case c == '\\' && q == '"':
			if j+1 == len(src) {
				panic(bail{})
			}
			switch e := src[j+1]; e {
			case '\\', '"':
				p.arena = append(p.arena, e)
			case 'n':
				p.arena = append(p.arena, '\n')
			case 't':
				p.arena = append(p.arena, '\t')
			case 'r':
				p.arena = append(p.arena, '\r')
			case 'u':
				if j+6 > len(src) {
					panic(bail{})
				}
				var r rune
				for _, h := range src[j+2 : j+6] {
					r <<= 4
					switch {
					case h >= '0' && h <= '9':
						r |= rune(h - '0')
					case h >= 'a' && h <= 'f':
						r |= rune(h - 'a' + 10)
					case h >= 'A' && h <= 'F':
						r |= rune(h - 'A' + 10)
					default:
						panic(bail{})
					}
				}
				if r >= 0xd800 && r <= 0xdfff {
					panic(bail{})
				}
				p.arena = utf8.AppendRune(p.arena, r)
				j += 4
			default:
				panic(bail{})
			}
			j += 2
		default:
			p.arena = append(p.arena, c)
			j++
		}
	}
	panic(bail{})
}

// blockScalar parses a literal or folded block scalar whose indicator is at
// i, in a collection of indentation indent, as yaml.v2's
// yaml_parser_scan_block_scalar does (without an indentation indicator).
// It leaves p.pos at the start of the first line after it.
func (p *parser) blockScalar(indent, i int) int32 {
	src := p.src
	literal := src[i] == '|'
	i++
	chomp := 0
	if i < len(src) {
		switch src[i] {
		case '+':
			chomp = 1
			i++
		case '-':
			chomp = -1
			i++
		}
	}
	k := i
	for k < len(src) && src[k] == ' ' {
		k++
	}
	if k < len(src) && src[k] != '\n' && (src[k] != '#' || k == i) {
		panic(bail{})
	}
	i = p.nextLine(k)

	start := len(p.arena)
	i, col, lineStart, trailing, maxIndent := p.breaks(i, 0)
	in := max(maxIndent, indent+1, 1)
	leadingBreak, leadingBlank := false, false
	for col == in && i < len(src) {
		trailingBlank := src[i] == ' ' || src[i] == '\t'
		if !literal && !leadingBlank && !trailingBlank && leadingBreak {
			if trailing == 0 {
				p.arena = append(p.arena, ' ')
			}
		} else if leadingBreak {
			p.arena = append(p.arena, '\n')
		}
		leadingBreak = false
		p.arena = appendBreaks(p.arena, trailing)
		leadingBlank = trailingBlank
		e := p.eol(i)
		p.arena = append(p.arena, src[i:e]...)
		i = e
		if i < len(src) {
			i++
			leadingBreak = true
		}
		i, col, lineStart, trailing, _ = p.breaks(i, in)
	}
	if chomp != -1 && leadingBreak {
		p.arena = append(p.arena, '\n')
	}
	if chomp == 1 {
		p.arena = appendBreaks(p.arena, trailing)
	}
	p.pos = lineStart
	return p.add(node{kind: kindStr, val: p.arena[start:len(p.arena):len(p.arena)]})
}

// breaks eats indentation and empty lines from i, the start of a line, as
// yaml_parser_scan_block_scalar_breaks does with indentation indent (0: not
// known yet). It returns where it stopped, that column, the start of that
// line, the line breaks eaten and the largest indentation seen.
func (p *parser) breaks(i, indent int) (pos, col, lineStart, n, maxIndent int) {
	src := p.src
	for {
		lineStart = i
		col = 0
		for (indent == 0 || col < indent) && i < len(src) && src[i] == ' ' {
			i++
			col++
		}
		maxIndent = max(maxIndent, col)
		if i < len(src) && src[i] == '\t' && (indent == 0 || col < indent) {
			panic(bail{})
		}
		if i == len(src) || src[i] != '\n' {
			return i, col, lineStart, n, maxIndent
		}
		i++
		n++
	}
}

func appendBreaks(b []byte, n int) []byte {
	for range n {
		b = append(b, '\n')
	}
	return b
}

// flow parses a flow mapping or sequence at i that ends on its line, and
// returns it and the position after it.
func (p *parser) flow(i int) (int32, int) {
	p.enter()
	src := p.src
	base := len(p.stack)
	isMap := src[i] == '{'
	end := byte(']')
	if isMap {
		end = '}'
	}
	i = skipSpaces(src, i+1)
	if i < len(src) && src[i] == end {
		i++
	} else {
		for {
			var key []byte
			if isMap {
				key, i = p.flowKey(i)
			}
			var v int32
			v, i = p.flowValue(i)
			p.stack = append(p.stack, entry{key: key, val: v})
			i = skipSpaces(src, i)
			if i == len(src) {
				panic(bail{})
			}
			if src[i] == end {
				i++
				break
			}
			if src[i] != ',' {
				panic(bail{})
			}
			i = skipSpaces(src, i+1)
			if i < len(src) && src[i] == end {
				panic(bail{})
			}
		}
	}
	p.depth--
	if isMap {
		return p.finishMap(base), i
	}
	return p.finish(kindSeq, base), i
}

func skipSpaces(src []byte, i int) int {
	for i < len(src) && src[i] == ' ' {
		i++
	}
	return i
}

// flowKey parses the key of a flow mapping entry at i, followed by ": ",
// and returns it and the position after the ":".
func (p *parser) flowKey(i int) ([]byte, int) {
	src := p.src
	var key []byte
	var k int
	if i < len(src) && (src[i] == '"' || src[i] == '\'') {
		key, k = p.quoted(i)
	} else {
		key, k = flowPlain(src, i)
		if !keyString(key) {
			panic(bail{})
		}
	}
	if k+1 >= len(src) || src[k] != ':' || src[k+1] != ' ' || k-i > maxKey {
		panic(bail{})
	}
	return key, k + 1
}

// flowValue parses a value in a flow collection at i (after spaces).
func (p *parser) flowValue(i int) (int32, int) {
	src := p.src
	i = skipSpaces(src, i)
	if i == len(src) {
		panic(bail{})
	}
	switch src[i] {
	case '{', '[':
		return p.flow(i)
	case '"', '\'':
		s, k := p.quoted(i)
		return p.add(node{kind: kindStr, val: s}), k
	}
	s, k := flowPlain(src, i)
	return p.scalar(s), k
}

// flowPlain scans a plain scalar in a flow collection at i, which ends at
// ":", ",", a bracket or the line's end, and returns it and where it ended.
// "?", "#" and tabs are left to yaml.v2.
func flowPlain(src []byte, i int) ([]byte, int) {
	if i == len(src) || !plainStart(src, i) || src[i] == '-' {
		panic(bail{})
	}
	e := i
loop:
	for ; e < len(src); e++ {
		switch src[e] {
		case ':', ',', '[', ']', '{', '}', '\n':
			break loop
		case '?', '#', '\t':
			panic(bail{})
		}
	}
	k := e
	for src[e-1] == ' ' {
		e--
	}
	return src[i:e], k
}
