package hpa

import (
	"image"
	"slices"
	"sync/atomic"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/internal/parallel"
)

// The levels of an annotated graph above the first are those of a Graph
// (levels.go) with each edge masked with its classes. A node of level l is
// a node with an edge of level l−1 across a level-l border; such an edge
// is an edge of level l with the same mask, and the node serves the
// classes of those edges. Inside each level-l cluster, for each class, the
// nodes that serve it are joined by the shortest paths between them along
// the class's edges of level l−1 confined to the cluster (clusterAPSP with
// the class's bit), pruned as a Graph's are (clusterAPSP.prune, which keeps
// each class's distances as its edges alone give them), and edges between
// the same nodes at the same cost are one edge with the union of the
// masks.

// perNode returns, per node n, the masks mask[off[n]:off[n+1]].
func perNode(off []int32, mask []uint64) [][]uint64 {
	out := make([][]uint64, len(off)-1)
	for n := range out {
		out[n] = mask[off[n]:off[n+1]:off[n+1]]
	}
	return out
}

// buildLevels adds levels 2 to levels to a, whose level 1 is complete,
// each from the one below.
func (a *Annotated) buildLevels(levels int) {
	h := a.base
	h.levels, a.lpaths = nil, nil
	for l := 2; l <= levels; l++ {
		lv, masks, lmask := a.buildLevel(l)
		h.levels = append(h.levels, lv)
		a.masks[l], a.lmask[l-2] = masks, lmask
		for range a.ctx {
			a.lpaths = append(a.lpaths, make([]atomic.Pointer[levelPaths], len(lv.cm)))
		}
	}
}

// levelSlot returns where class k's path of level l−1 from node u to node
// v, both nodes of level l's cluster c, is kept; nil when either is not.
func (a *Annotated) levelSlot(l, k int, c, u, v int32) *atomic.Pointer[[]int32] {
	return slotIn(&a.lpaths[(l-2)*len(a.ctx)+k][c], a.base.levels[l-2].cm[c], u, v)
}

// buildLevel returns level l of a, whose levels below are complete: the
// level, its edges' masks per node and the classes each node serves.
func (a *Annotated) buildLevel(l int) (level, [][]uint64, []uint64) {
	h := a.base
	side := h.levelSide(l)
	ncx, ncy := (h.w+side-1)/side, (h.h+side-1)/side
	lv := level{side: side, ncx: ncx}
	nn := len(h.nodes)
	below := a.masks[l-1]

	members := make([][]int32, ncx*ncy)
	lmask := make([]uint64, nn)
	var inter []halfEdge
	for n := range int32(nn) {
		c := h.clusterAt(l, h.nodes[n].cell())
		for i, e := range h.edgesAt(l-1, n) {
			if h.clusterAt(l, h.nodes[e.To].cell()) != c {
				inter = append(inter, halfEdge{from: n, e: e, mask: below[n][i]})
				lmask[n] |= below[n][i]
			}
		}
		if lmask[n] != 0 {
			members[c] = append(members[c], n)
		}
	}

	intra := make([][]intraEdge, len(members))
	parallel.ForEach(len(members), func() *annLevelScratch { return &annLevelScratch{} }, func(sc *annLevelScratch, c int32) {
		intra[c] = a.levelIntra(sc, l, c, members[c], lmask)
	})

	off, edges, emask := layoutMasked(nn, inter, intra, true)
	lv.set(off, edges, members)
	return lv, perNode(off, emask), lmask
}

// annLevelScratch runs the searches of one level's clusters for each
// class.
type annLevelScratch struct {
	ap  clusterAPSP
	ids []int32
	buf []intraEdge
	pos []int32 // per node ID: its place in the current cluster's list
}

