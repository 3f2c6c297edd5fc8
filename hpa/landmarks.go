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
// afresh get the same bounds and answer queries alike.
//
// An update does not measure them again unless a landmark's cell or joins
// changed: it repairs each landmark's shortest-path tree. A node of the
// top-level clusters it rebuilt whose edges changed (or that left the
// level, or joined it) is changed. A node keeps its distance when its tree
// path still exists at the same cost: when each node on it keeps its own
// and the edge from its parent, if the parent is changed, is still there
// at the same cost. The others, a changed node's children that lost that
// edge and every node below a lost one, lose their distances. A Dijkstra
// search seeded with the lost nodes' best distances through kept
// neighbours (or through the landmark's joins), and with the changed nodes
// that kept theirs, then settles the lost again and lowers any node that a
// rebuilt cluster now brings nearer. Its values are a fresh search's bit
// for bit (each is still the least, over the paths to it, of the path's
// cost summed from the landmark). Keeping the changed nodes whose tree
// edge stayed halved the repair's time on the 4096² demo world (edits
// across long paths, level factor 2, eight landmarks: 210 ms of CPU for 60
// updates against 410, `pathfind edits -cpuprofile`).

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

// repairLandmarks brings h's landmarks up to date after an in-place update
// that rebuilt the top-level clusters whose old and new nodes are changed
// (node IDs, in any order, repeats allowed), as the top of this file says.
// Its cost is the landmarks' joins found again (a search of a level-1
// cluster and a pass over its tables each), a Dijkstra search over the
// nodes that lost their distances, and O(V) for the level's V nodes only
// the first time, when each landmark's children lists are made; a
// landmark whose cell or joins changed is measured from scratch,
// and so are all of them without landmarks, or when the top level's node
// count passes from under two to more.
//
// Landmark i is not joined again when bit i of kept is set: its cell and
// joins are known to be unchanged (see keptLandmarks).
func (h *Graph) repairLandmarks(sc *landmarkScratch, changed []int32, kept uint64) {
	top := h.Levels()
	join := func(i int) (image.Point, []core.Edge) {
		if kept&(1<<i) != 0 {
			return h.lm.cell[i], h.lm.seeds[i]
		}
		return sc.landmark(h, i)
	}
	if !h.repairWith(h.lm, sc, changed, func(n int32) bool { return h.isMember(top, n) }, join) {
		h.measureLandmarks(sc)
	}
}

// keptLandmarks returns, as bits, the landmarks whose cells and joins an
// edit of the cells c, which makes the level-1 clusters dirty dirty,
// cannot change, so that the update need not find them again (some
// 50 µs an update on Berlin ×4, a sixth of the landmarks' repair). A
// landmark's cell is the free cell nearest its corner of the map
// (grid.Grid.NearestFree, by Euclidean distance): an edit whose cells are
// all farther from the corner than the cell leaves it the nearest. Its
// joins are a search of its level-1 cluster and the tables of its
// clusters above (landmark): when no dirty cluster lies in its top-level
// cluster, none of those was rebuilt, and their nodes kept their IDs.
func (h *Graph) keptLandmarks(c image.Rectangle, dirty []int32) uint64 {
	lm := h.lm
	if lm == nil || lm.k == 0 || lm.level != h.Levels() {
		return 0
	}
	top := lm.level
	var kept uint64
	for i := range lm.k {
		p := lm.cell[i]
		if len(lm.seeds[i]) == 0 {
			continue // no cell, or no joins: found again
		}
		q := landmarkCorner(h.w, h.h, i)
		dx := max(c.Min.X-q.X, 0, q.X-(c.Max.X-1))
		dy := max(c.Min.Y-q.Y, 0, q.Y-(c.Max.Y-1))
		px, py := p.X-q.X, p.Y-q.Y
		if dx*dx+dy*dy <= px*px+py*py {
			continue
		}
		pc := h.clusterAt(top, p)
		if slices.ContainsFunc(dirty, func(d int32) bool {
			return h.clusterAt(top, h.levelClusterRect(1, d).Min) == pc
		}) {
			continue
		}
		kept |= 1 << i
	}
	return kept
}

