package hpa

import (
	"image"
	"math"
	"slices"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/internal/radix"
)

// Landmarks sharpen the abstract search's estimate on the top level (ALT:
// A*, landmarks and the triangle inequality, Goldberg and Harrelson 2005).
// A graph keeps, for a few landmark nodes of its top level, the distance
// from each to every node of that level in the top level's graph. For a
// landmark L and two nodes a and b, d(a, b) ≥ |d(L, b) − d(L, a)|.
//
// A query's goal is not a node of the top level, but its abstract search
// reaches the goal only through the top-level nodes T of the goal's
// cluster there, by an edge of cost c(T), the distance inside that cluster
// (see lift.go), so d(n, goal) ≥ min over T of (|d(L, T) − d(L, n)| + c(T)).
// Relaxing the absolute value both ways gives max(P − d(L, n), d(L, n) − Q),
// with P = min (d(L, T) + c(T)) and Q = max (d(L, T) − c(T)), two numbers
// per landmark made once per query. A node's estimate is the largest of
// these, over the landmarks the query uses (see activeLandmarks), and the
// octile distance. It never overestimates, and it is
// consistent: on the level's edges by the triangle inequality, on an edge
// into the goal as P ≤ d(L, T) + c(T) and Q ≥ d(L, T) − c(T), and on the
// start's edges as the octile distance is.
//
// The landmarks are the free cells nearest the map's four corners and the
// middles of its four sides (grid.Grid.NearestFree), joined to the top
// level as a query's ends are
// (lift.go): a search of the cell's level-1 cluster, then the tables of
// its clusters above. Its distances are those of a Dijkstra search of the
// top level seeded with those joins. A landmark is then as far out as the
// map allows, where the nodes of the top level nearest the corners (the
// landmarks before) lie a cluster of the top level inward: a long query's
// goal deep in a corner's cluster had no landmark beyond it, and its
// exact estimate stayed a tenth below the cost. The bounds above hold for
// such a landmark too: its distances are those of the top level's graph
// with one node added, joined to the nodes it reaches. A landmark in a
// small part of its own, cut off from the rest, bounds nothing but does no
// harm. The cells, joins and distances depend on the grid and the graph
// alone, not on node IDs (Dijkstra's values do not depend on the order of
// the heap; see clusterAPSP), so a graph updated in place and one built
// afresh get the same bounds and answer queries alike. An in-place update
// repairs them (landmarks_repair.go).

// numLandmarks is how many landmarks a graph keeps: one per corner and one
// per side. With the four corners alone, the 20 random long pairs of the
// 4096² demo world expanded 1 219 abstract nodes a query; with the sides
// too, 881 (and Berlin ×4's corner-to-corner queries 111 against 113).
const numLandmarks = 8

// activeLandmarks is how many of them a query uses (Goldberg and
// Harrelson's active landmarks): those whose bounds on the distance from
// the start to the goal are largest. A node's estimate then costs what it
// did with four landmarks; using all eight gave 2–5 % fewer expansions.
const activeLandmarks = 4

// landmarks are a graph's landmark distances on one level, a row per node
// of the level and a column per landmark.
type landmarks struct {
	level int // the level they are measured on: the graph's top
	k     int // columns: numLandmarks, or 0 for a level of fewer than two nodes
	// Per landmark, its cell and its joins to the level's nodes (node ID,
	// cost); no joins for a grid without free cells.
	cell  [numLandmarks]image.Point
	seeds [numLandmarks][]core.Edge
	slot  []int32 // per node ID: its row plus one, 0 for a node absent from the level
	ids   []int32 // per row: its node ID, −1 for a free row
	free  []int32 // free rows
	// Per row, k entries: the distance from each landmark (+Inf where
	// none); and per landmark, per row, the row before it on the
	// landmark's tree (−1 for a row joined to the landmark, and where
	// none).
	dist []float64
	par  [numLandmarks][]int32
	// Per landmark, the children lists of its tree, made by the first
	// repair that needs them and kept up to date by setPar from then on
	// (nil until then, and after a measure).
	kids [numLandmarks]*kidLists
	// For a class of an annotated graph: the masks of the level's edges,
	// per node, of which only those with bit are followed; nil for a
	// Graph.
	mask [][]uint64
	bit  uint64
}

// row returns the distances from the landmarks to node n, or nil for a
// node without them.
func (lm *landmarks) row(n int32) []float64 {
	if int(n) >= len(lm.slot) {
		return nil
	}
	s := int(lm.slot[n])
	if s == 0 {
		return nil
	}
	return lm.dist[(s-1)*lm.k : s*lm.k]
}

// landmarkScratch is the reusable memory of measuring landmarks.
type landmarkScratch struct {
	lost, rows []int32
	mark, done []uint32
	cur        uint32
	heap       radix.Heap
	// The joins of a landmark's cell (landmark).
	cs    *clusterSearch
	ap    clusterAPSP
	end   endLift
	seeds []core.Edge
}

