// Package core is the A* search that every layer of Cairn runs on.
//
// The graph is seen through the small [Graph] interface: nodes are dense
// integer IDs in [0, NumNodes), and one call per expansion appends a node's
// out-edges to a buffer the searcher owns. Edge costs must be non-negative;
// an edge of cost +Inf, or one that would make a path's cost overflow to
// +Inf, is skipped as if absent, so costs always come back finite. The
// search checks every edge it is given, at the cost of two comparisons: an
// edge to a node outside [0, NumNodes), or of a negative or NaN cost, is a
// bug of the graph, and the search panics with a message naming the node,
// the edge and its cost (a negative cycle would otherwise never end). A [Heuristic] is given per query; it must never overestimate
// the remaining cost (admissible) for the returned paths to be optimal, and
// should be consistent (h(a) ≤ cost(a,b) + h(b)) for no node to be expanded
// twice. A nil heuristic is Dijkstra's algorithm.
//
// A [Searcher] owns all scratch memory (costs, parents, the open list) in flat
// slices indexed by node and stamped with a generation counter, so starting a
// new query costs O(1) and a steady-state query allocates nothing. The open
// list is a typed binary heap with lazy deletion: an improved node is pushed
// again and the stale entry is skipped when popped. Ties on f are broken
// toward larger g, which on grids and meshes with many equal-cost paths
// expands far fewer nodes. Costs are compared to one part in 10¹²: f to 40
// significant bits in the heap's integer keys, and a new cost for a node
// counts as an improvement only when it is smaller by more than that, so
// that sums of the same steps taken in another order, which differ in their
// last bits, count as equal. Paths are optimal to that precision.
//
// [Sliced] runs the same search a bounded number of expansions at a time, so a
// game can spread one long query over several frames; it owns its own scratch
// and cannot disturb a blocking query.
//
// A Searcher or Sliced is not safe for concurrent use: give each goroutine its
// own. The graph they read may be shared.
package core

import (
	"fmt"
	"math"
	"slices"
)

// Edge is one out-edge of a node: the node it leads to and its cost.
type Edge struct {
	To   int32
	Cost float64
}

// Graph is what the search needs of a graph. Implementations must be safe for
// concurrent reads if several searchers share them.
//
// A graph may make its nodes while it is searched, as the navmesh's search
// graph does: NumNodes is read when a search begins, and again when an edge
// names a node at or past the count read last, so it may grow during a
// search (the search's scratch grows with it); an edge to a node past the
// latest count is a broken contract.
type Graph interface {
	// NumNodes returns the number of nodes; IDs run from 0 to NumNodes()-1.
	NumNodes() int
	// AppendEdges appends the out-edges of node n to dst and returns the
	// extended slice. It should not allocate when dst has room. It is
	// called once per expansion, and once more per node of the result's
	// path only after a search in which an expanded node was improved and
	// expanded again (a heuristic that is not consistent, or a weight above
	// 1, can do that): the path's cost is then summed from its edges, which
	// must be the same as before.
	AppendEdges(dst []Edge, n int32) []Edge
}

// PrunedGraph is a [Graph] whose out-edges depend on the node a search
// reached it from, as in jump point search, where the direction of arrival
// prunes the successors. When the graph given to a searcher implements it,
// the search calls AppendEdgesFrom instead of AppendEdges; parent is -1 for
// the start node.
type PrunedGraph interface {
	Graph
	AppendEdgesFrom(dst []Edge, n, parent int32) []Edge
}

// Heuristic estimates the cost from a node to the goal of the current query.
type Heuristic interface {
	Estimate(n int32) float64
}

// Status says how a search ended.
type Status uint8

const (
	// NotSearched is the zero Status: no search ran, as in the zero Result
	// that every layer returns beside an error. It never reads as Found.
	NotSearched Status = iota
	// Found means a path to the goal was found.
	Found
	// Unreachable means the open list ran empty: no path exists.
	Unreachable
	// BudgetSpent means the expansion budget ran out first; the result
	// describes a partial path to the node with the lowest heuristic seen.
	BudgetSpent
	// InProgress means a [Sliced] search has more steps to take.
	InProgress
)

func (s Status) String() string {
	switch s {
	case NotSearched:
		return "not searched"
	case Found:
		return "found"
	case Unreachable:
		return "unreachable"
	case BudgetSpent:
		return "budget spent"
	case InProgress:
		return "in progress"
	}
	return fmt.Sprintf("Status(%d)", uint8(s))
}

