package budget

import (
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"github.com/lscli/lscli/internal/limits"
)

// Budget is what one template execution may still spend, within
// limits.Limits: steps (range iterations and calls of a GoTemplate, lambda
// calls and range elements of Spiff) and size (of its output and of every
// value it makes). It also notes when the execution's wall time is up. A
// Budget is used by the goroutine that renders, except Stopped.
type Budget struct {
	lim   limits.Limits
	steps int64
	// stopped is set when TemplateTime has passed.
	stopped atomic.Bool
	timer   *time.Timer
	// sizes memoizes the expanded size of lists and maps (see size.go).
	sizes map[sizeKey]int64
}

// New starts the budget of an execution within lim (defaults applied).
// Call Done when the execution ends.
func New(lim limits.Limits) *Budget {
	b := &Budget{lim: lim.WithDefaults()}
	b.timer = time.AfterFunc(b.lim.TemplateTime, func() { b.stopped.Store(true) })
	return b
}

// Done stops the execution's timer.
func (b *Budget) Done() { b.timer.Stop() }

// Limits returns the limits of b, defaults applied.
func (b *Budget) Limits() limits.Limits { return b.lim }

// Stopped reports whether the execution's wall time is up. It is safe for
// concurrent use.
func (b *Budget) Stopped() bool { return b.stopped.Load() }

// Step spends one step. It fails when the steps or the time are used up.
func (b *Budget) Step() error {
	return b.Steps(1)
}

// Steps spends n steps.
func (b *Budget) Steps(n int64) error {
	b.steps += n
	if b.steps > b.lim.TemplateSteps {
		return limits.Exceeded("templateSteps",
			fmt.Sprintf("the template takes more than %d steps (range iterations and calls)", b.lim.TemplateSteps),
			fmt.Sprint(b.lim.TemplateSteps))
	}
	if b.stopped.Load() {
		return b.TimeUp()
	}
	return nil
}

// TimeUp is the error of an execution that ran out of time.
func (b *Budget) TimeUp() error {
	return limits.Exceeded("templateTime", "the template renders for longer", b.lim.TemplateTime.String())
}

// CheckSize fails when n bytes (of what) are more than the size limit.
func (b *Budget) CheckSize(what string, n int64) error {
	if n > b.lim.TemplateSize {
		return b.tooBig(fmt.Sprintf("%s would be %s bytes", what, humanSize(n)))
	}
	return nil
}

// tooBig is the error of what exceeds the size limit.
func (b *Budget) tooBig(what string) error {
	return limits.Exceeded("templateSize", what, limits.Size(b.lim.TemplateSize))
}

// humanSize formats n with thousands separators.
func humanSize(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Writer returns a writer to w that fails every write once more than the
// size limit was written.
func (b *Budget) Writer(w io.Writer) io.Writer { return &limitedWriter{w: w, b: b} }

// limitedWriter is Budget.Writer.
type limitedWriter struct {
	w   io.Writer
	n   int64
	b   *Budget
	err error
}

func (lw *limitedWriter) Write(p []byte) (int, error) {
	if lw.err != nil {
		return 0, lw.err
	}
	lw.n += int64(len(p))
	if err := lw.b.CheckSize("the rendered output", lw.n); err != nil {
		lw.err = err
		return 0, err
	}
	return lw.w.Write(p)
}
