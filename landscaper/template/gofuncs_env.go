package template

import (
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	gotmpl "text/template"

	"github.com/google/uuid"
)

// Alphabets of sprig's random string functions.
const (
	alphabetAlpha    = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	alphabetNumeric  = "0123456789"
	alphabetAlphaNum = alphabetAlpha + alphabetNumeric
)

// irreproducibleFuncs are sprig functions whose output depends on a secure
// random source (keys, certificates, salts, IVs) that cannot be seeded. They
// exist, so that templates using them parse, and fail when called: lscli's
// output must be the same on every run.
var irreproducibleFuncs = []string{
	"genPrivateKey", "genCA", "genCAWithKey", "genSelfSignedCert", "genSelfSignedCertWithKey",
	"genSignedCert", "genSignedCertWithKey", "htpasswd", "bcrypt", "encryptAES",
}

// irreproducible is the error of an irreproducibleFuncs function.
func irreproducible(name string) error {
	return fmt.Errorf("%s is not available in lscli: its output comes from a secure random source that cannot be seeded, "+
		"so the same input would not render the same output; pass the value in as an import instead", name)
}

// envFuncs are the time and random functions, bound to one execution: the
// time is the Environment's (the virtual clock), the random values come from
// the execution's seed, and the time zone is UTC (sprig's "Local" would be
// the machine's). cur returns the execution.
func envFuncs(cur func() *goRun) gotmpl.FuncMap {
	return gotmpl.FuncMap{
		"now":            func() time.Time { return cur().now },
		"ago":            func(d any) string { return cur().now.Sub(timeOf(d, cur().now)).Round(time.Second).String() },
		"date":           func(f string, d any) string { return timeOf(d, cur().now).Format(f) },
		"htmlDate":       func(d any) string { return timeOf(d, cur().now).Format(time.DateOnly) },
		"dateInZone":     func(f string, d any, z string) string { return inZone(timeOf(d, cur().now), z).Format(f) },
		"htmlDateInZone": func(d any, z string) string { return inZone(timeOf(d, cur().now), z).Format(time.DateOnly) },
		"durationRound":  func(d any) string { return durationRound(d, cur().now) },
		"randAlphaNum":   func(n int) (string, error) { return cur().randString(alphabetAlphaNum, n) },
		"randAlpha":      func(n int) (string, error) { return cur().randString(alphabetAlpha, n) },
		"randNumeric":    func(n int) (string, error) { return cur().randString(alphabetNumeric, n) },
		"randAscii":      func(n int) (string, error) { return cur().randString(asciiPrintable, n) },
		"randBytes":      func(n int) (string, error) { return cur().randBytes(n) },
		"randInt":        func(lo, hi int) (int, error) { return cur().randInt(lo, hi) },
		"uuidv4":         func() (string, error) { return cur().uuid() },
		"shuffle":        func(s string) string { return cur().shuffle(s) },
	}
}

// reproducibleFuncs replace sprig functions that read the machine's time
// zone, and those of irreproducibleFuncs.
func reproducibleFuncs() gotmpl.FuncMap {
	fm := gotmpl.FuncMap{
		"toDate":     func(layout, s string) time.Time { t, _ := time.ParseInLocation(layout, s, time.UTC); return t },
		"mustToDate": func(layout, s string) (time.Time, error) { return time.ParseInLocation(layout, s, time.UTC) },
	}
	for _, name := range irreproducibleFuncs {
		fm[name] = func(...any) (string, error) { return "", irreproducible(name) }
	}
	return fm
}

// asciiPrintable is the alphabet of randAscii: printable ASCII.
var asciiPrintable = func() string {
	b := make([]byte, 0, 95)
	for c := byte(' '); c <= '~'; c++ {
		b = append(b, c)
	}
	return string(b)
}()

// timeOf is sprig's reading of a date argument: a time, or seconds since
// the epoch; anything else means now.
func timeOf(d any, now time.Time) time.Time {
	switch d := d.(type) {
	case time.Time:
		return d
	case *time.Time:
		if d != nil {
			return *d
		}
	case int64:
		return time.Unix(d, 0).UTC()
	case int:
		return time.Unix(int64(d), 0).UTC()
	case int32:
		return time.Unix(int64(d), 0).UTC()
	}
	return now
}

// inZone is t in zone; "Local" and unknown zones mean UTC.
func inZone(t time.Time, zone string) time.Time {
	if zone == "Local" {
		return t.UTC()
	}
	loc, err := time.LoadLocation(zone)
	if err != nil {
		return t.UTC()
	}
	return t.In(loc)
}

// durationRound is sprig's durationRound, counting from now for a time.
func durationRound(d any, now time.Time) string {
	var dur time.Duration
	switch d := d.(type) {
	case string:
		dur, _ = time.ParseDuration(d)
	case int64:
		dur = time.Duration(d)
	case time.Time:
		dur = now.Sub(d)
	}
	u := dur.Abs()
	units := []struct {
		size time.Duration
		name string
	}{{365 * 24 * time.Hour, "y"}, {30 * 24 * time.Hour, "mo"}, {24 * time.Hour, "d"}, {time.Hour, "h"}, {time.Minute, "m"}, {time.Second, "s"}}
	for _, unit := range units {
		if u > unit.size {
			return strconv.FormatInt(int64(u/unit.size), 10) + unit.name
		}
	}
	return "0s"
}

// checkCount fails when n characters (of what) are more than the size
// limit allows.
func (r *goRun) checkCount(what string, n int) error {
	return r.b.CheckSize(what, int64(n))
}

// random returns the execution's seeded random source.
func (r *goRun) random() *rand.Rand {
	if r.rnd == nil {
		r.chacha = rand.NewChaCha8(r.seed)
		r.rnd = rand.New(r.chacha)
	}
	return r.rnd
}

// randString returns n characters of alphabet.
func (r *goRun) randString(alphabet string, n int) (string, error) {
	if err := r.checkCount("random string", n); err != nil {
		return "", err
	}
	b := make([]byte, max(n, 0))
	for i := range b {
		b[i] = alphabet[r.random().IntN(len(alphabet))]
	}
	return string(b), nil
}

// randBytes returns n random bytes, base64 encoded.
func (r *goRun) randBytes(n int) (string, error) {
	if err := r.checkCount("randBytes", n); err != nil {
		return "", err
	}
	b := make([]byte, max(n, 0))
	r.random()
	_, _ = r.chacha.Read(b)
	return base64.StdEncoding.EncodeToString(b), nil
}

// randInt returns a number in [lo, hi).
func (r *goRun) randInt(lo, hi int) (int, error) {
	if hi <= lo {
		return 0, fmt.Errorf("randInt %d %d: the maximum must be greater than the minimum", lo, hi)
	}
	return lo + r.random().IntN(hi-lo), nil
}

// uuid returns a version 4 UUID.
func (r *goRun) uuid() (string, error) {
	r.random()
	id, err := uuid.NewRandomFromReader(r.chacha)
	if err != nil {
		return "", err
	}
	return id.String(), nil
}

// shuffle returns the characters of s in random order.
func (r *goRun) shuffle(s string) string {
	runes := []rune(s)
	r.random().Shuffle(len(runes), func(i, j int) { runes[i], runes[j] = runes[j], runes[i] })
	return string(runes)
}
