package hpa

import (
	"cmp"
	"fmt"
	"image"
	"math"
	"math/bits"
	"slices"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/radix"
)

// FlowField sends any number of agents to one goal over a [Graph], built
// lazily: [FlowField.Compute] inserts the goal into its level-1 cluster (one
// search of the cluster's cells, as a query inserts its goal) and runs one
// Dijkstra search of the level-1 abstract graph from it, which gives every
// abstract node its distance to the goal. The first time [FlowField.Next]
// or [FlowField.Dist] asks about a cell of a cluster, the cluster's cell
// field is made by a Dijkstra search of its cells from several sources: its
// nodes, each with its abstract distance, and, in the goal's cluster, the
// goal with 0. Moves stay inside the cluster; agents leave it where
// [FlowField.Next] takes the inter-cluster edge of an abstract node, the
// step across the border to the node facing it.
//
// On a 4096×4096 map (some 55 000 abstract nodes in clusters of 32)
// Compute costs 10 to 30 ms, against seconds for an exact reverse Dijkstra
// search of all 16.7 million cells, and each cluster's field 50 to 100 µs,
// the first time the cluster is asked about (BenchmarkFlowField1000 and
// BenchmarkFlowFieldClusters, on a shared machine).
//
// Distances are HPA*'s, not exact. Each cell's value Dist(p) is the cost of
// a real path from p to the goal, the one that following Next from p
// traces (up to the rounding of the sums), so it is never below the exact
// distance, and each step of Next lowers it by the step's cost, so
// following Next always arrives and never comes back to a cell. For a cell
// whose cluster is neither the goal's nor beside it, the value is the cost
// of the path a level-1 HPA* query from it finds ([Query].MaxLevel 1); in
// the goal's cluster it is exact for cells whose shortest path stays in
// that cluster. No bound of the excess holds in general; on random maps it
// is a few per cent, more near the goal (see the tests). Moves and costs
// are the grid's: connectivity, no corner cutting, terrain multipliers.
//
// Memory: NewFlowField allocates 8 bytes per cluster for the cache's index,
// 8 per abstract node for their distances, and the goal's insertion
// search's scratch (16 to 24 bytes per cell of a window of 4×4 clusters,
// 0.4 MB for clusters of 32); the open lists of the searches, 16 bytes an
// entry, grow at the first Compute and the first fields. The cell fields
// live in one flat store of blocks of ClusterSize² float64 values (8 KiB
// for clusters of 32), one block for each cluster that has been asked
// about, kept and reused by the next Compute: at most 8 bytes per cell of
// the map (134 MB at 4096×4096), and 8 MB for 1 000 agents in as many
// clusters.
//
// A FlowField is not safe for concurrent use: Next and Dist write its cache
// of cell fields. Give each goroutine its own, or serialise the calls. The
// graph may be shared: each method holds the graph's and its grid's read
// locks while it runs, as a query does, so it never sees a torn update.
type FlowField struct {
	h    *Graph
	cs   *clusterSearch // the goal's insertion
	heap radix.Heap     // the open list of the abstract search
	cq   cellQueue      // the open list of the cell fields' searches

	goal     image.Point
	gcluster int32
	version  uint64 // the graph's at Compute
	computed bool

	// Per abstract node: its distance to the goal, +Inf when it has none.
	adist []float64
	// The goal's edges to the nodes of its cluster.
	seeds []core.Edge

	// The cache of cell fields: cluster c's is current when stamp[c] ==
	// gen, and lives in block slot[c] of store (−1: none yet), the field of
	// its cell (x, y) at (y−y0)·width + x−x0 within the block.
	gen   uint32
	stamp []uint32
	slot  []int32
	store []float64
}

