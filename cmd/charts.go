package cmd

// chartsConfig is the map in the config file from the helm charts Landscaper
// would download to local chart folders or .tgz files:
//
//	charts:
//	  registry.example/charts/app: charts/app           # chart.ref, with or without its tag (then of the chart's version)
//	  https://charts.example/app-1.0.0.tgz: app.tgz     # chart.archive.remote.url
//	  https://charts.example/app:1.0.0: ../charts/app   # helmChartRepo: <url>/<name>:<version>
//
// Without it, only archive.raw and local paths in chart.ref are found.
var chartsConfig = pathMap{key: "charts", from: "a chart reference", to: "a local chart folder or .tgz"}

// chartMap returns the helm deployer's chart mapping from the config file.
func chartMap(s *settings) (map[string]string, error) {
	paths, _, err := chartsConfig.read(s)
	return paths, err
}
