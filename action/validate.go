package action

import "context"

// Validate checks a landscape's files and blueprints without running or
// saving anything: `lscli validate`. It renders as Render does and reports
// what does not load, render or validate.
type Validate struct {
	Render
}

// NewValidate returns the validate action over cfg.
func NewValidate(cfg *Configuration) *Validate { return &Validate{Render{cfg: cfg}} }

// Run loads and renders the landscape; see Render.Run.
func (a *Validate) Run(ctx context.Context) (*RenderResult, error) { return a.Render.Run(ctx) }