// repairWith is repairLandmarks for landmarks lm of h's top level, whose
// members are the nodes member reports and whose landmark i's cell and
// joins join gives. It reports false, having repaired nothing or not
// all, when lm must be measured from scratch: it is nil, of another
// level or without columns, or the level would have fewer than two rows.
func (h *Graph) repairWith(lm *landmarks, sc *landmarkScratch, changed []int32, member func(n int32) bool, join func(i int) (image.Point, []core.Edge)) bool {
	top := h.Levels()
	if lm == nil || lm.level != top || lm.k == 0 {
		return false
	}
	k := lm.k
	if len(lm.slot) < len(h.nodes) {
		lm.slot = grow(lm.slot, len(h.nodes))
	}
	// The rows of the changed nodes; rows of nodes that left the level
	// are freed (after the repair: the trees still pass through them), new
	// nodes get rows.
	cur := sc.stamp(len(h.nodes))
	lost := sc.lost[:0]
	var freed []int32
	for _, n := range changed {
		if sc.mark[n] == cur {
			continue
		}
		sc.mark[n] = cur
		r := lm.slot[n] - 1
		member := member(n)
		switch {
		case r >= 0 && !member:
			freed = append(freed, r)
			lm.slot[n] = 0
			lm.ids[r] = -1
		case r < 0 && member:
			r = lm.newRow(n)
		}
		if r >= 0 {
			lost = append(lost, r)
		}
	}
	sc.lost = lost
	for i := range k {
		cell, seeds := join(i)
		if cell != lm.cell[i] || !slices.Equal(seeds, lm.seeds[i]) {
			lm.cell[i], lm.seeds[i] = cell, append(lm.seeds[i][:0], seeds...)
			lm.measure(h, sc, i)
		} else if len(lost) > 0 {
			lm.repair(h, sc, i, lost)
		}
	}
	for _, r := range freed {
		for i := range k {
			lm.dist[int(r)*k+i] = math.Inf(1)
			lm.setPar(i, r, -1)
		}
	}
	lm.free = append(lm.free, freed...)
	return len(lm.ids)-len(lm.free) >= 2
}

// edges returns node n's edges on lm's level, and their masks for a
// class of an annotated graph (nil for a Graph's landmarks).
func (lm *landmarks) edges(h *Graph, n int32) ([]core.Edge, []uint64) {
	if lm.mask == nil {
		return h.edgesAt(lm.level, n), nil
	}
	return h.edgesAt(lm.level, n), lm.mask[n]
}

// newRow gives node n a row, with no distances yet.
func (lm *landmarks) newRow(n int32) int32 {
	var r int32
	if f := len(lm.free); f > 0 {
		r = lm.free[f-1]
		lm.free = lm.free[:f-1]
		lm.ids[r] = n
	} else {
		r = int32(len(lm.ids))
		lm.ids = append(lm.ids, n)
		for i := range lm.k {
			lm.dist = append(lm.dist, 0)
			lm.par[i] = append(lm.par[i], -1)
			if kl := lm.kids[i]; kl != nil {
				kl.head, kl.next, kl.prev = append(kl.head, -1), append(kl.next, -1), append(kl.prev, -1)
			}
		}
	}
	lm.slot[n] = r + 1
	for i := range lm.k {
		lm.dist[int(r)*lm.k+i] = math.Inf(1)
		lm.setPar(i, r, -1)
	}
	return r
}

// kidLists are the children lists of one landmark's tree: per row, its
// first child, and its siblings before and after it (−1 where none). A
// row whose parent is −1 is in no list.
type kidLists struct{ head, next, prev []int32 }

// children returns landmark i's children lists, made from the tree the
// first time.
func (lm *landmarks) children(i int) *kidLists {
	if kl := lm.kids[i]; kl != nil {
		return kl
	}
	v := len(lm.ids)
	kl := &kidLists{head: make([]int32, v), next: make([]int32, v), prev: make([]int32, v)}
	for r := range v {
		kl.head[r], kl.next[r], kl.prev[r] = -1, -1, -1
	}
	for r := range int32(v) {
		kl.link(lm.par[i][r], r)
	}
	lm.kids[i] = kl
	return kl
}

