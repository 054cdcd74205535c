package helm

import "testing"

// TestHelmVersionIsLandscapers: charts see as .Capabilities.HelmVersion
// the helm library Landscaper is built with, not the one lscli is built
// with: Landscaper links helm as a library, so the version is the
// major.minor that library declares (no patch, no commit).
func TestHelmVersionIsLandscapers(t *testing.T) {
	d := New(Options{Clusters: fixedCluster(newTestCluster())})
	caps, err := d.capabilities(newTestCluster())
	if err != nil {
		t.Fatal(err)
	}
	if got := caps.HelmVersion.Version; got != LandscaperHelmVersion {
		t.Errorf(".Capabilities.HelmVersion.Version = %q, want %q", got, LandscaperHelmVersion)
	}
	if caps.HelmVersion.GitCommit != "" || caps.HelmVersion.GitTreeState != "" {
		t.Errorf("HelmVersion = %+v, want no commit and tree state (a library build sets none)", caps.HelmVersion)
	}
}