// levelIntra returns the edges inside level-l cluster c, whose nodes are
// ms (in the order of a build's IDs) serving the classes lmask gives:
// per class, the shortest distances between the nodes that serve it
// along its edges of level l−1 inside the cluster, pruned
// (clusterAPSP.prune), masked with its bit, then merged (mergeMasks).
func (a *Annotated) levelIntra(sc *annLevelScratch, l int, c int32, ms []int32, lmask []uint64) []intraEdge {
	h := a.base
	below := a.masks[l-1]
	if len(sc.pos) < len(h.nodes) {
		sc.pos = make([]int32, len(h.nodes))
	}
	for i, n := range ms {
		sc.pos[n] = int32(i)
	}
	sc.buf = sc.buf[:0]
	for k := range a.ctx {
		bit := uint64(1) << k
		sc.ids = sc.ids[:0]
		for _, n := range ms {
			if lmask[n]&bit != 0 {
				sc.ids = append(sc.ids, n)
			}
		}
		if len(sc.ids) < 2 {
			continue
		}
		sc.ap.mask, sc.ap.bit = below, bit
		sc.ap.run(h, l-1, l, c, sc.ids)
		k0 := len(sc.buf)
		sc.buf = sc.ap.prune(sc.buf, sc.ids)
		for i := k0; i < len(sc.buf); i++ {
			sc.buf[i].mask = bit
		}
	}
	return mergeMasks(sc.buf, func(n int32) int { return int(sc.pos[n]) })
}

// serves reports whether node n serves the class of mask bit at level l.
func (a *Annotated) serves(l int, n int32, bit uint64) bool {
	if l == 1 {
		return a.nmask[n]&bit != 0
	}
	return a.lmask[l-2][n]&bit != 0
}

// levelMembers appends to dst the nodes of level-l cluster c (l > 1)
// that serve the class of mask bit.
func (a *Annotated) levelMembers(dst []int32, l int, c int32, bit uint64) []int32 {
	for _, n := range a.base.levels[l-2].cm[c] {
		if a.lmask[l-2][n]&bit != 0 {
			dst = append(dst, n)
		}
	}
	return dst
}

// measureLandmarks measures each class's landmarks on the top level, as a
// Graph measures its own (landmarks.go): the free cells of the class's
// grid nearest the corners and the middles of the sides, joined to the top
// level as a query's ends are, and a Dijkstra search from each along the
// class's edges of the top level.
func (a *Annotated) measureLandmarks() {
	sr, sc := newAnnotatedSearcher(a), &landmarkScratch{}
	a.lms = make([]*landmarks, len(a.ctx))
	for k := range a.ctx {
		a.measureClass(sr, sc, k)
	}
}

// measureClass measures class k's landmarks from scratch, with sr and sc
// for its searches.
func (a *Annotated) measureClass(sr *AnnotatedSearcher, sc *landmarkScratch, k int) {
	h := a.base
	top := h.Levels()
	bit := uint64(1) << k
	lm := newLandmarks(top, len(h.nodes), func(n int32) bool { return a.serves(top, n, bit) })
	lm.mask, lm.bit = a.masks[top], bit
	a.lms[k] = lm
	if lm.k == 0 {
		return
	}
	join := a.landmarkJoin(sr, k)
	for i := range lm.k {
		p, seeds := join(i)
		lm.cell[i], lm.seeds[i] = p, slices.Clone(seeds)
		lm.measure(h, sc, i)
	}
}

// landmarkJoin returns the function that gives class k's landmark i: the
// free cell of its grid nearest the landmark's corner, and its joins to
// the top level (sr's, until its next search; none without a free cell).
func (a *Annotated) landmarkJoin(sr *AnnotatedSearcher, k int) func(i int) (image.Point, []core.Edge) {
	h, x := a.base, a.ctx[k]
	top := h.Levels()
	return func(i int) (image.Point, []core.Edge) {
		p, ok := x.g.NearestFree(landmarkCorner(h.w, h.h, i))
		if !ok {
			return p, nil
		}
		sr.use(k)
		sr.join(0, p, uint64(1)<<k, top)
		return p, sr.lift[0][top]
	}
}

// repairLandmarks brings each class's landmarks up to date after an
// update whose changed nodes of the top level are changed (as
// Graph.repairLandmarks does), measuring a class's from scratch where
// they cannot be repaired.
func (a *Annotated) repairLandmarks(sr *AnnotatedSearcher, sc *landmarkScratch, changed []int32) {
	h := a.base
	top := h.Levels()
	for k := range a.ctx {
		bit := uint64(1) << k
		lm := a.lms[k]
		if lm != nil {
			lm.mask = a.masks[top] // the array may have grown
		}
		if !h.repairWith(lm, sc, changed, func(n int32) bool { return a.serves(top, n, bit) }, a.landmarkJoin(sr, k)) {
			a.measureClass(sr, sc, k)
		}
	}
}
