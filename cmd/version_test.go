package cmd

import (
	"runtime/debug"
	"testing"
)

func TestVersionText(t *testing.T) {
	tests := []struct {
		name string
		info *debug.BuildInfo
		ok   bool
		want string
	}{
		{name: "no build info", want: "lscli dev\n"},
		{name: "go install of a release", ok: true,
			info: &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/lscli/lscli", Version: "v1.2.3"}},
			want: "lscli v1.2.3\nmodule:   github.com/lscli/lscli\ngo:       go1.26.8\n"},
		{name: "built from a modified checkout", ok: true,
			info: &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/lscli/lscli", Version: "(devel)"},
				Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "31a7653"}, {Key: "vcs.time", Value: "2025-06-01T10:00:00Z"}, {Key: "vcs.modified", Value: "true"}}},
			want: "lscli dev\nmodule:   github.com/lscli/lscli\nrevision: 31a7653+dirty (2025-06-01T10:00:00Z)\ngo:       go1.26.8\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := versionText(tt.info, tt.ok); got != tt.want {
				t.Errorf("versionText = %q, want %q", got, tt.want)
			}
		})
	}
}
