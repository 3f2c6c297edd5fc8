package hpa

import (
	"cmp"
	"image"
	"math"
	"math/bits"
	"slices"
	"sync/atomic"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
)

var baseCost = [8]float64{1, 1, 1, 1, math.Sqrt2, math.Sqrt2, math.Sqrt2, math.Sqrt2}

// windowClusters is the side, in clusters, of the largest window a search is
// confined to: a query between neighbouring clusters searches their bounding
// box grown by one cluster on every side.
const windowClusters = 4

// cluster presents a rectangle of cells of a [Graph]'s grid to the core
// search, usually one cluster: its nodes are the rectangle's cells, numbered
// row by row from its top-left corner, and its edges the legal steps that
// stay inside it. NumNodes is the area of the largest window whatever the
// rectangle, so one searcher serves them all without resizing its scratch
// (or, with span 1, the area of one cluster, for a searcher that only ever
// searches one).
type cluster struct {
	h    *Graph
	r    image.Rectangle
	cw   int
	span int // the largest rectangle's side, in clusters
}

func (c *cluster) set(id int32) { c.setRect(c.h.clusterRect(id)) }

func (c *cluster) setRect(r image.Rectangle) {
	c.r = r
	c.cw = r.Dx()
}

// id returns the local node of cell p, which must be inside the cluster.
func (c *cluster) id(p image.Point) int32 {
	return int32((p.Y-c.r.Min.Y)*c.cw + p.X - c.r.Min.X)
}

// cell returns the cell of local node n.
func (c *cluster) cell(n int32) image.Point {
	return image.Pt(c.r.Min.X+int(n)%c.cw, c.r.Min.Y+int(n)/c.cw)
}

func (c *cluster) NumNodes() int {
	side := c.span * c.h.cs
	return min(side, c.h.w) * min(side, c.h.h)
}

func (c *cluster) AppendEdges(dst []core.Edge, n int32) []core.Edge {
	h := c.h
	lx, ly := int(n)%c.cw, int(n)/c.cw
	p := image.Pt(c.r.Min.X+lx, c.r.Min.Y+ly)
	cw, ch := c.cw, c.r.Dy()
	m := h.g.Moves(p)
	for m != 0 {
		d := bits.TrailingZeros8(m)
		m &= m - 1
		s := grid.Step(d)
		nx, ny := lx+s.X, ly+s.Y
		if uint(nx) >= uint(cw) || uint(ny) >= uint(ch) {
			continue
		}
		cost := baseCost[d]
		if h.costs {
			cost = h.g.StepCost(p, p.Add(s))
		}
		dst = append(dst, core.Edge{To: int32(ny*cw + nx), Cost: cost})
	}
	return dst
}

// localDist is the octile (or Manhattan) distance from a local node of a
// cluster to a goal cell.
type localDist struct {
	c    *cluster
	goal image.Point
}

func (d *localDist) Estimate(n int32) float64 {
	return d.c.h.distance(d.c.cell(n), d.goal)
}

// distance is the grid's admissible, consistent estimate between two cells.
func (h *Graph) distance(a, b image.Point) float64 {
	if h.four {
		return grid.Manhattan(a, b)
	}
	return grid.Octile(a, b)
}

// clusterSearch runs searches confined to one cluster at a time, for the
// build and for queries. Its scratch is sized to one cluster. It is not safe
// for concurrent use.
type clusterSearch struct {
	c       cluster
	j       jumpCluster // c for jump point search
	jump    bool        // whether s searches j (unit terrain, 8-connected) rather than c
	s       *core.Searcher
	dist    localDist
	targets []int32
	ids     []int32
	sliced  *core.Sliced // a sliced search of a window (beginSliced), made at the first
}

func newClusterSearch(h *Graph) *clusterSearch { return newSpanSearch(h, windowClusters) }

// newSpanSearch returns a cluster search whose rectangles are at most span
// clusters on a side.
func newSpanSearch(h *Graph, span int) *clusterSearch {
	cs := &clusterSearch{c: cluster{h: h, span: span}, jump: !h.costs && !h.four}
	cs.j.c = &cs.c
	if cs.jump {
		cs.s = core.NewSearcher(&cs.j)
	} else {
		cs.s = core.NewSearcher(&cs.c)
	}
	cs.dist.c = &cs.c
	return cs
}

