package dataflow

import (
	"container/heap"
	"fmt"
	"strings"

	lsv1alpha1 "github.com/gardener/landscaper/apis/core/v1alpha1"
)

// Order returns the installations in an order in which each comes after its
// predecessors (the siblings whose exports it imports), else in the given
// order. Duplicate exports and import cycles are errors naming the
// installations involved. Only the names, imports and exports of the
// installations are used, so templates can be ordered too (see
// OrderTemplates).
func Order(insts []*lsv1alpha1.Installation) ([]*lsv1alpha1.Installation, error) {
	tmpls := make([]*lsv1alpha1.InstallationTemplate, len(insts))
	byName := make(map[string]*lsv1alpha1.Installation, len(insts))
	for i, inst := range insts {
		tmpls[i] = &lsv1alpha1.InstallationTemplate{Name: inst.Name, Imports: inst.Spec.Imports, Exports: inst.Spec.Exports}
		byName[inst.Name] = inst
	}
	ordered, err := OrderTemplates(tmpls)
	if err != nil {
		return nil, err
	}
	out := make([]*lsv1alpha1.Installation, len(ordered))
	for i, t := range ordered {
		out[i] = byName[t.Name]
	}
	return out, nil
}

// OrderTemplates returns the templates in an order in which each comes after
// the templates whose exports it imports, else in the given order.
func OrderTemplates(tmpls []*lsv1alpha1.InstallationTemplate) ([]*lsv1alpha1.InstallationTemplate, error) {
	g := newExportGraph(tmpls)
	if dups := g.duplicates(); len(dups) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(dups, "; "))
	}
	edges := g.edges()
	if cycle := findCycle(edges); cycle != nil {
		return nil, fmt.Errorf("%s", importCycleText(cycle))
	}
	return kahn(tmpls, edges), nil
}

// kahn sorts tmpls topologically by edges (name → predecessors); among
// ready templates the one given first goes first.
func kahn(tmpls []*lsv1alpha1.InstallationTemplate, edges map[string][]string) []*lsv1alpha1.InstallationTemplate {
	index := make(map[string]int, len(tmpls))
	for i, t := range tmpls {
		index[t.Name] = i
	}
	waiting := make([]int, len(tmpls))
	successors := make([][]int, len(tmpls))
	for i, t := range tmpls {
		for _, p := range edges[t.Name] {
			waiting[i]++
			successors[index[p]] = append(successors[index[p]], i)
		}
	}
	ready := &intHeap{}
	for i := range tmpls {
		if waiting[i] == 0 {
			heap.Push(ready, i)
		}
	}
	out := make([]*lsv1alpha1.InstallationTemplate, 0, len(tmpls))
	for ready.Len() > 0 {
		i := heap.Pop(ready).(int)
		out = append(out, tmpls[i])
		for _, s := range successors[i] {
			if waiting[s]--; waiting[s] == 0 {
				heap.Push(ready, s)
			}
		}
	}
	return out
}

// intHeap is a min-heap of ints.
type intHeap []int

// Len, Less and Swap implement sort.Interface for container/heap.
func (h intHeap) Len() int { return len(h) }

// Less orders smaller indexes first.
func (h intHeap) Less(i, j int) bool { return h[i] < h[j] }

// Swap swaps two elements.
func (h intHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }

// Push adds x.
func (h *intHeap) Push(x any) { *h = append(*h, x.(int)) }

// Pop removes the last element.
func (h *intHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// Predecessors returns, by installation name, the names of the siblings
// among insts whose exports each one imports, sorted.
func Predecessors(insts []*lsv1alpha1.Installation) map[string][]string {
	tmpls := make([]*lsv1alpha1.InstallationTemplate, len(insts))
	for i, inst := range insts {
		tmpls[i] = &lsv1alpha1.InstallationTemplate{Name: inst.Name, Imports: inst.Spec.Imports, Exports: inst.Spec.Exports}
	}
	return newExportGraph(tmpls).edges()
}
