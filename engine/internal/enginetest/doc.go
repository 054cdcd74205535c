// Package enginetest builds the fixtures the controller tests share: a
// cluster on a virtual clock with a default Context, and installations with
// inline blueprints.
package enginetest
