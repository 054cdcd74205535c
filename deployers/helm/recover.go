package helm

import "github.com/lscli/lscli/internal/crash"

// component names helm in crash errors.
const component = "helm"

// guard calls f, which calls into helm's libraries (chart loading,
// rendering, releases) with a chart from the landscape, and turns a panic
// there into a *crash.Error: the command then stops with exit 1 and saves
// nothing, instead of crashing.
func guard[T any](f func() (T, error)) (out T, err error) {
	defer crash.Recover(component, &err)
	return f()
}