// Query tunes one query. The zero value is plain, unbounded A*.
type Query struct {
	// Weight multiplies the heuristic: f = g + Weight·h. Values below 1
	// (including the zero value), NaN and +Inf mean 1. With an admissible
	// heuristic a weighted search returns a path no longer than Weight times
	// the optimum.
	Weight float64
	// MaxExpansions caps the number of node expansions; 0 means no cap.
	// When the cap is reached the search ends with [BudgetSpent] and a
	// partial path toward the goal.
	MaxExpansions int
	// OnExpand, when not nil, is called with each node as it is expanded,
	// in order, and its cost from the start. It costs one nil check per
	// expansion when unused.
	OnExpand func(n int32, g float64)
}

// Result describes a finished search.
type Result struct {
	Status Status
	// End is the last node of the path: the goal when Found, the node of
	// lowest heuristic reached when BudgetSpent, -1 when Unreachable.
	End int32
	// Cost is the cost of the path from the start to End.
	Cost float64
	// Expanded counts the nodes expanded.
	Expanded int
}

// node state stamps: a node is unseen unless its stamp equals the current
// generation (open) or the generation plus one (closed).
type nodeState struct {
	g      float64
	parent int32
	stamp  uint32
}

// entry is one open-list entry, 16 bytes, ordered by one integer compare.
// key packs f and the tie-break: the bits of f, a non-negative float64
// (whose order as unsigned integers is the order of the floats), with the
// lowest tieBits bits of its mantissa replaced by 2^tieBits−1 − ⌊g/f ·
// (2^tieBits−1)⌋, so that among entries whose f agree to 52−tieBits bits,
// the one with larger g comes first. f is thus compared to one part in 2^40
// (about 10⁻¹²), the same tolerance [noise] gives improvements: costs that
// differ by less are rounding noise of sums taken in another order.
type entry struct {
	key  uint64
	node int32
}

const (
	tieBits = 12
	tieMax  = 1<<tieBits - 1
)

func makeEntry(f, g float64, n int32) entry {
	tie := uint64(tieMax)
	if f > 0 {
		tie = tieMax - uint64(g/f*tieMax)
		if tie > tieMax { // g > f: rounding, or an inconsistent h
			tie = 0
		}
	}
	return entry{key: math.Float64bits(f)&^tieMax | tie, node: n}
}

// less orders heap entries by f, then toward larger g.
func less(a, b *entry) bool { return a.key < b.key }

// noise is the relative improvement below which a new cost for a node
// counts as rounding noise rather than a shorter path: sums of the same
// steps in another order differ in their last bits, and each such
// "improvement" would cost a heap entry and possibly an expansion.
const noise = 1e-12

// search is the state shared by Searcher and Sliced.
type search struct {
	graph  Graph
	pruned PrunedGraph // graph, when it prunes by parent
	nodes  []nodeState
	gen    uint32
	heap   []entry
	edges  []Edge

	// current query
	goal     int32
	isGoal   func(int32) bool
	targets  int // targets not yet settled, for multi-target searches
	target   []uint32
	h        Heuristic
	w        float64
	opt      Query
	expanded int
	best     int32 // node of lowest h seen
	bestH    float64
	reopened bool // a closed node was improved: g of its descendants may be stale
	res      Result
	done     bool
}

// newSearch returns the state of a search on g.
func newSearch(g Graph) search {
	var s search
	s.init(g)
	return s
}

func (s *search) init(g Graph) {
	if g == nil {
		panic("core: searcher of a nil graph")
	}
	n := g.NumNodes()
	if n < 0 || n > math.MaxInt32 {
		panic(fmt.Sprintf("core: graph has %d nodes, want 0..%d", n, math.MaxInt32))
	}
	s.graph = g
	s.pruned, _ = g.(PrunedGraph)
	s.nodes = make([]nodeState, n)
	s.gen = 0
}

// resize grows the scratch to the graph's current node count.
func (s *search) resize() {
	if n := s.graph.NumNodes(); n != len(s.nodes) {
		if n <= cap(s.nodes) {
			s.nodes = s.nodes[:n]
		} else {
			s.nodes = make([]nodeState, n)
		}
		clear(s.nodes)
		clear(s.target)
		s.gen = 0
	}
}

