package hpa

import (
	"github.com/cairn-nav/cairn/core"
)

// halfEdge is an edge out of node from; mask is an annotated graph's
// classes that may take it (annotated.go), 0 in a Graph.
type halfEdge struct {
	from int32
	e    core.Edge
	mask uint64
}

// layoutEdges lays out the out-edges of nn nodes grouped by node, as
// offsets (node n's edges are edges[off[n]:off[n+1]]) and edges: first each
// node's edges of inter, in their order, then both directions of each edge
// of intra, in order. Build, Update and Read rely on that order.
func layoutEdges(nn int, inter []halfEdge, intra [][]intraEdge) (off []int32, edges []core.Edge) {
	off, edges, _ = layoutMasked(nn, inter, intra, false)
	return off, edges
}

// layoutMasked is layoutEdges, and with masks true the edges' masks too,
// in the same order.
func layoutMasked(nn int, inter []halfEdge, intra [][]intraEdge, masks bool) (off []int32, edges []core.Edge, mask []uint64) {
	fill := make([]int32, nn)
	for _, e := range inter {
		fill[e.from]++
	}
	for _, es := range intra {
		for _, e := range es {
			fill[e.from]++
			fill[e.to]++
		}
	}
	off = make([]int32, nn+1)
	for n := range nn {
		off[n+1] = off[n] + fill[n]
	}
	edges = make([]core.Edge, off[nn])
	if masks {
		mask = make([]uint64, off[nn])
	}
	copy(fill, off[:nn])
	add := func(from int32, e core.Edge, m uint64) {
		edges[fill[from]] = e
		if masks {
			mask[fill[from]] = m
		}
		fill[from]++
	}
	for _, e := range inter {
		add(e.from, e.e, e.mask)
	}
	for _, es := range intra {
		for _, e := range es {
			add(e.from, core.Edge{To: e.to, Cost: e.cost}, e.mask)
			add(e.to, core.Edge{To: e.from, Cost: e.cost}, e.mask)
		}
	}
	return off, edges, mask
}
