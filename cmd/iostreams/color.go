package iostreams

import (
	"fmt"
	"strings"
)

// The values of the --color flag.
const (
	ColorAuto   = "auto"
	ColorAlways = "always"
	ColorNever  = "never"
)

// ColorModes lists the values the --color flag accepts, for help texts and
// shell completion.
var ColorModes = []string{ColorAuto, ColorAlways, ColorNever}

// ColorEnabled decides whether output is colored.
//
// mode is the --color value: "never" turns color off and "always" turns it
// on, whatever the environment says. "auto", or "" (not set), turns it off
// when NO_COLOR has any non-empty value, on when CLICOLOR_FORCE is non-empty
// and not "0", and otherwise on only when stdoutTTY is true. getenv looks up
// an environment variable (os.Getenv in production); nil means an empty
// environment.
//
// Any other mode is an error naming the bad value and the allowed ones.
func ColorEnabled(mode string, stdoutTTY bool, getenv func(string) string) (bool, error) {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	switch mode {
	case ColorNever:
		return false, nil
	case ColorAlways:
		return true, nil
	case ColorAuto, "":
	default:
		return false, fmt.Errorf("invalid --color value %q (allowed: %s)", mode, strings.Join(ColorModes, ", "))
	}
	if getenv("NO_COLOR") != "" {
		return false, nil
	}
	if force := getenv("CLICOLOR_FORCE"); force != "" && force != "0" {
		return true, nil
	}
	return stdoutTTY, nil
}