// grow extends the scratch, during a search, to a graph that now has more
// nodes than when it began, and reports whether node v is now in range.
// The new nodes' states are zero: unseen by any search.
func (s *search) grow(v int32) bool {
	n := s.graph.NumNodes()
	if n <= len(s.nodes) || n > math.MaxInt32 {
		return false
	}
	old := len(s.nodes)
	s.nodes = slices.Grow(s.nodes, n-old)[:n]
	clear(s.nodes[old:])
	if len(s.target) > 0 && len(s.target) < n {
		k := len(s.target)
		s.target = slices.Grow(s.target, n-k)[:n]
		clear(s.target[k:])
	}
	return int(v) < n
}

func (s *search) nextGen() {
	s.gen += 2
	if s.gen == 0 || s.gen == math.MaxUint32 {
		// Wrap-around: stamps from 2^31 searches ago could look current.
		clear(s.nodes)
		clear(s.target)
		s.gen = 2
	}
}

func (s *search) checkNode(n int32, what string) {
	if n < 0 || int(n) >= len(s.nodes) {
		panic(fmt.Sprintf("core: %s node %d out of range [0, %d)", what, n, len(s.nodes)))
	}
}

func (s *search) begin(start int32, h Heuristic, opt Query) {
	s.resize()
	s.checkNode(start, "start")
	s.nextGen()
	s.heap = s.heap[:0]
	s.h = h
	s.w = opt.Weight
	if !(s.w >= 1) || math.IsInf(s.w, 1) {
		s.w = 1
	}
	s.opt = opt
	s.expanded = 0
	s.reopened = false
	s.done = false
	s.res = Result{Status: InProgress, End: -1}
	s.isGoal = nil
	s.targets = 0
	hs := s.estimate(start)
	s.best, s.bestH = start, hs
	s.nodes[start] = nodeState{g: 0, parent: -1, stamp: s.gen}
	s.push(makeEntry(s.w*hs, 0, start))
}

func (s *search) estimate(n int32) float64 {
	if s.h == nil {
		return 0
	}
	if h := s.h.Estimate(n); h > 0 {
		return h
	}
	return 0 // also for NaN: keys must be non-negative
}

func (s *search) reached(n int32) bool {
	if s.isGoal != nil {
		return s.isGoal(n)
	}
	if s.targets > 0 {
		if s.target[n] == s.gen {
			s.target[n] = 0
			s.targets--
		}
		return s.targets == 0
	}
	return n == s.goal
}

// step expands at most n nodes (n ≤ 0: no limit) and reports whether the
// search has ended.
func (s *search) step(n int) bool {
	if s.done {
		return true
	}
	nodes := s.nodes
	gen := s.gen
	closed := gen + 1
	for steps := 0; n <= 0 || steps < n; steps++ {
		if len(s.heap) == 0 {
			s.finish(Result{Status: Unreachable, End: -1})
			return true
		}
		top := s.pop()
		u := top.node
		su := &nodes[u]
		if su.stamp == closed {
			// A stale entry of a node already expanded. (An entry made stale
			// by an improvement of a node still open cannot come first: the
			// improved entry has the same h and a smaller g.)
			steps-- // not an expansion
			continue
		}
		if s.reached(u) {
			su.stamp = closed
			s.finish(Result{Status: Found, End: u, Cost: su.g})
			return true
		}
		if s.opt.MaxExpansions > 0 && s.expanded >= s.opt.MaxExpansions {
			s.push(top) // leave the open list as it was
			s.finish(Result{Status: BudgetSpent, End: s.best, Cost: nodes[s.best].g})
			return true
		}
		su.stamp = closed
		s.expanded++
		gu := su.g
		if s.opt.OnExpand != nil {
			s.opt.OnExpand(u, gu)
		}
		if s.pruned != nil {
			s.edges = s.pruned.AppendEdgesFrom(s.edges[:0], u, su.parent)
		} else {
			s.edges = s.graph.AppendEdges(s.edges[:0], u)
		}
		for _, e := range s.edges {
			v := e.To
			ng := gu + e.Cost
			if uint32(v) >= uint32(len(nodes)) && v >= 0 && s.grow(v) {
				nodes = s.nodes // the graph has made more nodes
			}
			if uint32(v) >= uint32(len(nodes)) || !(e.Cost >= 0) || !(ng <= math.MaxFloat64) {
				s.checkEdge(u, e) // panics unless the edge is to be skipped
				continue
			}
			sv := &nodes[v]
			if (sv.stamp == gen || sv.stamp == closed) && ng >= sv.g*(1-noise) {
				// Not better, or better only by rounding noise. (With an
				// inconsistent heuristic a closed node can still improve;
				// it is then reopened so the result stays optimal.)
				continue
			}
			if sv.stamp == closed {
				s.reopened = true
			}
			sv.g = ng
			sv.parent = u
			sv.stamp = gen
			hv := s.estimate(v)
			if hv < s.bestH || (hv == s.bestH && ng < nodes[s.best].g) {
				s.best, s.bestH = v, hv
			}
			s.push(makeEntry(ng+s.w*hv, ng, v))
		}
	}
	return false
}

