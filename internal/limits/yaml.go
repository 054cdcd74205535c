package limits

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"

	yaml "go.yaml.in/yaml/v3"
)

// CheckYAML fails when a document of data, YAML of one or more documents,
// holds more than max nodes once its aliases are expanded (max <= 0: the
// default): "billion laughs", a few lines that a parser that expands
// aliases turns into gigabytes. Data that does not parse passes: the
// parser that reads it next reports that, with its own words.
func CheckYAML(data []byte, max int64) error {
	if max <= 0 {
		max = Default.YAMLNodes
	}
	if !bytes.Contains(data, []byte("*")) {
		return nil // no alias, nothing to expand
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for doc := 1; ; doc++ {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) || err != nil {
			return nil
		}
		c := &nodeCounter{max: max, sizes: map[*yaml.Node]int64{}}
		if _, err := c.count(&n); err != nil {
			return fmt.Errorf("document %d: %w", doc, err)
		}
	}
}

// nodeCounter counts the nodes of a document, aliases expanded, with the
// expanded size of each anchored node memoized, so that counting takes the
// time of the document's text, not of its expansion.
type nodeCounter struct {
	max   int64
	total int64
	sizes map[*yaml.Node]int64
	// onPath holds the anchors being counted: an alias to one of them
	// is a cycle.
	onPath []*yaml.Node
}

// count returns the expanded size of n and fails past max.
func (c *nodeCounter) count(n *yaml.Node) (int64, error) {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		return c.alias(n.Alias)
	}
	size := int64(1)
	for _, child := range n.Content {
		s, err := c.count(child)
		if err != nil {
			return 0, err
		}
		size += s
	}
	if n.Anchor != "" {
		c.sizes[n] = size
	}
	return size, c.add(1)
}

// alias adds the expanded size of the anchored node target once more.
func (c *nodeCounter) alias(target *yaml.Node) (int64, error) {
	for _, p := range c.onPath {
		if p == target {
			return 0, fmt.Errorf("line %d: an alias refers to a node that contains it", target.Line)
		}
	}
	size, ok := c.sizes[target]
	if !ok {
		c.onPath = append(c.onPath, target)
		saved := c.total
		var err error
		if size, err = c.count(target); err != nil {
			return 0, err
		}
		c.onPath = c.onPath[:len(c.onPath)-1]
		c.total = saved
	}
	return size, c.add(size)
}

// add adds n nodes to the total.
func (c *nodeCounter) add(n int64) error {
	c.total += n
	if c.total > c.max {
		return Exceeded("yamlNodes", "its aliases expand it to more than "+strconv.FormatInt(c.max, 10)+" nodes",
			strconv.FormatInt(c.max, 10))
	}
	return nil
}
