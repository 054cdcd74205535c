package dataflow

import (
	"fmt"
	"sort"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// validateDeployItems checks rendered deploy items as Landscaper does: names
// and types set, names unique, labels valid, dependsOn naming existing items
// without cycles. (Whether a name makes a valid object name only the API
// server checks, when the execution creates the item.)
func validateDeployItems(list lsv1alpha1.DeployItemTemplateList) []string {
	var msgs []string
	seen := map[string]bool{}
	for i, di := range list {
		switch {
		case di.Name == "":
			msgs = append(msgs, fmt.Sprintf("deploy item %d has no name", i))
		case seen[di.Name]:
			msgs = append(msgs, fmt.Sprintf("deploy item name %q is used twice", di.Name))
		}
		seen[di.Name] = true
		if di.Type == "" && di.Name != "" {
			msgs = append(msgs, fmt.Sprintf("deploy item %q has no type", di.Name))
		}
		for _, err := range metav1validation.ValidateLabels(di.Labels, field.NewPath("labels")) {
			msgs = append(msgs, fmt.Sprintf("deploy item %q: %s", di.Name, err.Error()))
		}
	}
	if len(msgs) > 0 {
		return msgs
	}
	for _, di := range list {
		for _, dep := range di.DependsOn {
			if !seen[dep] {
				msgs = append(msgs, fmt.Sprintf("deploy item %q depends on %q, which is not rendered (known: %s)",
					di.Name, dep, strings.Join(names(list), ", ")))
			}
		}
	}
	if len(msgs) > 0 {
		return msgs
	}
	if cycle := findCycle(dependsOn(list)); cycle != nil {
		msgs = append(msgs, "deploy items depend on each other in a cycle: "+strings.Join(cycle, " -> "))
	}
	return msgs
}

// names returns the names of the deploy items.
func names(list lsv1alpha1.DeployItemTemplateList) []string {
	out := make([]string, len(list))
	for i, di := range list {
		out[i] = di.Name
	}
	return out
}

// dependsOn is the dependency graph of the deploy items.
func dependsOn(list lsv1alpha1.DeployItemTemplateList) map[string][]string {
	g := map[string][]string{}
	for _, di := range list {
		g[di.Name] = di.DependsOn
	}
	return g
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
