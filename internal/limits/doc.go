// Package limits holds the bounds lscli puts on untrusted input: how big an
// input file may be, how far YAML aliases may expand, and how much work and
// output one template execution may take. A landscape that exceeds one gets
// a clear error naming the limit and the key of lscli.yaml that raises it
// (see docs/cli.md), instead of exhausting memory or hanging.
//
// The defaults are generous: far above what real landscapes need, far below
// what brings a CI machine down. The zero value of each field means its
// default, so Limits{} is the default set.
package limits
