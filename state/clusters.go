package state

import (
	"fmt"
	"io"

	"github.com/lscli/lscli/internal/fastjson"
)

// clustersSection names the optional last section of the state file: the
// objects of the simulated target clusters (Snapshot.Clusters), one
// a line. Save writes it only when there are any, so a state without
// simulated clusters keeps the layout of the three sections before it.
const clustersSection = "clusters"

// optionalSections name the sections that may follow the objects, in file
// order: the clusters section, and the applied section (see
// appliedSection). Save writes each only when it has elements.
var optionalSections = [...]string{clustersSection, appliedSection}

// writeOptional writes the optional sections of snap that have elements
// and the end of the file. The objects section before them ended in "],"
// when hasOptional(snap) is true.
func writeOptional(w io.Writer, snap *Snapshot) error {
	clusters, applied := snap.Clusters, snap.Applied
	writes := [len(optionalSections)]struct {
		n    int
		elem func(i int) (any, error)
		name func(i int) string
	}{
		{len(clusters), func(i int) (any, error) { return &clusters[i], nil },
			func(i int) string { return fmt.Sprintf("object %d of simulated cluster %s", i, clusters[i].Cluster) }},
		{len(applied), func(i int) (any, error) { return &applied[i], nil },
			func(i int) string { return fmt.Sprintf("applied configuration of %s", applied[i].describe()) }},
	}
	last := -1
	for s := range writes {
		if writes[s].n > 0 {
			last = s
		}
	}
	for s, name := range optionalSections {
		if writes[s].n == 0 {
			continue
		}
		if _, err := fmt.Fprintf(w, "%q:[\n", name); err != nil {
			return err
		}
		if err := writeLines(w, writes[s].n, writes[s].elem, writes[s].name, nil, nil, nil); err != nil {
			return fmt.Errorf("encode %s: %w", name, err)
		}
		end := "],"
		if s == last {
			end = "]}"
		}
		if _, err := fmt.Fprintln(w, end); err != nil {
			return err
		}
	}
	return nil
}

// hasOptional reports whether snap has an optional section to write.
func hasOptional(snap *Snapshot) bool { return len(snap.Clusters) > 0 || len(snap.Applied) > 0 }

// splitLastSections reads the last of the three sections when optional
// sections follow it: open ... "]," then, in the order of
// optionalSections, each one present, the last closed by "]}".
func splitLastSections(lines []line, open string) (elems []line, optional [len(optionalSections)][]line, rest []line, ok bool) {
	elems, rest, ok = splitSection(lines, open, "],")
	if !ok {
		return nil, optional, nil, false
	}
	for s, name := range optionalSections {
		open := `"` + name + `":[`
		if len(rest) == 0 || string(rest[0].text) != open {
			continue
		}
		if last, after, ok := splitSection(rest, open, "]}"); ok {
			optional[s] = last
			return elems, optional, after, true
		}
		if optional[s], rest, ok = splitSection(rest, open, "],"); !ok {
			return nil, optional, nil, false
		}
	}
	return nil, optional, nil, false // no section closed the file
}

// decodeClusterObject decodes one element of the clusters section. The
// object itself stays raw: package deployers/simcluster decodes it when the
// cluster is used.
func decodeClusterObject(data []byte, into *ClusterObject) error {
	if err := fastjson.Unmarshal(data, into); err != nil {
		return fmt.Errorf("simulated cluster object: %w", err)
	}
	return nil
}
