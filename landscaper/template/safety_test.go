package template

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/lscli/lscli/internal/limits"
)

// TestReproducibleFunctions: the time and random functions give the same
// output for the same seed and time, whatever the machine and the wall clock.
func TestReproducibleFunctions(t *testing.T) {
	text := `now: {{ now | date "2006-01-02T15:04:05Z07:00" }}
ago: {{ ago (now | dateModify "-90m") }}
date: {{ 0 | date "2006-01-02" }} {{ htmlDate "x" }} {{ dateInZone "15:04" now "Local" }}
toDate: {{ (toDate "2006-01-02 15:04" "2024-05-06 07:08") | unixEpoch }}
round: {{ durationRound (now | dateModify "-49h") }}
rand: {{ randAlphaNum 12 }} {{ randAlpha 4 }} {{ randNumeric 4 }} {{ randAscii 4 | len }} {{ randInt 10 20 }} {{ randBytes 6 }}
uuid: {{ uuidv4 }} {{ uuidv4 }}
shuffle: {{ shuffle "abcdefgh" }}
`
	now := time.Date(2030, 3, 4, 5, 6, 7, 0, time.UTC)
	render := func(seed byte) string {
		t.Helper()
		res, err := (&Executor{}).Execute(Request{Execution: goExec(text), Now: now, Seed: [32]byte{seed}})
		if err != nil {
			t.Fatal(err)
		}
		return string(res.Output)
	}
	first := render(1)
	if again := render(1); again != first {
		t.Fatalf("same seed, different output:\n%s\n%s", first, again)
	}
	if other := render(2); other == first {
		t.Errorf("another seed gives the same random values:\n%s", other)
	}
	for _, want := range []string{"now: 2030-03-04T05:06:07Z", "ago: 1h30m0s", "date: 1970-01-01 2030-03-04 05:06",
		"toDate: 1714979280", "round: 2d"} {
		if !strings.Contains(first, want) {
			t.Errorf("output lacks %q:\n%s", want, first)
		}
	}
}

// TestRemovedAndIrreproducibleFunctions: functions that reach the network
// or the environment do not exist; those that need a secure random source
// fail with a reason.
func TestRemovedAndIrreproducibleFunctions(t *testing.T) {
	tests := []struct{ text, err string }{
		{`{{ getHostByName "example.invalid" }}`, "getHostByName is not available in lscli: it asks the network"},
		{`{{ env "HOME" }}`, `function "env" not defined`},
		{`{{ expandenv "$HOME" }}`, `function "expandenv" not defined`},
		{`{{ genCA "ca" 365 }}`, "genCA is not available in lscli: its output comes from a secure random source"},
		{`{{ htpasswd "u" "p" }}`, "htpasswd is not available in lscli"},
		{`{{ randInt 5 5 }}`, "randInt 5 5: the maximum must be greater than the minimum"},
	}
	for _, tt := range tests {
		_, err := (&Executor{}).Execute(Request{Execution: goExec(tt.text)})
		if err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%s: err = %v, want %q", tt.text, err, tt.err)
		}
	}
}

// TestGetHostByNameParses: Landscaper removes only env and expandenv from
// sprig, so a template that names getHostByName where it is not called
// renders; lscli's getHostByName fails only when called.
func TestGetHostByNameParses(t *testing.T) {
	res, err := (&Executor{}).Execute(Request{Execution: goExec(`x: {{ if .lookup }}{{ getHostByName "example.invalid" }}{{ else }}none{{ end }}`)})
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Output) != "x: none" {
		t.Fatalf("output %q, want x: none", res.Output)
	}
}

