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

// writeClusters writes the clusters section and the end of the file, when
// objs is not empty.
func writeClusters(w io.Writer, objs []ClusterObject) error {
	if len(objs) == 0 {
		return nil
	}
	if _, err := fmt.Fprintf(w, "%q:[\n", clustersSection); err != nil {
		return err
	}
	err := writeLines(w, len(objs), func(i int) (any, error) { return &objs[i], nil },
		func(i int) string { return fmt.Sprintf("object %d of simulated cluster %s", i, objs[i].Cluster) }, nil, nil, nil)
	if err != nil {
		return fmt.Errorf("encode %s: %w", clustersSection, err)
	}
	_, err = fmt.Fprintln(w, "]}")
	return err
}

// splitLastSections reads the last of the three sections when the clusters
// section follows it: open ... "]," then "clusters":[ ... "]}".
func splitLastSections(lines []line, open string) (elems, clusters, rest []line, ok bool) {
	elems, rest, ok = splitSection(lines, open, "],")
	if !ok {
		return nil, nil, nil, false
	}
	clusters, rest, ok = splitSection(rest, `"`+clustersSection+`":[`, "]}")
	return elems, clusters, rest, ok
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
