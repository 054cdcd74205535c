package helm

import "helm.sh/helm/v3/pkg/chartutil"

// LandscaperHelmVersion is the helm version charts see as
// .Capabilities.HelmVersion.Version in Landscaper: its helm deployer links
// helm v3.19.2 as a library (Landscaper's go.mod), whose version is the
// major.minor the library declares (helm's internal/version; only helm's
// own release build sets the patch and the commit). lscli links a newer
// helm; a chart that compares the helm version (semverCompare on
// .Capabilities.HelmVersion.Version, as Traefik's does) must decide as it
// would under Landscaper.
const LandscaperHelmVersion = "v3.19"

// landscaperCapabilities are helm's default capabilities with Landscaper's
// helm version (LandscaperHelmVersion).
func landscaperCapabilities() *chartutil.Capabilities {
	caps := chartutil.DefaultCapabilities.Copy()
	caps.HelmVersion.Version = LandscaperHelmVersion
	caps.HelmVersion.GitCommit, caps.HelmVersion.GitTreeState = "", ""
	return caps
}
