package testcluster

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestBinDir(t *testing.T) {
	tests := []struct {
		name, assets, cache, home, want string
	}{
		{name: "KUBEBUILDER_ASSETS first", assets: "/assets", cache: "/cache", home: "/home/u", want: "/assets"},
		{name: "LSCLI_TEST_CACHE", cache: "/cache", home: "/home/u", want: "/cache/bin"},
		{name: "home cache", home: "/home/u", want: "/home/u/.cache/lscli-testcluster/bin"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("KUBEBUILDER_ASSETS", tt.assets)
			t.Setenv("LSCLI_TEST_CACHE", tt.cache)
			t.Setenv("HOME", tt.home)
			if got := BinDir(); got != tt.want {
				t.Errorf("BinDir() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestMissing(t *testing.T) {
	dir := t.TempDir()
	if err := missing(dir); !errors.Is(err, ErrNoBinaries) {
		t.Fatalf("empty folder: err = %v, want ErrNoBinaries", err)
	}
	for _, b := range Binaries {
		if err := os.WriteFile(filepath.Join(dir, b), nil, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := missing(dir); err != nil {
		t.Errorf("complete folder: %v", err)
	}
}

func TestRequired(t *testing.T) {
	for ci, want := range map[string]bool{"": false, "true": true, "1": true, "false": false, "yes": false} {
		t.Setenv("CI", ci)
		if got := required(); got != want {
			t.Errorf("CI=%q: required() = %v, want %v", ci, got, want)
		}
	}
}
