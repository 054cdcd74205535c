package cmd

import (
	"fmt"
	"strconv"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/lscli/lscli/internal/limits"
)

// limitsSection is the config file's limits: key (see docs/cli.md). Sizes
// are quantities (64Mi, 500000), the time a Go duration (1m).
type limitsSection struct {
	FileSize      any    `json:"fileSize"`
	YAMLNodes     int64  `json:"yamlNodes"`
	TemplateSteps int64  `json:"templateSteps"`
	TemplateSize  any    `json:"templateSize"`
	TemplateTime  string `json:"templateTime"`
	SpiffDepth    int    `json:"spiffDepth"`
}

// parseLimits reads the limits: section of the config file; unset keys
// keep their defaults. A malformed section is invalid input (exit 2).
func (s *settings) parseLimits() error {
	raw := s.config.section("limits")
	if raw == nil {
		return nil
	}
	var sec limitsSection
	if err := decodeStrict(raw, &sec); err != nil {
		return invalidf("%s: limits: %s", s.config.path, jsonMessage(err))
	}
	var err error
	if s.Limits, err = sec.limits(); err != nil {
		return invalidf("%s: limits.%v", s.config.path, err)
	}
	return nil
}

// limits checks the section and returns its limits.
func (sec limitsSection) limits() (limits.Limits, error) {
	l := limits.Limits{YAMLNodes: sec.YAMLNodes, TemplateSteps: sec.TemplateSteps, SpiffDepth: sec.SpiffDepth}
	for key, n := range map[string]int64{"yamlNodes": sec.YAMLNodes, "templateSteps": sec.TemplateSteps, "spiffDepth": int64(sec.SpiffDepth)} {
		if n < 0 {
			return l, fmt.Errorf("%s: %d is negative: want a positive number (or leave it out for the default)", key, n)
		}
	}
	var err error
	if l.FileSize, err = size("fileSize", sec.FileSize); err != nil {
		return l, err
	}
	if l.TemplateSize, err = size("templateSize", sec.TemplateSize); err != nil {
		return l, err
	}
	if sec.TemplateTime != "" {
		if l.TemplateTime, err = time.ParseDuration(sec.TemplateTime); err != nil || l.TemplateTime <= 0 {
			return l, fmt.Errorf("templateTime: %q is not a positive duration like 30s or 2m", sec.TemplateTime)
		}
	}
	return l, nil
}

// size returns a size in bytes (a number, or a quantity like 64Mi), 0
// when unset.
func size(key string, v any) (int64, error) {
	var text string
	switch v := v.(type) {
	case nil:
		return 0, nil
	case string:
		text = v
	case float64:
		text = strconv.FormatFloat(v, 'f', -1, 64)
	default:
		text = fmt.Sprint(v)
	}
	q, err := resource.ParseQuantity(text)
	n, ok := q.AsInt64()
	if err != nil || !ok || n <= 0 {
		return 0, fmt.Errorf("%s: %q is not a positive size in bytes like 64Mi or 1000000", key, text)
	}
	return n, nil
}
