// Package kubectli18n keeps kubectl's translations from being loaded when
// lscli starts. lscli prints custom columns with kubectl's own printer
// (package k8s.io/kubectl/pkg/cmd/get), and that package translates the
// help texts of kubectl's get command while it is initialized, which made
// every lscli start load and parse kubectl's translation catalog: 18 ms and
// 4.4 MB (GODEBUG=inittrace=1), for texts lscli never shows.
//
// kubectl's i18n package lets a program set the loader before the first
// translation (SetLoadTranslationsFunc, from a package initialized before
// those that translate). Go initializes this package first: it imports
// nothing else of kubectl's, and its import path sorts before theirs
// (packages whose imports are ready are initialized in import path order).
// Its loader loads nothing, so kubectl's texts stay as written, in English,
// like the rest of lscli. Import it for its effect where package get is
// imported.
package kubectli18n

import "k8s.io/kubectl/pkg/util/i18n"

// Installed is true when the loader that loads nothing was set before any
// translation was made; a test checks it.
var Installed = i18n.SetLoadTranslationsFunc(func() error { return nil }) == nil