// setPar makes p the parent of row r on landmark i's tree.
func (lm *landmarks) setPar(i int, r, p int32) {
	if kl := lm.kids[i]; kl != nil {
		if old := lm.par[i][r]; old != p {
			kl.unlink(old, r)
			kl.link(p, r)
		}
	}
	lm.par[i][r] = p
}

// unlink takes row r out of the children of p.
func (kl *kidLists) unlink(p, r int32) {
	if p < 0 {
		return
	}
	n, b := kl.next[r], kl.prev[r]
	if b >= 0 {
		kl.next[b] = n
	} else {
		kl.head[p] = n
	}
	if n >= 0 {
		kl.prev[n] = b
	}
	kl.next[r], kl.prev[r] = -1, -1
}

// link makes row r a child of p.
func (kl *kidLists) link(p, r int32) {
	if p < 0 {
		return
	}
	h := kl.head[p]
	kl.next[r], kl.prev[r] = h, -1
	if h >= 0 {
		kl.prev[h] = r
	}
	kl.head[p] = r
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

// repair sets again column i's distances after an update that changed the
// edges of the rows changed (see the top of this file). A row keeps its
// distance when the edge from its parent on the tree is still there at the
// same cost and its parent keeps its own: its path still exists. The
// others (a changed row that left the level or has no distance, a row
// whose parent is changed and lost that edge or its cost, and every row
// below one of these on the tree) lose theirs and are seeded with their
// best distance through a neighbour that kept its own. The kept changed
// rows are pushed with their distances, since their new edges may bring
// others nearer; every edge that could lower a distance then leaves a row
// on the heap, and the search that follows gives a fresh search's values.
func (lm *landmarks) repair(h *Graph, sc *landmarkScratch, i int, changed []int32) {
	k, v := lm.k, len(lm.ids)
	kl := lm.children(i) // of the old tree
	head, next := kl.head, kl.next
	cur := sc.stamp(v)
	rows := sc.rows[:0]
	lose := func(r int32) {
		if sc.mark[r] != cur {
			sc.mark[r] = cur
			rows = append(rows, r)
		}
	}
	for _, p := range changed {
		dp := lm.dist[int(p)*k+i]
		n := lm.ids[p]
		if n < 0 || math.IsInf(dp, 1) {
			lose(p)
			continue
		}
		es, ms := lm.edges(h, n)
		for c := head[p]; c >= 0; c = next[c] {
			dc, to := lm.dist[int(c)*k+i], lm.ids[c]
			kept := false
			for j, e := range es {
				if e.To == to && dp+e.Cost == dc && (ms == nil || ms[j]&lm.bit != 0) {
					kept = true
					break
				}
			}
			if !kept {
				lose(c)
			}
		}
	}
	for j := 0; j < len(rows); j++ {
		for c := head[rows[j]]; c >= 0; c = next[c] {
			lose(c)
		}
	}
	sc.rows = rows
	for _, r := range rows {
		lm.dist[int(r)*k+i] = math.Inf(1)
		lm.setPar(i, r, -1)
	}
	// Seeds: each lost row's best distance through a kept neighbour, and
	// the kept changed rows as they are.
	sc.heap.Reset()
	for _, r := range rows {
		n := lm.ids[r]
		if n < 0 {
			continue
		}
		best, from := math.Inf(1), int32(-1)
		es, ms := lm.edges(h, n)
		for j, e := range es {
			if ms != nil && ms[j]&lm.bit == 0 {
				continue // not the class's
			}
			u := lm.slot[e.To] - 1
			if u < 0 || sc.mark[u] == cur {
				continue
			}
			if d := lm.dist[int(u)*k+i] + e.Cost; d < best {
				best, from = d, u
			}
		}
		if from >= 0 {
			lm.dist[int(r)*k+i] = best
			lm.setPar(i, r, from)
			sc.heap.Push(math.Float64bits(best), r)
		}
	}
	for _, p := range changed {
		if sc.mark[p] != cur {
			sc.heap.Push(math.Float64bits(lm.dist[int(p)*k+i]), p)
		}
	}
	lm.seed(sc, i, sc.mark, cur)
	lm.settle(h, sc, i)
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
