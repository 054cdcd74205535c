package dataflow

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gardener/landscaper/apis/core"
	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	"github.com/gardener/landscaper/apis/core/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/lscli/lscli/internal/apiwords"
)

// validateDeployItems checks rendered deploy items with Landscaper's
// ValidateDeployItemTemplateList, as its execution operation does before it
// writes the Execution: names and types set, names unique, targets with
// name and namespace, labels valid, and, unless a name is used twice,
// dependsOn naming existing items without cycles. It returns Landscaper's
// message ("error validating deployitem templates: " and its field errors
// as an aggregate error prints them, in the words of the apimachinery
// Landscaper is built with: apiwords.AsLandscaper), each error with lscli's
// advice in parentheses, and Landscaper's message without the advice, or ""
// when the items are valid. (Whether a name makes a valid object name only
// the API server checks, when the execution creates the item.)
func validateDeployItems(list lsv1alpha1.DeployItemTemplateList) (msg, landscaper string) {
	coreList := make(core.DeployItemTemplateList, len(list))
	for i := range list {
		if err := lsv1alpha1.Convert_v1alpha1_DeployItemTemplate_To_core_DeployItemTemplate(&list[i], &coreList[i], nil); err != nil {
			msg := fmt.Sprintf("cannot convert deploy item %d to Landscaper's internal version: %v", i, err)
			return msg, msg
		}
	}
	errs := validation.ValidateDeployItemTemplateList(field.NewPath("deployExecutions"), coreList)
	apiwords.AsLandscaper(errs)
	if msg := aggregate(errs, deployItemHint(list)); msg != "" {
		const prefix = "error validating deployitem templates: "
		return prefix + msg, prefix + aggregate(errs, func(*field.Error) string { return "" })
	}
	return "", ""
}

// deployItemHint gives lscli's advice for an error of Landscaper's
// ValidateDeployItemTemplateList of the rendered deploy items list.
func deployItemHint(list lsv1alpha1.DeployItemTemplateList) func(e *field.Error) string {
	return func(e *field.Error) string {
		switch v := e.BadValue.(type) {
		case validation.Cycle:
			return fmt.Sprintf("dependsOn %s -> %s: none of them can start", strings.Join(v, " -> "), v[0])
		case string:
			switch {
			case e.Type == field.ErrorTypeDuplicate:
				return fmt.Sprintf("deploy item names are unique: first at deployExecutions[%d]", indexOf(names(list), v))
			case e.Detail == "depends on undefined deploy item":
				return "rendered deploy items: " + strings.Join(names(list), ", ")
			}
		}
		return ""
	}
}

// names returns the names of the deploy items.
func names(list lsv1alpha1.DeployItemTemplateList) []string {
	out := make([]string, len(list))
	for i, di := range list {
		out[i] = di.Name
	}
	return out
}

// findCycle returns a cycle of graph g (node → nodes it depends on) as a
// path that starts and ends at the same node, or nil. Nodes are visited in
// sorted order, so the result is deterministic.
func findCycle(g map[string][]string) []string {
	const (
		unvisited = iota
		active
		done
	)
	state := map[string]int{}
	var stack []string
	var visit func(n string) []string
	visit = func(n string) []string {
		state[n] = active
		stack = append(stack, n)
		for _, m := range sorted(g[n]) {
			switch state[m] {
			case active:
				i := indexOf(stack, m)
				return append(append([]string{}, stack[i:]...), m)
			case unvisited:
				if c := visit(m); c != nil {
					return c
				}
			}
		}
		stack = stack[:len(stack)-1]
		state[n] = done
		return nil
	}
	for _, n := range sortedKeys(g) {
		if state[n] == unvisited {
			if c := visit(n); c != nil {
				return c
			}
		}
	}
	return nil
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// sorted returns a sorted copy of list.
func sorted(list []string) []string {
	out := append([]string(nil), list...)
	sort.Strings(out)
	return out
}

// sortedKeys returns the keys of m, sorted.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