// NewFlowField returns a flow field over h, computed for no goal yet: every
// cell reports false until [FlowField.Compute] succeeds. It allocates what
// the FlowField doc says, but none of the cell fields. It panics when h is
// nil.
func NewFlowField(h *Graph) *FlowField {
	if h == nil {
		panic("hpa: NewFlowField of a nil graph")
	}
	h.mu.RLock()
	defer h.mu.RUnlock()
	nc := h.ncx * h.ncy
	f := &FlowField{
		h:     h,
		cs:    newClusterSearch(h),
		goal:  image.Pt(-1, -1),
		adist: make([]float64, len(h.nodes)),
		stamp: make([]uint32, nc),
		slot:  make([]int32, nc),
	}
	for c := range f.slot {
		f.slot[c] = -1
	}
	return f
}

// Compute makes the field of goal, replacing what it held: it inserts the
// goal into its cluster and finds every abstract node's distance to it, and
// drops the cell fields of the previous goal in O(1) (their memory is
// reused). It returns an error, and leaves the field with no goal (every
// cell reports false), when goal is outside the grid or blocked, and one
// wrapping [ErrStale] when the grid has been edited since the graph was
// made or updated.
//
// Its cost is one search of the goal's cluster's cells and one Dijkstra
// search of the level-1 abstract graph, O(E + N log N) for N nodes and E
// edges (on a radix heap); nodes in other regions than the goal's get no
// distance. Once a first Compute has grown the searches' scratch, it
// allocates nothing. It holds the graph's and the grid's read locks while
// it runs.
func (f *FlowField) Compute(goal image.Point) error {
	h := f.h
	f.rlock()
	defer f.runlock()
	f.computed = false
	f.goal = image.Pt(-1, -1)
	if v := h.g.Version(); v != h.version {
		return fmt.Errorf("%w: grid version %d, the graph's %d", ErrStale, v, h.version)
	}
	if err := h.checkEnd(goal, "flow field goal"); err != nil {
		return err
	}
	c := h.clusterOf(goal)
	f.cs.searchFrom(c, goal)
	f.seeds = f.seeds[:0]
	for i, id := range h.cnodes[c] {
		if d, ok := f.cs.nodeDist(i); ok {
			f.seeds = append(f.seeds, core.Edge{To: id, Cost: d})
		}
	}
	f.searchAbstract()
	f.goal, f.gcluster = goal, c
	f.version = h.version
	f.computed = true
	f.gen++
	if f.gen == 0 { // wrap-around: old stamps could look current
		clear(f.stamp)
		f.gen = 1
	}
	return nil
}

// searchAbstract runs Dijkstra's algorithm over the level-1 abstract graph
// from the goal's edges in f.seeds, filling f.adist. The graph's edges are
// symmetric (the two cells of a transition, and the costs inside a
// cluster, are the same either way), so the edges out of a node are also
// those into it, and a search from the goal gives distances to it.
func (f *FlowField) searchAbstract() {
	h := f.h
	if n := len(h.nodes); len(f.adist) != n { // the graph grew or shrank in an update
		f.adist = append(f.adist[:0], make([]float64, n)...)
	}
	dist := f.adist
	inf := math.Inf(1)
	for i := range dist {
		dist[i] = inf
	}
	hp := &f.heap
	hp.Reset()
	for _, e := range f.seeds {
		seedHeap(hp, dist, e.To, e.Cost)
	}
	for hp.Len() > 0 {
		top := hp.Pop()
		u := top.Node
		du := dist[u]
		if top.Key != math.Float64bits(du) {
			continue // improved since it was pushed
		}
		for _, e := range h.adj[u] {
			if nd := du + e.Cost; nd < dist[e.To] {
				dist[e.To] = nd
				hp.Push(math.Float64bits(nd), e.To)
			}
		}
	}
}

// rlock takes the read locks of the graph, then of its grid, the order of
// a query's.
func (f *FlowField) rlock() {
	f.h.mu.RLock()
	f.h.g.RLock()
}

// runlock releases what rlock took.
func (f *FlowField) runlock() {
	f.h.g.RUnlock()
	f.h.mu.RUnlock()
}

// current reports whether the field has a goal and describes the graph and
// grid as they are. The caller holds the read locks.
func (f *FlowField) current() bool {
	return f.computed && f.version == f.h.version && f.version == f.h.g.Version()
}

