package match

import (
	"testing"

	"k8s.io/apimachinery/pkg/labels"
)

func TestGlob(t *testing.T) {
	tests := []struct {
		name, pattern, s string
		want             bool
	}{
		{name: "empty matches all", pattern: "", s: "anything", want: true},
		{name: "literal", pattern: "app", s: "app", want: true},
		{name: "literal mismatch", pattern: "app", s: "apps", want: false},
		{name: "star crosses slash and dot", pattern: "landscaper.*/helm", s: "landscaper.gardener.cloud/helm", want: true},
		{name: "star suffix", pattern: "demo-app-*", s: "demo-app-6c29l", want: true},
		{name: "question mark", pattern: "a?c", s: "abc", want: true},
		{name: "question mark needs one", pattern: "a?c", s: "ac", want: false},
		{name: "regexp characters are literal", pattern: "a+b(c)", s: "a+b(c)", want: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := CompileGlob(tt.pattern)
			if err != nil {
				t.Fatal(err)
			}
			if got := g.Match(tt.s); got != tt.want {
				t.Errorf("Glob(%q).Match(%q) = %v, want %v", tt.pattern, tt.s, got, tt.want)
			}
		})
	}
}

func TestGlobAny(t *testing.T) {
	g, _ := CompileGlob("app")
	if !g.Any("demo-app-x", "app") || g.Any("demo-app-x", "db") {
		t.Error("Any does not match when one of the strings matches")
	}
}

func TestSelector(t *testing.T) {
	sel, err := Selector("tier=web,env in (dev,qa),!legacy")
	if err != nil {
		t.Fatal(err)
	}
	if !sel.Matches(labels.Set{"tier": "web", "env": "qa"}) {
		t.Error("selector does not match")
	}
	if sel.Matches(labels.Set{"tier": "web", "env": "qa", "legacy": "x"}) {
		t.Error("selector matches an excluded label")
	}
	if _, err := Selector("tier in (a"); err == nil {
		t.Error("bad selector accepted")
	}
}
