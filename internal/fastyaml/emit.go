package fastyaml

import "unicode/utf8"

// emit appends node n as encoding/json's Marshal writes the value
// YAMLToJSONStrict builds: objects with their keys sorted, no spaces,
// strings escaped with HTML escaping on.
func (p *parser) emit(out []byte, n int32) []byte {
	nd := &p.nodes[n]
	switch nd.kind {
	case kindRaw:
		return append(out, nd.val...)
	case kindStr:
		return appendString(out, nd.val)
	case kindMap:
		out = append(out, '{')
		for i, e := range p.kids[nd.first : nd.first+nd.n] {
			if i > 0 {
				out = append(out, ',')
			}
			out = appendString(out, e.key)
			out = append(out, ':')
			out = p.emit(out, e.val)
		}
		return append(out, '}')
	default:
		out = append(out, '[')
		for i, e := range p.kids[nd.first : nd.first+nd.n] {
			if i > 0 {
				out = append(out, ',')
			}
			out = p.emit(out, e.val)
		}
		return append(out, ']')
	}
}

const hexDigits = "0123456789abcdef"

// jsonSafe holds the ASCII bytes encoding/json writes as they are with
// HTML escaping on.
var jsonSafe = func() (t [256]bool) {
	for b := 0x20; b < utf8.RuneSelf; b++ {
		t[b] = b != '"' && b != '\\' && b != '<' && b != '>' && b != '&'
	}
	return t
}()

// appendString appends s as a JSON string as encoding/json's appendString
// does with escapeHTML: control characters, ", \, <, > and & escaped,
// invalid UTF-8 as \ufffd, U+2028 and U+2029 escaped.
func appendString(out, s []byte) []byte {
	out = append(out, '"')
	start := 0
	for i := 0; i < len(s); {
		b := s[i]
		if jsonSafe[b] {
			i++
			continue
		}
		if b < utf8.RuneSelf {
			out = append(out, s[start:i]...)
			switch b {
			case '\\', '"':
				out = append(out, '\\', b)
			case '\b':
				out = append(out, '\\', 'b')
			case '\f':
				out = append(out, '\\', 'f')
			case '\n':
				out = append(out, '\\', 'n')
			case '\r':
				out = append(out, '\\', 'r')
			case '\t':
				out = append(out, '\\', 't')
			default:
				out = append(out, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRune(s[i:])
		if r == utf8.RuneError && size == 1 {
			out = append(out, s[start:i]...)
			out = append(out, `\ufffd`...)
			i++
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			out = append(out, s[start:i]...)
			out = append(out, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	out = append(out, s[start:]...)
	return append(out, '"')
}