// Dist returns the field's distance from p to the goal, the cost of the
// path that following [FlowField.Next] from p traces (see [FlowField] for
// how it compares with the exact distance), and false (with +Inf) when p is
// blocked, outside the grid, in another region than the goal's, or the
// field is stale or has no goal. The first call in a cluster makes the
// cluster's cell field: one Dijkstra search of its C cells, O(C) on unit
// terrain and O(C log C) with terrain costs, which may grow the store by a
// block; later calls in the cluster are O(1) and allocate nothing. It is
// not safe for concurrent use.
func (f *FlowField) Dist(p image.Point) (float64, bool) {
	f.rlock()
	defer f.runlock()
	if !f.reaches(p) {
		return math.Inf(1), false
	}
	fd, r := f.field(p)
	d := fd[(p.Y-r.Min.Y)*r.Dx()+p.X-r.Min.X]
	return d, !math.IsInf(d, 1)
}

// reaches reports whether p is a cell the field may answer for: the field
// is current and p is free and connected to the goal. The caller holds the
// read locks.
func (f *FlowField) reaches(p image.Point) bool {
	return f.current() && f.h.g.Connected(p, f.goal)
}

// Next returns the cell to step to from p toward the goal: a legal move of
// the grid, to the neighbour inside p's cluster that gives the least step
// cost plus field value, or, from the cell of an abstract node, across the
// border along the node's inter-cluster edge when that is better. The
// step's cost plus Dist of the cell it returns is Dist(p), up to rounding.
// It returns p and false at the goal and wherever [FlowField.Dist] does.
//
// Its cost is Dist's, plus 8 neighbours and, on a cluster's border, a
// binary search of the cluster's nodes; in a cluster whose field is made it
// allocates nothing. It is not safe for concurrent use.
func (f *FlowField) Next(p image.Point) (image.Point, bool) {
	f.rlock()
	defer f.runlock()
	if !f.reaches(p) || p == f.goal {
		return p, false
	}
	h := f.h
	fd, r := f.field(p)
	cw := r.Dx()
	if math.IsInf(fd[(p.Y-r.Min.Y)*cw+p.X-r.Min.X], 1) {
		return p, false // cannot happen: see fill
	}
	best, bestD := p, math.Inf(1)
	for m := h.g.Moves(p); m != 0; m &= m - 1 {
		d := bits.TrailingZeros8(m)
		q := p.Add(grid.Step(d))
		if !q.In(r) {
			continue
		}
		c := baseCost[d]
		if h.costs {
			c = h.g.StepCost(p, q)
		}
		if v := c + fd[(q.Y-r.Min.Y)*cw+q.X-r.Min.X]; v < bestD {
			best, bestD = q, v
		}
	}
	if p.X == r.Min.X || p.Y == r.Min.Y || p.X == r.Max.X-1 || p.Y == r.Max.Y-1 {
		if n := h.nodeAt(p); n >= 0 {
			own := h.nodes[n].cluster
			for _, e := range h.adj[n] {
				if h.nodes[e.To].cluster == own {
					continue
				}
				if v := e.Cost + f.adist[e.To]; v < bestD {
					best, bestD = h.nodes[e.To].cell(), v
				}
			}
		}
	}
	return best, !math.IsInf(bestD, 1)
}

// AppendPath appends the cells that following [FlowField.Next] from from
// visits, from and the goal included, to dst, and returns the extended
// slice: just the goal when from is the goal, nothing when Dist(from)
// reports false. Its cost ([grid.Grid.PathCost]) is Dist(from), up to
// rounding. It costs O(path) plus the fields of the clusters it crosses,
// allocates only when dst is short of room or a field is made, and is not
// safe for concurrent use.
func (f *FlowField) AppendPath(dst []image.Point, from image.Point) []image.Point {
	if _, ok := f.Dist(from); !ok {
		return dst
	}
	// Each step lowers the field by its cost, so no cell comes twice; the
	// bound is only a guard.
	limit := f.h.w * f.h.h
	for p, ok, n := from, true, 0; ok && n < limit; p, ok = f.Next(p) {
		dst = append(dst, p)
		n++
	}
	return dst
}

