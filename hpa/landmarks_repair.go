package hpa

import (
	"image"
	"math"
	"slices"

	"github.com/cairn-nav/cairn/core"
)

// The landmarks' repair after an in-place update (landmarks.go says what
// the landmarks are and how they are measured).
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
