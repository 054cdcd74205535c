package limits

import (
	"fmt"
	"time"
)

// Limits bound what untrusted input may cost. Zero fields mean the
// defaults (see Default); use the methods, which apply them.
type Limits struct {
	// FileSize is the size in bytes of the largest file lscli reads from a
	// landscape: landscape YAML, blueprint files, schemas, chart files.
	FileSize int64 `json:"fileSize"`
	// YAMLNodes is how many YAML nodes one document may hold once its
	// aliases are expanded ("billion laughs").
	YAMLNodes int64 `json:"yamlNodes"`
	// TemplateSteps is how many steps one template execution may take: range
	// iterations, template, include and function calls (GoTemplate), lambda
	// calls and list elements made by ranges (Spiff). Steps are counted, not
	// timed, so the limit gives the same result on every machine.
	TemplateSteps int64 `json:"templateSteps"`
	// TemplateSize is the size in bytes of the largest rendered output of
	// one template execution, and of the largest value one template
	// function may return.
	TemplateSize int64 `json:"templateSize"`
	// TemplateTime is the wall time one template execution may take. It is a
	// backstop for work the step count does not see (one slow function,
	// Spiff's own loops); TemplateSteps ends runaway templates first.
	TemplateTime time.Duration `json:"templateTime"`
	// SpiffDepth is how deeply Spiff lambda calls may nest (recursion).
	SpiffDepth int `json:"spiffDepth"`
}

// Default is the default set of limits.
var Default = Limits{
	FileSize:      64 << 20,
	YAMLNodes:     10_000_000,
	TemplateSteps: 10_000_000,
	TemplateSize:  64 << 20,
	TemplateTime:  time.Minute,
	SpiffDepth:    1000,
}

// WithDefaults returns l with every zero field set to its default.
func (l Limits) WithDefaults() Limits {
	d := Default
	if l.FileSize > 0 {
		d.FileSize = l.FileSize
	}
	if l.YAMLNodes > 0 {
		d.YAMLNodes = l.YAMLNodes
	}
	if l.TemplateSteps > 0 {
		d.TemplateSteps = l.TemplateSteps
	}
	if l.TemplateSize > 0 {
		d.TemplateSize = l.TemplateSize
	}
	if l.TemplateTime > 0 {
		d.TemplateTime = l.TemplateTime
	}
	if l.SpiffDepth > 0 {
		d.SpiffDepth = l.SpiffDepth
	}
	return d
}

// Error is a limit that input exceeded.
type Error struct {
	// Key is the limit's key under limits: in lscli.yaml, e.g. "fileSize".
	Key string
	// What says what exceeded it, e.g. "the file is 70 MiB".
	What string
	// Limit is the limit, as the user would write it.
	Limit string
}

// Error reads "the file is 70 MiB, more than limits.fileSize (64Mi): raise it in lscli.yaml if that is intended".
func (e *Error) Error() string {
	return fmt.Sprintf("%s, more than limits.%s (%s): raise it in lscli.yaml if that is intended", e.What, e.Key, e.Limit)
}

// Exceeded returns the *Error for key with limit, the size or count,
// formatted by Size or Count.
func Exceeded(key, what, limit string) error {
	return &Error{Key: key, What: what, Limit: limit}
}

// Size formats a size in bytes as the config file takes it: 64Mi, 512Ki, 100.
func Size(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%dGi", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%dMi", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%dKi", n>>10)
	}
	return fmt.Sprint(n)
}