// stamp starts a new generation of sc.mark and sc.done for n rows.
func (sc *landmarkScratch) stamp(n int) uint32 {
	sc.mark, sc.done = grow(sc.mark, n), grow(sc.done, n)
	sc.cur++
	if sc.cur == 0 {
		clear(sc.mark)
		clear(sc.done)
		sc.cur = 1
	}
	return sc.cur
}

// grow returns s resliced to n elements, keeping its elements, made anew
// when it lacks room.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return append(s[:cap(s)], make([]T, n-cap(s))...)[:n]
	}
	return s[:n]
}

// isMember reports whether node n is a node of level l.
func (h *Graph) isMember(l int, n int32) bool {
	return int(n) < len(h.nodes) && h.nodes[n].cluster >= 0 && len(h.edgesAt(l, n)) > 0
}

// measureLandmarks measures the landmarks of h's top level from scratch.
// It is O(k · (V log V + E)) for the level's V nodes and E edges: at 4096²,
// some 5 500 nodes and 50 000 edges.
func (h *Graph) measureLandmarks(sc *landmarkScratch) {
	top := h.Levels()
	lm := newLandmarks(top, len(h.nodes), func(n int32) bool { return h.isMember(top, n) })
	h.lm = lm
	for i := range lm.k {
		lm.cell[i], lm.seeds[i] = sc.landmark(h, i)
		lm.seeds[i] = slices.Clone(lm.seeds[i])
		lm.measure(h, sc, i)
	}
}

// newLandmarks returns the landmarks of a level of nn node IDs whose
// members are the nodes for which member is true, a row each, with no
// column measured; with fewer than two members, none (k = 0).
func newLandmarks(level, nn int, member func(n int32) bool) *landmarks {
	lm := &landmarks{level: level, slot: make([]int32, nn)}
	for n := range int32(nn) {
		if member(n) {
			lm.ids = append(lm.ids, n)
			lm.slot[n] = int32(len(lm.ids))
		}
	}
	if len(lm.ids) < 2 {
		lm.ids, lm.slot = nil, nil
		return lm
	}
	lm.k = numLandmarks
	lm.dist = make([]float64, len(lm.ids)*lm.k)
	for i := range lm.k {
		lm.par[i] = make([]int32, len(lm.ids))
	}
	return lm
}

// landmarkCorner returns the cell of a w×h map that landmark i is
// nearest: a corner for i < 4, then the middle of a side.
func landmarkCorner(w, h, i int) image.Point {
	return [numLandmarks]image.Point{{0, 0}, {w - 1, 0}, {0, h - 1}, {w - 1, h - 1}, {w / 2, 0}, {w / 2, h - 1}, {0, h / 2}, {w - 1, h / 2}}[i]
}

// landmark returns landmark i's cell, the free cell nearest the i-th
// corner of the map, and its joins to the top level, in sc.seeds (nil for
// a grid without free cells).
func (sc *landmarkScratch) landmark(h *Graph, i int) (image.Point, []core.Edge) {
	p, ok := h.g.NearestFree(landmarkCorner(h.w, h.h, i))
	if !ok {
		return p, nil
	}
	if sc.cs == nil {
		sc.cs = newSpanSearch(h, 1)
	}
	e := &sc.end
	e.edges[1], _ = joinCluster(h, e.edges[1][:0], p, sc.cs)
	top := h.Levels()
	for l := 2; l <= top; l++ {
		e.lift(h, &sc.ap, l, h.clusterAt(l, p))
	}
	sc.seeds = append(sc.seeds[:0], e.edges[top]...)
	return p, sc.seeds
}

// edges returns node n's edges on lm's level, and their masks for a
// class of an annotated graph (nil for a Graph's landmarks).
func (lm *landmarks) edges(h *Graph, n int32) ([]core.Edge, []uint64) {
	if lm.mask == nil {
		return h.edgesAt(lm.level, n), nil
	}
	return h.edgesAt(lm.level, n), lm.mask[n]
}

// measure sets column i from a Dijkstra search from its landmark's joins.
func (lm *landmarks) measure(h *Graph, sc *landmarkScratch, i int) {
	k := lm.k
	lm.kids[i] = nil // made again by the next repair
	for r := range len(lm.ids) {
		lm.dist[r*k+i], lm.par[i][r] = math.Inf(1), -1
	}
	sc.heap.Reset()
	lm.seed(sc, i, nil, 0)
	lm.settle(h, sc, i)
}

