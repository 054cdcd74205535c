package template

import (
	"errors"
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"github.com/lscli/lscli/internal/limits"
)

// budget is what one GoTemplate execution may still spend: steps (range
// iterations, template, include and function calls) and output, within
// limits.Limits. It also stops the execution when its wall time is up.
type budget struct {
	lim   limits.Limits
	steps int64
	// stopped is set when TemplateTime has passed.
	stopped atomic.Bool
	timer   *time.Timer
	// sizes memoizes the expanded size of lists and maps (see size.go).
	sizes map[sizeKey]int64
}

// newBudget starts the budget of an execution within lim (defaults
// applied). Call done when the execution ends.
func newBudget(lim limits.Limits) *budget {
	b := &budget{lim: lim.WithDefaults()}
	b.timer = time.AfterFunc(b.lim.TemplateTime, func() { b.stopped.Store(true) })
	return b
}

// done stops the execution's timer.
func (b *budget) done() { b.timer.Stop() }

// step spends one step. It fails when the steps or the time are used up.
func (b *budget) step() error {
	b.steps++
	if b.steps > b.lim.TemplateSteps {
		return limits.Exceeded("templateSteps",
			fmt.Sprintf("the template takes more than %d steps (range iterations, template, include and function calls)", b.lim.TemplateSteps),
			fmt.Sprint(b.lim.TemplateSteps))
	}
	if b.stopped.Load() {
		return b.timeUp()
	}
	return nil
}

// timeUp is the error of an execution that ran out of time.
func (b *budget) timeUp() error {
	return limits.Exceeded("templateTime", "the template renders for longer", b.lim.TemplateTime.String())
}

// checkSize fails when n bytes (of what) are more than the size limit.
func (b *budget) checkSize(what string, n int64) error {
	if n > b.lim.TemplateSize {
		return b.tooBig(fmt.Sprintf("%s would be %s bytes", what, humanSize(n)))
	}
	return nil
}

// tooBig is the error of what exceeds the size limit.
func (b *budget) tooBig(what string) error {
	return limits.Exceeded("templateSize", what, limits.Size(b.lim.TemplateSize))
}

// checkCount fails when n elements or characters (of what) are more than
// the size limit allows.
func (r *goRun) checkCount(what string, n int) error {
	return r.b.checkSize(what, int64(n))
}

// humanSize formats n with thousands separators.
func humanSize(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// errOutputTooLarge is the write error of an output past the size limit.
var errOutputTooLarge = errors.New("output too large")

// limitedWriter writes to w until the size limit, then fails every write.
type limitedWriter struct {
	w   io.Writer
	n   int64
	b   *budget
	err error
}

func (lw *limitedWriter) Write(p []byte) (int, error) {
	if lw.err != nil {
		return 0, lw.err
	}
	lw.n += int64(len(p))
	if err := lw.b.checkSize("the rendered output", lw.n); err != nil {
		lw.err = err
		return 0, err
	}
	return lw.w.Write(p)
}
