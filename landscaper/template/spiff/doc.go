// Package spiff runs Spiff++ templates (github.com/mandelsoft/spiff) the way
// Landscaper does: template executions with the blueprint's files and
// Landscaper's extra functions, Spiff's own state handling, and the plain
// data mappings of an installation (importDataMappings, exportDataMappings),
// where the values are bound at the top level.
//
// Unlike Landscaper, lscli gives Spiff no access to the operating system:
// no exec or pipe, an env() that sees no variable of the process
// (environ.go), file functions on an in-memory copy of the blueprint's files
// only (vfs.go), no SPIFF_* environment variables, and no built-in whose
// result depends on the wall clock or a secure random source. So the same
// input renders the same output everywhere.
//
// Spiff cannot be interrupted and recurses on the Go stack, where a
// recursion without end would end the process. So lscli rewrites a
// template's expressions before Spiff evaluates them (rewrite.go): lambda
// bodies, ranges, format, eval and lambda strings call guard functions
// (guard.go) that spend the execution's budget (package budget) and bound
// how deeply lambda calls nest. The rewriting is invisible in the output and
// in messages (unrewrite.go). An execution runs on a goroutine of its own
// with a time limit, a backstop for loops no guard sees.
package spiff