// Goal returns the goal of the latest successful Compute, or (−1, −1) when
// there is none.
func (f *FlowField) Goal() image.Point { return f.goal }

// Stale reports whether the field does not describe the graph as it is: no
// Compute has succeeded, or since the latest one the grid has been edited
// ([grid.Grid.SetCells]) or the graph updated ([Graph.Update]). A stale
// field answers false everywhere until Compute runs again: its node
// distances are of the old graph, whose node IDs an update may have given
// to other cells. It is O(1) and takes the read locks.
func (f *FlowField) Stale() bool {
	f.rlock()
	defer f.runlock()
	return !f.current()
}

// field returns the cell field of the cluster holding p, making it when it
// is not current, and the cluster's cells. The caller holds the read locks
// and has checked that the field is current.
func (f *FlowField) field(p image.Point) ([]float64, image.Rectangle) {
	h := f.h
	c := h.clusterOf(p)
	r := h.clusterRect(c)
	n := h.cs * h.cs
	if f.stamp[c] == f.gen {
		s := int(f.slot[c]) * n
		return f.store[s : s+n], r
	}
	if f.slot[c] < 0 {
		f.slot[c] = int32(len(f.store) / n)
		f.store = append(f.store, make([]float64, n)...)
	}
	s := int(f.slot[c]) * n
	fd := f.store[s : s+n]
	f.fill(fd, c)
	f.stamp[c] = f.gen
	return fd, r
}

// fill computes cluster c's cell field into fd: a Dijkstra search of the
// cluster's cells, moves confined to it, from its nodes that have a
// distance, each with it, and the goal with 0 when c holds it; each cell's
// value is the least, over those seeds, of the seed's value plus the cost
// of a path from the cell to the seed inside the cluster (moves being
// symmetric, the search runs from the seeds). A node's own value comes out
// as its distance (up to rounding): the abstract search gave it no more
// than the intra-cluster edge to another node (the cost of the shortest
// path between them inside the cluster) plus that node's distance, nor
// than its edge to the goal. Every free cell of the cluster that is
// connected to the goal gets a value: a path from it to the goal either
// stays in the cluster, where the goal is, or leaves it across an
// entrance, whose transition's cell in this cluster it reaches along the
// entrance's row of free cells, a node with a distance.
func (f *FlowField) fill(fd []float64, c int32) {
	h := f.h
	r := h.clusterRect(c)
	cw, ch := r.Dx(), r.Dy()
	inf := math.Inf(1)
	for i := range fd[:cw*ch] {
		fd[i] = inf
	}
	// The queue's entries name cells by their local coordinates, packed as
	// y<<16 | x, which spares a division per expansion.
	q := &f.cq
	q.reset(!h.costs)
	seed := func(p image.Point, d float64) {
		x, y := p.X-r.Min.X, p.Y-r.Min.Y
		if i := y*cw + x; d < fd[i] {
			fd[i] = d
			q.seed(radix.Entry{Key: math.Float64bits(d), Node: int32(y<<16 | x)})
		}
	}
	for _, id := range h.cnodes[c] {
		if d := f.adist[id]; d < inf {
			seed(h.nodes[id].cell(), d)
		}
	}
	if c == f.gcluster {
		seed(f.goal, 0)
	}
	q.start()
	var off, poff [8]int // index and packed offsets of each direction
	for d := range off {
		s := grid.Step(d)
		off[d], poff[d] = s.Y*cw+s.X, s.Y<<16+s.X
	}
	for {
		top, ok := q.pop()
		if !ok {
			break
		}
		lx, ly := int(top.Node&0xffff), int(top.Node>>16)
		u := ly*cw + lx
		du := fd[u]
		if top.Key != math.Float64bits(du) {
			continue // improved since it was pushed
		}
		p := image.Pt(r.Min.X+lx, r.Min.Y+ly)
		m := h.g.Moves(p)
		if lx == 0 || ly == 0 || lx == cw-1 || ly == ch-1 {
			for mm := m; mm != 0; mm &= mm - 1 { // drop the moves out of the cluster
				d := bits.TrailingZeros8(mm)
				if s := grid.Step(d); uint(lx+s.X) >= uint(cw) || uint(ly+s.Y) >= uint(ch) {
					m &^= 1 << d
				}
			}
		}
		for ; m != 0; m &= m - 1 {
			d := bits.TrailingZeros8(m)
			v := u + off[d]
			cost := baseCost[d]
			if h.costs {
				cost = h.g.StepCost(p, p.Add(grid.Step(d)))
			}
			if nd := du + cost; nd < fd[v] {
				fd[v] = nd
				q.push(nd, top.Node+int32(poff[d]))
			}
		}
	}
}

