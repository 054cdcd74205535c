// Package template runs a blueprint's template executions the way Landscaper
// does: GoTemplate with sprig (without env and expandenv) plus Landscaper's
// offline functions, missing keys rendered as zero values and any "<no value>"
// in the output reported as an error with its line.
package template