// seed lowers the rows that landmark i joins to their joins' costs, only
// those marked cur in sc.mark unless marked is nil, and pushes them on
// sc.heap.
func (lm *landmarks) seed(sc *landmarkScratch, i int, marked []uint32, cur uint32) {
	k := lm.k
	for _, e := range lm.seeds[i] {
		r := lm.slot[e.To] - 1
		if r < 0 || marked != nil && marked[r] != cur {
			continue
		}
		if at := int(r)*k + i; e.Cost < lm.dist[at] {
			lm.dist[at] = e.Cost
			lm.setPar(i, r, -1)
			sc.heap.Push(math.Float64bits(e.Cost), r)
		}
	}
}

// settle runs Dijkstra's search of column i from the rows on sc.heap, with
// their distances set.
func (lm *landmarks) settle(h *Graph, sc *landmarkScratch, i int) {
	k := lm.k
	cur := sc.stamp(len(lm.ids))
	hp := &sc.heap
	for hp.Len() > 0 {
		top := hp.Pop()
		u := top.Node
		du := lm.dist[int(u)*k+i]
		if sc.done[u] == cur || math.Float64frombits(top.Key) > du {
			continue
		}
		sc.done[u] = cur
		es, ms := lm.edges(h, lm.ids[u])
		for j, e := range es {
			if ms != nil && ms[j]&lm.bit == 0 {
				continue // not the class's
			}
			w := lm.slot[e.To] - 1
			if w < 0 {
				continue
			}
			if nd := du + e.Cost; nd < lm.dist[int(w)*k+i] {
				lm.dist[int(w)*k+i] = nd
				lm.setPar(i, w, u)
				hp.Push(math.Float64bits(nd), w)
			}
		}
	}
}

// altBound is one query's landmark bound (see the top of this file): the
// two numbers of each landmark, and the landmarks the query uses.
type altBound struct {
	lm   *landmarks // nil when the query does not use the landmarks
	p, q [numLandmarks]float64
	act  [activeLandmarks]int
	nact int
}

// set makes the bound of a query whose abstract search runs on level top,
// with goal the edges into the goal from the nodes of its cluster there
// and start those from the start; it uses no landmarks when top is not
// their level. It picks the activeLandmarks landmarks whose bounds on the
// start's distance to the goal (through its edges) are largest; any choice
// keeps the estimate a consistent lower bound.
func (b *altBound) set(h *Graph, top int, goal, start []core.Edge) {
	b.setFor(h.lm, top, goal, start)
}

// setFor is set with the landmarks lm (nil for none).
func (b *altBound) setFor(lm *landmarks, top int, goal, start []core.Edge) {
	b.lm = nil
	if lm == nil || lm.k == 0 || lm.level != top {
		return
	}
	inf := math.Inf(1)
	for i := range lm.k {
		b.p[i], b.q[i] = inf, -inf
	}
	for _, e := range goal {
		for i, x := range lm.row(e.To) {
			if x < inf {
				b.p[i] = min(b.p[i], x+e.Cost)
				b.q[i] = max(b.q[i], x-e.Cost)
			}
		}
	}
	// A landmark in another part than the goal's gives no bound: with P
	// at −Inf and Q at +Inf its terms are −Inf or NaN, which estimate
	// ignores. Otherwise a node it cannot reach gets +Inf: it cannot reach
	// the goal either.
	for i := range lm.k {
		if b.p[i] == inf {
			b.p[i], b.q[i] = -inf, inf
		}
	}
	// Each landmark's bound on the start's distance to the goal, through
	// its joins; the best few are used.
	var at [numLandmarks]float64
	for i := range lm.k {
		at[i] = inf
		for _, e := range start {
			r := lm.row(e.To)
			if r == nil {
				continue
			}
			d := b.term(i, r[i])
			if !(d > 0) { // NaN: no bound
				d = 0
			}
			at[i] = min(at[i], d+e.Cost)
		}
		if at[i] == inf {
			at[i] = 0
		}
	}
	b.nact = 0
	for range min(activeLandmarks, lm.k) {
		best := -1
		for i := range lm.k {
			if at[i] >= 0 && (best < 0 || at[i] > at[best]) {
				best = i
			}
		}
		b.act[b.nact] = best
		b.nact++
		at[best] = -1
	}
	b.lm = lm
}

// estimate raises e, an estimate of node n, to the landmark bound. (A NaN
// term, +Inf less +Inf, compares false and is ignored.)
func (b *altBound) estimate(e float64, n int32) float64 {
	if b.lm == nil {
		return e
	}
	r := b.lm.row(n)
	if r == nil {
		return e
	}
	for _, i := range b.act[:b.nact] {
		if d := b.term(i, r[i]); d > e {
			e = d
		}
	}
	return e
}

// term returns landmark i's bound on the distance to the goal from a node
// at distance x from it: the larger of P − x and x − Q, −Inf or NaN where
// it gives none (P at −Inf and Q at +Inf).
func (b *altBound) term(i int, x float64) float64 {
	d, c := b.p[i]-x, x-b.q[i]
	if c > d {
		return c
	}
	return d
}
