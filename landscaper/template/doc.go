// Package template runs a blueprint's template executions the way Landscaper
// does, with both of its engines:
//
//   - GoTemplate: text/template with sprig's functions (without env and
//     expandenv) and Landscaper's offline functions (include, readFile,
//     readDir, toYaml, fromYaml, parseOCIRef, ociRefRepo, ociRefVersion and
//     the component descriptor functions). Missing keys render as zero
//     values, and a "<no value>" in the output of a deploy, subinstallation
//     or export execution is an error that shows the line.
//   - Spiff: Spiff++ via package spiff, with Spiff's own state handling.
//
// An [Executor] renders one execution of a blueprint at a time. It knows the
// blueprint's files and component descriptors; the caller passes the
// bindings (imports, cd, blueprint, ...) and the execution's stored state,
// and stores the new state it returns. Failures are [*Error]s that name the
// file and line where the template went wrong, when that is known.
package template
