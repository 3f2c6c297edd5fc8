package hpa

import "fmt"

// NodeID identifies an abstract node of a [Graph]. A build numbers the
// nodes from 0 to Stats().Nodes−1, grouped by level-1 cluster, as the graph
// file lists them; after in-place updates IDs run from 0 to
// [Graph.NodeIDs]−1, some of them unused (NodeLevel 0).
type NodeID int32

// NodeIDs returns the number of node IDs: Stats().Nodes for a graph as
// built or read, more after in-place updates that freed IDs.
func (h *Graph) NodeIDs() int {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return len(h.nodes)
}

// AppendEdges appends to dst the IDs of the nodes that node n's edges at
// level lead to, and returns the extended slice, for pictures and tools
// that inspect the graph. Level 1 gives the inter-cluster and
// intra-cluster edges of the package doc; a level above gives that level's
// edges, none for a node absent from it (see [Graph.NodeLevel]). Every
// edge has a reverse edge, so m is among n's targets exactly when n is
// among m's. The targets come in the graph's stored order; edge costs are
// not exposed.
//
// n runs from 0 to NodeIDs()−1 (an unused ID has no edges) and level from
// 1 to [Graph.Levels]; it panics otherwise. It is O(degree), allocates only to grow dst, and is
// safe for concurrent use.
func (h *Graph) AppendEdges(dst []NodeID, n NodeID, level int) []NodeID {
	h.mu.RLock()
	defer h.mu.RUnlock()
	h.checkNode(n)
	if level < 1 || level > h.Levels() {
		panic(fmt.Sprintf("hpa: AppendEdges at level %d, want 1 to %d", level, h.Levels()))
	}
	for _, e := range h.edgesAt(level, int32(n)) {
		dst = append(dst, NodeID(e.To))
	}
	return dst
}