// cellQueue is the open list of a cell field's search. On grids of unit
// terrain every step costs 1 or √2, and the queue keeps its entries in a
// ring of buckets one unit wide (Dial's algorithm): bucket k mod 4 holds
// the keys in [k, k+1). Since no step costs less than 1, no entry of the
// lowest bucket can improve another of it, so they all are final and
// leave in any order; the steps out of bucket k land in buckets k+1 and
// k+2, and the seeds, whose keys spread wider, join the ring in order of
// key as it comes to their bucket. Each entry costs O(1). With terrain,
// steps cost up to √2·[grid.MaxCost], and the queue is the radix heap.
type cellQueue struct {
	ring  bool
	heap  radix.Heap
	b     [4][]radix.Entry
	cur   int // the lowest bucket that may hold entries
	n     int // entries in the ring
	seeds []radix.Entry
	next  int // the first seed not yet in the ring
}

func (q *cellQueue) reset(ring bool) {
	q.ring = ring
	q.heap.Reset()
	for i := range q.b {
		q.b[i] = q.b[i][:0]
	}
	q.n, q.seeds, q.next = 0, q.seeds[:0], 0
}

// seed adds a first entry; start follows the last.
func (q *cellQueue) seed(e radix.Entry) {
	if !q.ring {
		q.heap.Push(e.Key, e.Node)
		return
	}
	q.seeds = append(q.seeds, e)
}

func (q *cellQueue) start() {
	if q.ring && len(q.seeds) > 0 {
		slices.SortFunc(q.seeds, func(a, b radix.Entry) int { return cmp.Compare(a.Key, b.Key) })
		q.cur = int(math.Float64frombits(q.seeds[0].Key))
	}
}

// push adds node n at distance d, which must not be below that of the
// entry popped last; on the ring, it must be at least one more.
func (q *cellQueue) push(d float64, n int32) {
	if !q.ring {
		q.heap.Push(math.Float64bits(d), n)
		return
	}
	k := int(d) & 3
	q.b[k] = append(q.b[k], radix.Entry{Key: math.Float64bits(d), Node: n})
	q.n++
}

// pop removes an entry of the lowest bucket (the least key, in the radix
// heap), or reports false when the queue is empty.
func (q *cellQueue) pop() (radix.Entry, bool) {
	if !q.ring {
		if q.heap.Len() == 0 {
			return radix.Entry{}, false
		}
		return q.heap.Pop(), true
	}
	for {
		for q.next < len(q.seeds) && int(math.Float64frombits(q.seeds[q.next].Key)) <= q.cur {
			k := q.cur & 3
			q.b[k] = append(q.b[k], q.seeds[q.next])
			q.n++
			q.next++
		}
		if b := q.b[q.cur&3]; len(b) > 0 {
			q.b[q.cur&3] = b[:len(b)-1]
			q.n--
			return b[len(b)-1], true
		}
		switch {
		case q.n > 0:
			q.cur++
		case q.next < len(q.seeds):
			q.cur = int(math.Float64frombits(q.seeds[q.next].Key))
		default:
			return radix.Entry{}, false
		}
	}
}

// seedHeap lowers dist[n] to d and pushes n, when d is lower; only before
// the heap's first pop.
func seedHeap(hp *radix.Heap, dist []float64, n int32, d float64) {
	if d < dist[n] {
		dist[n] = d
		hp.Push(math.Float64bits(d), n)
	}
}