// checkEdge is the slow path of an edge the search cannot take: it panics
// when the graph broke its contract (an edge to a node out of range, a
// negative or NaN cost) and returns for an edge of cost +Inf, or one whose
// cost overflows the path's to +Inf, which the search skips as absent.
func (s *search) checkEdge(u int32, e Edge) {
	switch {
	case uint32(e.To) >= uint32(len(s.nodes)):
		panic(fmt.Sprintf("core: graph gave node %d an edge to node %d, outside [0, %d)", u, e.To, len(s.nodes)))
	case !(e.Cost >= 0):
		panic(fmt.Sprintf("core: graph gave node %d an edge to node %d of cost %v, want a cost ≥ 0", u, e.To, e.Cost))
	}
}

func (s *search) finish(r Result) {
	r.Expanded = s.expanded
	if r.End >= 0 && s.reopened {
		// The node's g may predate an improvement of one of its ancestors;
		// the path runs through the improved ancestors, so cost that path.
		// Without a reopened node every g is the cost of its parent chain:
		// a node improved while open has no children yet.
		r.Cost = s.chainCost(r.End)
	}
	s.res = r
	s.done = true
}

func (s *search) push(e entry) {
	h := append(s.heap, e)
	siftUp(h, len(h)-1, e)
	s.heap = h
}

// siftUp puts e at index i of the heap h, or above it: parents larger than
// e move down.
func siftUp(h []entry, i int, e entry) {
	for i > 0 {
		p := (i - 1) / 2
		if !less(&e, &h[p]) {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = e
}

// pop removes the minimum entry. It sifts the hole left at the root down to
// a leaf, always toward the smaller child, then sifts the last entry up from
// there (Floyd's bottom-up variant): the last entry is usually large, so this
// takes about one comparison per level instead of two.
func (s *search) pop() entry {
	h := s.heap
	top := h[0]
	n := len(h) - 1
	last := h[n]
	h = h[:n]
	if n > 0 {
		i := 0
		for {
			c := 2*i + 1
			if c >= n {
				break
			}
			if c+1 < n && less(&h[c+1], &h[c]) {
				c++
			}
			h[i] = h[c]
			i = c
		}
		siftUp(h, i, last)
	}
	s.heap = h
	return top
}

// chainCost sums the cheapest edge between each node on the parent chain to
// end and the next.
func (s *search) chainCost(end int32) float64 {
	var cost float64
	for n := end; s.nodes[n].parent >= 0; n = s.nodes[n].parent {
		p := s.nodes[n].parent
		if s.pruned != nil {
			s.edges = s.pruned.AppendEdgesFrom(s.edges[:0], p, s.nodes[p].parent)
		} else {
			s.edges = s.graph.AppendEdges(s.edges[:0], p)
		}
		best := math.Inf(1)
		for _, e := range s.edges {
			if e.To == n && e.Cost < best {
				best = e.Cost
			}
		}
		cost += best
	}
	return cost
}

// appendPath appends the nodes from the start to end.
func (s *search) appendPath(dst []int32, end int32) []int32 {
	if end < 0 || int(end) >= len(s.nodes) || !s.seen(end) {
		return dst
	}
	i := len(dst)
	for n := end; n >= 0; n = s.nodes[n].parent {
		dst = append(dst, n)
	}
	for j := len(dst) - 1; i < j; i, j = i+1, j-1 {
		dst[i], dst[j] = dst[j], dst[i]
	}
	return dst
}

func (s *search) seen(n int32) bool {
	st := s.nodes[n].stamp
	return s.gen != 0 && (st == s.gen || st == s.gen+1)
}

func (s *search) dist(n int32) (float64, bool) {
	if n < 0 || int(n) >= len(s.nodes) || s.nodes[n].stamp != s.gen+1 || s.gen == 0 {
		return math.Inf(1), false
	}
	return s.nodes[n].g, true
}

func (s *search) appendOpen(dst []int32) []int32 {
	n := len(dst)
	for _, e := range s.heap {
		if s.nodes[e.node].stamp == s.gen {
			dst = append(dst, e.node)
		}
	}
	// A node improved while open has several entries: list it once.
	slices.Sort(dst[n:])
	return dst[:n+len(slices.Compact(dst[n:]))]
}