// connect appends the intra-cluster edges of cluster c to dst: for each
// abstract node, one Dijkstra search to the cluster's later nodes (in the
// order of h.cnodes[c]), each edge from the earlier node to the later.
func (cs *clusterSearch) connect(dst []intraEdge, c int32) []intraEdge {
	return cs.connectAmong(dst, c, cs.c.h.cnodes[c], cs.c.h.nodes, 0)
}

// connectAmong is connect for the nodes ids of cluster c, whose cells are
// in nodes (those of another graph than the searcher's, for an annotated
// one), their edges given mask.
func (cs *clusterSearch) connectAmong(dst []intraEdge, c int32, ids []int32, nodes []node, mask uint64) []intraEdge {
	cs.c.set(c)
	for i := 0; i+1 < len(ids); i++ {
		cs.targets = cs.targets[:0]
		for _, j := range ids[i+1:] {
			cs.targets = append(cs.targets, cs.c.id(nodes[j].cell()))
		}
		cs.setTargets(cs.targets...)
		cs.s.SearchAll(cs.c.id(nodes[ids[i]].cell()), cs.targets, core.Query{})
		for k, t := range cs.targets {
			if d, ok := cs.s.Dist(t); ok {
				dst = append(dst, intraEdge{from: ids[i], to: ids[i+1+k], cost: d, mask: mask})
			}
		}
	}
	return dst
}

// searchFrom runs one Dijkstra search from cell p to every abstract node of
// cluster c, which holds p, and returns the nodes expanded. Until the next
// search, [clusterSearch.nodeDist] answers for the cluster's nodes.
func (cs *clusterSearch) searchFrom(c int32, p image.Point) int {
	return cs.searchAmong(c, p, cs.c.h.cnodes[c], cs.c.h.nodes)
}

// searchAmong is searchFrom to the nodes ids of cluster c, whose cells are
// in nodes; nodeDist(i) then answers for ids[i].
func (cs *clusterSearch) searchAmong(c int32, p image.Point, ids []int32, nodes []node) int {
	cs.c.set(c)
	cs.targets = cs.targets[:0]
	for _, n := range ids {
		cs.targets = append(cs.targets, cs.c.id(nodes[n].cell()))
	}
	cs.setTargets(cs.targets...)
	return cs.s.SearchAll(cs.c.id(p), cs.targets, core.Query{}).Expanded
}

// appendTreePath appends to dst the cells of the shortest path that the
// latest searchFrom found from its cell to p, a cell of its cluster that
// it settled: after its cell, p included, or, reversed, the path from p
// back to its cell, after p.
func (cs *clusterSearch) appendTreePath(dst []image.Point, p image.Point, reversed bool) []image.Point {
	cs.ids = cs.s.AppendPath(cs.ids[:0], cs.c.id(p))
	if !reversed {
		return cs.appendCells(dst, cs.ids)
	}
	n0 := len(dst)
	dst = cs.appendCells(append(dst, cs.c.cell(cs.ids[0])), cs.ids)
	slices.Reverse(dst[n0:])
	return append(dst[:n0], dst[n0+1:]...)
}

// nodeDist returns the cost from the latest searchFrom's cell to the i-th
// abstract node of its cluster, and whether that node is reachable inside
// the cluster.
func (cs *clusterSearch) nodeDist(i int) (float64, bool) {
	return cs.s.Dist(cs.targets[i])
}

// appendPath finds a shortest path from a to b inside cluster c and appends
// its cells after a, b included, to dst. It returns the nodes expanded and
// false when b cannot be reached from a inside the cluster.
func (cs *clusterSearch) appendPath(dst []image.Point, c int32, a, b image.Point) ([]image.Point, int, bool) {
	return cs.appendPathIn(dst, cs.c.h.clusterRect(c), a, b)
}

// appendPathIn is appendPath inside any rectangle r no larger than the
// largest window.
func (cs *clusterSearch) appendPathIn(dst []image.Point, r image.Rectangle, a, b image.Point) ([]image.Point, int, bool) {
	if a == b {
		return dst, 0, true
	}
	cs.c.setRect(r)
	cs.dist.goal = b
	cs.setTargets(cs.c.id(b))
	res := cs.s.Search(cs.c.id(a), cs.c.id(b), &cs.dist, core.Query{})
	if res.Status != core.Found {
		return dst, res.Expanded, false
	}
	cs.ids = cs.s.AppendPath(cs.ids[:0], res.End)
	return cs.appendCells(dst, cs.ids), res.Expanded, true
}

