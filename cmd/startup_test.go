package cmd

import (
	"testing"

	"github.com/lscli/lscli/internal/kubectli18n"
)

// TestKubectlTranslationsStayUnloaded: with every package lscli links
// (this test binary links what the lscli binary does), the loader that
// loads nothing was set before kubectl's get package translated its help
// texts, so lscli's start does not parse kubectl's translation catalog (see
// package kubectli18n).
func TestKubectlTranslationsStayUnloaded(t *testing.T) {
	if !kubectli18n.Installed {
		t.Fatal("kubectl's translations were loaded before package kubectli18n was initialized")
	}
}