// TestGoTemplateLimits: templates that would run for minutes or fill the
// memory fail with an error naming the limit, the function and the line.
func TestGoTemplateLimits(t *testing.T) {
	small := limits.Limits{TemplateSteps: 100_000, TemplateSize: 1 << 20}
	tests := []struct {
		name, text string
		lim        limits.Limits
		err        string
	}{
		{name: "huge until", text: "a: 1\n{{ range until 2000000000 }}x{{ end }}",
			err: "line 2, column 9: at <until 2000000000>: error calling until: the result would be 16,000,000,000 bytes, more than limits.templateSize (64Mi)"},
		{name: "nested ranges", lim: small, text: `{{ range until 1000 }}{{ range until 1000 }}{{ end }}{{ end }}`,
			err: "the template takes more than 100000 steps (range iterations and calls), more than limits.templateSteps (100000)"},
		{name: "range over an integer", lim: small, text: `{{ range 1000000 }}{{ end }}`, err: "more than limits.templateSteps"},
		{name: "recursive define", lim: small, text: `{{ define "a" }}{{ template "a" . }}{{ template "a" . }}{{ end }}{{ template "a" . }}`,
			err: "more than limits.templateSteps"},
		{name: "big output", lim: small, text: `{{ range until 5000 }}{{ "0123456789" | repeat 100 }}{{ end }}`,
			err: "the rendered output would be 1,049,000 bytes, more than limits.templateSize (1Mi)"},
		{name: "repeat", text: `{{ repeat 1000000000 "abc" }}`, err: "error calling repeat: the result would be 3,000,000,000 bytes"},
		{name: "doubling", lim: small, text: `{{ $s := "ab" }}{{ range until 40 }}{{ $s = print $s $s }}{{ end }}`,
			err: "error calling print: the arguments would be at least 2,097,152 bytes, more than limits.templateSize (1Mi)"},
		{name: "shared structure", lim: small, text: `{{ $l := list 1 2 }}{{ range until 40 }}{{ $l = list $l $l }}{{ end }}{{ toJson $l }}`,
			err: "error calling list: the arguments would be at least"},
		{name: "value containing itself", text: `{{ $d := dict }}{{ $_ := set $d "me" $d }}{{ $d }}`,
			err: "the value contains itself, so writing it out would never end"},
		{name: "printf width", text: `{{ printf "%0999999999d" 1 }}`, err: "error calling printf: the result would be"},
		{name: "printf star", text: `{{ printf "%*d" 999999999 1 }}`, err: "error calling printf: the result would be"},
		{name: "indent", lim: small, text: `{{ "a\nb\nc" | indent 1000000 }}`, err: "error calling indent"},
		{name: "replace", lim: small, text: `{{ repeat 1000 "a" | replace "" (repeat 10000 "b") }}`, err: "error calling replace"},
		{name: "join", lim: small, text: `{{ until 10000 | join (repeat 1000 "-") }}`, err: "error calling join"},
		{name: "random string", text: `{{ randAlphaNum 1000000000 }}`, err: "error calling randAlphaNum"},
		{name: "include loop", lim: small, text: `{{ include "templates/recursive.tpl" . }}`, err: "included within itself more than 100 times"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := (&Executor{FS: blueprintFiles}).Execute(Request{Execution: goExec(tt.text), Limits: tt.lim})
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Fatalf("err = %v\nwant %q", err, tt.err)
			}
			var le *limits.Error
			if strings.Contains(tt.err, "limits.") && !errors.As(err, &le) {
				t.Errorf("%T is not a *limits.Error", err)
			}
		})
	}
}

// TestGoTemplateTimeLimit: the wall-time backstop ends a template that
// spends no steps the counter sees fast enough.
func TestGoTemplateTimeLimit(t *testing.T) {
	lim := limits.Limits{TemplateTime: time.Millisecond, TemplateSteps: 1 << 62}
	_, err := (&Executor{}).Execute(Request{Execution: goExec(`{{ range 100000000 }}{{ end }}`), Limits: lim})
	if err == nil || !strings.Contains(err.Error(), "the template renders for longer, more than limits.templateTime (1ms)") {
		t.Fatalf("err = %v", err)
	}
}
