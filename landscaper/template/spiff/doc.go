// Package spiff runs Spiff++ templates (github.com/mandelsoft/spiff) the way
// Landscaper does: template executions with the blueprint's files and
// Landscaper's extra functions, Spiff's own state handling, and the plain
// data mappings of an installation (importDataMappings, exportDataMappings),
// where the values are bound at the top level.
//
// Unlike Landscaper, lscli gives Spiff no access to the operating system
// (exec, env, reading host files) and reads no SPIFF_* environment
// variables, so the same input renders the same output everywhere.
package spiff
