// Package cmd is lscli's command line: cobra commands, flags, the config file
// and environment, output selection and exit codes. It holds no simulation
// logic: commands build engine actions, run them and render the result.
package cmd
