// Package template runs a blueprint's template executions the way Landscaper
// does, with both of its engines:
//
//   - GoTemplate: text/template with sprig's functions and Landscaper's
//     offline functions (include, readFile, readDir, toYaml, fromYaml,
//     parseOCIRef, ociRefRepo, ociRefVersion and the component descriptor
//     functions). Missing keys render as zero values, and a "<no value>" in
//     the output of a deploy, subinstallation or export execution is an error
//     that shows the line.
//   - Spiff: Spiff++ via package spiff, with Spiff's own state handling.
//
// An [Executor] renders one execution of a blueprint at a time. It knows the
// blueprint's files and component descriptors; the caller passes the
// bindings (imports, cd, blueprint, ...) and the execution's stored state,
// and stores the new state it returns. Failures are [*Error]s that name the
// file and line where the template went wrong, when that is known.
//
// # Safety
//
// Templates are untrusted input. They see nothing of the process but their
// [Environment] (put into the context by the engine and the dry run): sprig's
// env and expandenv are gone, as in Landscaper, and getHostByName fails when
// called; now and the date functions use
// the virtual clock and UTC; the random functions draw from a source seeded
// per execution (Environment.SeedFor), and those that need a secure random
// source fail. Every execution spends from a budget (package budget): the
// parse tree of a GoTemplate is instrumented so that range iterations and
// template calls count, every function is guarded so that calls count and no
// argument or result exceeds the size limit, and the output is bounded. A
// panic in an engine is returned as a *crash.Error.
package template