// beginSliced starts a sliced search from cell a to cell b inside
// rectangle r, no larger than the largest window, on cs.sliced, which
// it makes the first time; slicedCells then gives its path.
func (cs *clusterSearch) beginSliced(r image.Rectangle, a, b image.Point) {
	if cs.sliced == nil {
		if cs.jump {
			cs.sliced = core.NewSliced(&cs.j)
		} else {
			cs.sliced = core.NewSliced(&cs.c)
		}
	}
	cs.c.setRect(r)
	cs.dist.goal = b
	cs.setTargets(cs.c.id(b))
	cs.sliced.Begin(cs.c.id(a), cs.c.id(b), &cs.dist, core.Query{})
}

// slicedCells appends the cells of the path that the sliced search found,
// ending at local node end, after its start, to dst.
func (cs *clusterSearch) slicedCells(dst []image.Point, end int32) []image.Point {
	cs.ids = cs.sliced.AppendPath(cs.ids[:0], end)
	return cs.appendCells(dst, cs.ids)
}

// appendCells appends the cells of a path of local nodes after its first
// to dst: the nodes themselves, or, for jump point search, every cell of
// the runs between them.
func (cs *clusterSearch) appendCells(dst []image.Point, ids []int32) []image.Point {
	for k := 1; k < len(ids); k++ {
		if cs.jump {
			dst = appendJumpPath(dst, cs.c.cell(ids[k-1]), cs.c.cell(ids[k]))
		} else {
			dst = append(dst, cs.c.cell(ids[k]))
		}
	}
	return dst
}

// clusterPaths keeps the paths inside one cluster that refinement has
// found between its nodes, so that refining the same level-1 edge again
// costs a lookup instead of a search. The path from the cluster's i-th
// node to its j-th (in the order of its node list, of k nodes) is at
// i·k + j: its steps, each a direction of grid.Step, once a query has
// searched it.
type clusterPaths struct {
	k     int
	paths []atomic.Pointer[[]uint8]
}

// appendNodePath appends the cells of a shortest path inside cluster c from
// its node a to its node b, after a, b included, to dst, and returns the
// cells expanded to find it: 0 when a query found it before. It finds the
// path with appendPath, so the cells are those a search gives, and keeps
// it; queries racing on a path may each search it, and keep one. The caller
// holds h.mu for reading; an in-place Update drops the paths of the
// clusters it relinks.
func (cs *clusterSearch) appendNodePath(dst []image.Point, c, a, b int32) ([]image.Point, int, bool) {
	h := cs.c.h
	cp := h.cpaths[c].Load()
	if cp == nil {
		k := len(h.cnodes[c])
		cp = &clusterPaths{k: k, paths: make([]atomic.Pointer[[]uint8], k*k)}
		if !h.cpaths[c].CompareAndSwap(nil, cp) {
			cp = h.cpaths[c].Load()
		}
	}
	pa, pb := h.nodes[a].cell(), h.nodes[b].cell()
	i, j := h.localIndex(c, a), h.localIndex(c, b)
	if i < 0 || j < 0 {
		return dst, 0, false
	}
	slot := &cp.paths[i*cp.k+j]
	if steps := slot.Load(); steps != nil {
		at := pa
		for _, s := range *steps {
			at = at.Add(grid.Step(int(s)))
			dst = append(dst, at)
		}
		return dst, 0, true
	}
	n0 := len(dst)
	dst, e, ok := cs.appendPath(dst, c, pa, pb)
	if ok {
		steps := make([]uint8, len(dst)-n0)
		prev := pa
		for k, p := range dst[n0:] {
			steps[k] = uint8(grid.StepDir(p.Sub(prev)))
			prev = p
		}
		slot.Store(&steps)
	}
	return dst, e, ok
}

// localIndex returns the index of node n in cluster c's node list, or −1.
func (h *Graph) localIndex(c, n int32) int {
	ids := h.cnodes[c]
	p := h.nodes[n].cell()
	i, ok := slices.BinarySearchFunc(ids, p, func(id int32, p image.Point) int {
		q := h.nodes[id]
		return cmp.Or(cmp.Compare(int(q.y), p.Y), cmp.Compare(int(q.x), p.X))
	})
	if !ok {
		return -1
	}
	return i
}

// setTargets marks the local nodes at which jump point runs stop; the
// plain search needs none.
func (cs *clusterSearch) setTargets(ts ...int32) {
	if cs.jump {
		cs.j.setTargets(ts...)
	}
}
