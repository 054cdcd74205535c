package fastyaml

import (
	"bytes"
	"strconv"
)

// special are the plain scalars yaml.v2 (resolve.go) reads as null, a
// boolean, or a float it has a name for; nil for the floats, which the
// subset leaves to yaml.v2.
var special = map[string][]byte{
	"": litNull, "~": litNull, "null": litNull, "Null": litNull, "NULL": litNull,
	"y": litTrue, "Y": litTrue, "yes": litTrue, "Yes": litTrue, "YES": litTrue,
	"true": litTrue, "True": litTrue, "TRUE": litTrue,
	"on": litTrue, "On": litTrue, "ON": litTrue,
	"n": litFalse, "N": litFalse, "no": litFalse, "No": litFalse, "NO": litFalse,
	"false": litFalse, "False": litFalse, "FALSE": litFalse,
	"off": litFalse, "Off": litFalse, "OFF": litFalse,
	".nan": nil, ".NaN": nil, ".NAN": nil,
	".inf": nil, ".Inf": nil, ".INF": nil,
	"+.inf": nil, "+.Inf": nil, "+.INF": nil,
	"-.inf": nil, "-.Inf": nil, "-.INF": nil,
}

// hint is yaml.v2's resolveTable: the first characters of plain scalars
// that may be something other than a string.
var hint = func() (t [256]byte) {
	t['+'], t['-'] = 'S', 'S'
	for c := '0'; c <= '9'; c++ {
		t[c] = 'D'
	}
	for _, c := range "yYnNtTfFoO~" {
		t[c] = 'M'
	}
	t['.'] = '.'
	return t
}()

// resolve reads a plain scalar as yaml.v2 does and returns the JSON literal
// it becomes, or isStr when it stays a string. It bails at the values the
// subset leaves to yaml.v2: floats (and the integers yaml.v2 reads in other
// bases or beyond int64).
func resolve(s []byte) (lit []byte, isStr bool) {
	h := hint[s[0]]
	if h == 0 {
		return nil, true
	}
	if v, ok := special[string(s)]; ok {
		if v == nil {
			panic(bail{})
		}
		return v, false
	}
	switch h {
	case 'M':
		return nil, true
	case '.':
		if _, err := strconv.ParseFloat(string(s), 64); err == nil {
			panic(bail{})
		}
		return nil, true
	}
	if decimal(s) {
		if _, err := strconv.ParseInt(string(s), 10, 64); err != nil {
			panic(bail{})
		}
		return s, false
	}
	if numeric(s) {
		panic(bail{})
	}
	return nil, true
}

// keyString reports whether a plain scalar key stays a string in yaml.v2,
// and is not the merge key "<<".
func keyString(s []byte) bool {
	if len(s) == 0 {
		return false
	}
	if hint[s[0]] == 0 {
		return string(s) != "<<"
	}
	if _, ok := special[string(s)]; ok {
		return false
	}
	switch hint[s[0]] {
	case 'M':
		return true
	case '.':
		_, err := strconv.ParseFloat(string(s), 64)
		return err != nil
	}
	return !decimal(s) && !numeric(s)
}

// decimal reports whether s is an integer as encoding/json writes it: an
// optional "-" and digits without a leading zero, not "-0".
func decimal(s []byte) bool {
	d := s
	if d[0] == '-' {
		d = d[1:]
	}
	if len(d) == 0 || d[0] == '0' && (len(d) > 1 || len(s) > 1) {
		return false
	}
	for _, c := range d {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// numeric reports whether yaml.v2 reads s, which starts with a sign or a
// digit, as an integer or a float (resolve.go: with "_" removed, ParseInt
// and ParseUint in base 0, its float pattern, and "0b"). A timestamp stays
// a string when read into an interface, and none of these forms is one.
func numeric(s []byte) bool {
	plain := string(bytes.ReplaceAll(s, []byte("_"), nil))
	if _, err := strconv.ParseInt(plain, 0, 64); err == nil {
		return true
	}
	if _, err := strconv.ParseUint(plain, 0, 64); err == nil {
		return true
	}
	if yamlFloat(plain) {
		if _, err := strconv.ParseFloat(plain, 64); err == nil {
			return true
		}
	}
	if len(plain) > 2 && plain[:2] == "0b" {
		if _, err := strconv.ParseInt(plain[2:], 2, 64); err == nil {
			return true
		}
		if _, err := strconv.ParseUint(plain[2:], 2, 64); err == nil {
			return true
		}
	} else if len(plain) > 3 && plain[:3] == "-0b" {
		if _, err := strconv.ParseInt("-"+plain[3:], 2, 64); err == nil {
			return true
		}
	}
	return false
}

// yamlFloat matches yaml.v2's yamlStyleFloat,
// ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$.
func yamlFloat(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	} else {
		if digits() == 0 {
			return false
		}
		if i < len(s) && s[i] == '.' {
			i++
			digits()
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}
