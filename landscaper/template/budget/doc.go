// Package budget bounds one template execution: how many steps it takes,
// how big its output and the values it makes may get, and how long it may
// run (see limits.Limits). Both template engines spend from a [Budget]:
// package template for GoTemplate (range iterations, template, include and
// function calls), package spiff for Spiff (lambda calls, range elements).
//
// Steps are counted, not timed, so a template over the limit fails the
// same way on every machine; the wall time is only a backstop for work no
// step sees. Sizes are those of values written out, references expanded, so
// that a value built by doubling a reference (list $a $a) is caught before
// it is written, and a value that contains itself is an error.
package budget
