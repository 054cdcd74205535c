package helm

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// maxLogLines is how many of helm's log lines a failed install or upgrade
// reports, as Landscaper's helm deployer keeps them.
const maxLogLines = 10

// helmLog collects what helm logs during one deploy attempt, the way
// Landscaper's helm deployer does for its lastError: a line that was
// logged before is not added again, and only the last maxLogLines stay.
// helm logs from the goroutines of its actions too, so it is locked.
type helmLog struct {
	mu    sync.Mutex
	lines []string
}

// printf is helm's log function (action.Configuration.Log), also called
// by kubeClient where helm's own kube client logs.
func (l *helmLog) printf(format string, v ...any) {
	if l == nil {
		return
	}
	msg := fmt.Sprintf(format, v...)
	l.mu.Lock()
	defer l.mu.Unlock()
	if slices.Contains(l.lines, msg) {
		return
	}
	l.lines = append(l.lines, msg)
	if n := len(l.lines); n > maxLogLines {
		l.lines = l.lines[n-maxLogLines:]
	}
}

// text is the lines, each after a newline, as Landscaper puts them in
// front of a failed action's error.
func (l *helmLog) text() string {
	if l == nil {
		return ""
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.lines) == 0 {
		return ""
	}
	return "\n" + strings.Join(l.lines, "\n")
}
