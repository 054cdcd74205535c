package fastyaml

import "unicode/utf8"

// checkText reports whether doc is text the subset can hold: valid UTF-8 of
// characters yaml.v2's reader accepts, with "\n" as the only line break
// (no "\r", NEL, LS or PS, which yaml.v2 also reads as breaks), no byte
// order mark, and no document marker ("---" or "..." at the start of a line
// followed by a blank or the end).
func checkText(doc []byte) bool {
	for i := 0; i < len(doc); {
		b := doc[i]
		switch {
		case plainText[b]:
			i++
		case b == '\n':
			i++
			if isMarker(doc[i:]) {
				return false
			}
		case b < 0x80:
			return false
		default:
			r, size := utf8.DecodeRune(doc[i:])
			if r == utf8.RuneError && size == 1 || r < 0xa0 || r == 0x2028 || r == 0x2029 || r == 0xfeff || r >= 0xfffe && r <= 0xffff {
				return false
			}
			i += size
		}
	}
	return !isMarker(doc)
}

// plainText holds the printable ASCII bytes and the tab.
var plainText = func() (t [256]bool) {
	for b := 0x20; b < 0x7f; b++ {
		t[b] = true
	}
	t['\t'] = true
	return t
}()

// isMarker reports whether line starts with a document marker.
func isMarker(line []byte) bool {
	if len(line) < 3 || !(line[0] == '-' && line[1] == '-' && line[2] == '-' || line[0] == '.' && line[1] == '.' && line[2] == '.') {
		return false
	}
	return len(line) == 3 || line[3] == ' ' || line[3] == '\t' || line[3] == '\n'
}
