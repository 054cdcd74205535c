package landscape

import (
	"fmt"
	"slices"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/lscli/lscli/fakecluster"
)

// validateExecution checks the deploy items of an Execution as Landscaper's
// webhook does (apis/core/validation.ValidateExecution): names are set and
// unique, types are set, dependencies exist and have no cycles.
func validateExecution(obj fakecluster.Object) []string {
	const path = "spec.deployItems"
	items := obj.(*lsv1alpha1.Execution).Spec.DeployItems
	var msgs []string
	seen := map[string]string{}
	for i, di := range items {
		msgs = append(msgs, uniqueDeployItem(seen, index(path, i), di.Name)...)
		msgs = append(msgs, validateDeployItemTemplate(index(path, i), di)...)
	}
	if len(msgs) > 0 {
		return msgs // dependencies are only clear when every name is
	}
	for i, di := range items {
		for _, dep := range di.DependsOn {
			if _, ok := seen[dep]; !ok {
				msgs = append(msgs, fmt.Sprintf("%s.dependsOn: %q is not a deploy item of this Execution (known: %s)",
					item(path, i, di.Name), dep, strings.Join(deployItemNames(items), ", ")))
			}
		}
	}
	for _, cycle := range dependencyCycles(items) {
		msgs = append(msgs, fmt.Sprintf("%s: dependency cycle %s", path, strings.Join(cycle, " -> ")))
	}
	return msgs
}

// uniqueDeployItem checks that a deploy item has a name not seen before, and
// records it.
func uniqueDeployItem(seen map[string]string, path, name string) []string {
	if name == "" {
		return []string{path + ".name is missing"}
	}
	if first, ok := seen[name]; ok {
		return []string{fmt.Sprintf("%s: deploy item name %q is used twice: first at %s", path, name, first)}
	}
	seen[name] = path
	return nil
}

// validateDeployItemTemplate checks type, target and labels of one deploy item.
func validateDeployItemTemplate(path string, di lsv1alpha1.DeployItemTemplate) []string {
	var msgs []string
	if di.Type == "" {
		msgs = append(msgs, path+".type is missing (e.g. landscaper.gardener.cloud/mock)")
	}
	if di.Target != nil {
		msgs = append(msgs, objectReference(path+".target", *di.Target)...)
	}
	labels := field.NewPath("spec", "deployItems").Index(0).Child("labels")
	for _, msg := range fieldErrors(metav1validation.ValidateLabels(di.Labels, labels)) {
		msgs = append(msgs, path+".labels"+strings.TrimPrefix(msg, labels.String()))
	}
	return msgs
}

// deployItemNames returns the names of items in order.
func deployItemNames(items lsv1alpha1.DeployItemTemplateList) []string {
	names := make([]string, len(items))
	for i, di := range items {
		names[i] = di.Name
	}
	return names
}

// dependencyCycles returns each cycle in dependsOn once, as the names along
// it with the first repeated at the end: [a b a].
func dependencyCycles(items lsv1alpha1.DeployItemTemplateList) [][]string {
	deps := map[string][]string{}
	for _, di := range items {
		deps[di.Name] = di.DependsOn
	}
	const (
		unvisited = iota
		onPath
		done
	)
	state := map[string]int{}
	var cycles [][]string
	var stack []string
	var visit func(name string)
	visit = func(name string) {
		state[name] = onPath
		stack = append(stack, name)
		for _, dep := range deps[name] {
			switch state[dep] {
			case onPath:
				start := slices.Index(stack, dep)
				cycles = append(cycles, append(append([]string{}, stack[start:]...), dep))
			case unvisited:
				if _, ok := deps[dep]; ok {
					visit(dep)
				}
			}
		}
		stack = stack[:len(stack)-1]
		state[name] = done
	}
	for _, di := range items {
		if state[di.Name] == unvisited {
			visit(di.Name)
		}
	}
	return cycles
}
