package hpa

import (
	"cmp"
	"errors"
	"fmt"
	"image"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/parallel"
)

// Annotated is the HPA* of several agent classes (unit sizes and filters)
// in one abstract graph whose nodes and edges the classes share, after
// Harabor and Botea's annotated HPA* (AHA*). Each edge carries the set of
// classes that may take it, as a bit mask (hence at most [MaxClasses]
// classes), and each class's query follows only its own edges.
//
// The transitions are shared. Along each border, the classes are taken
// from the most restrictive (largest unit, then with a filter) to the
// least; each class's entrances are the runs of cell pairs free on both
// sides on its derived grid ([grid.Grid.Derived]: the anchors where its
// footprint fits on cells its filter passes), and an entrance gets a
// transition as in [Build] (one at its middle, or two at its ends when it
// is longer than [Options.MaxEntrance]) only where the transitions placed
// so far leave it without one: a transition that a 3×3 unit passes through
// serves the 2×2 and 1×1 units too. A transition serves every class for
// which both its cells are free and the step across is legal. Inside each
// cluster, the nodes that serve a class are joined by Dijkstra searches on
// that class's grid, and edges between the same nodes at the same cost are
// one edge whose mask holds each class that found it.
//
// A path is that of the unit's anchor cell, legal for the whole footprint
// on the source grid; its cost is that of the class's grid, on which an
// exact search ([grid.NewSearcher] on [Annotated.Grid]) gives the class's
// optimum. Paths are a few per cent longer than optimal, as those of a
// [Graph] of the same options.
//
// Above the first level it has the levels of a Graph (see [Build] and
// [Options.Levels]), their edges masked likewise: a node of level l is one
// with an edge of level l−1 across a level-l border, and inside each
// level-l cluster the nodes that serve a class are joined, for that
// class, by its shortest paths along its edges of level l−1 in the
// cluster. Each class has its own landmarks on the top level (ALT, as a
// Graph's), measured along its edges, and a query joins its ends level by
// level with searches of the class's edges inside their clusters.
//
// It differs from [Classes], which keeps a graph per class (each with its
// levels, landmarks and tables), in that the classes share one set of
// nodes and edges. As a Graph does, it keeps the paths inside clusters
// that a class's queries refined, at every level, for that class's later
// queries. [Annotated.WriteTo] and [ReadAnnotated] write it to a file and
// read it back, for graphs built offline. After an edit of the source
// grid its queries fail with [ErrStale] until [Annotated.Update] brings it
// up to date in place, rebuilding what the edit reaches. The derived
// grids are kept per class, as in Classes.
//
// An Annotated value changes only in Update, and is safe for concurrent
// queries, one [AnnotatedSearcher] per goroutine, which wait while an
// Update runs.
type Annotated struct {
	cl      *Classes // the classes and their grids (no graphs)
	base    *Graph   // geometry on the source grid, and the shared nodes (base.nodes, base.cnodes)
	ctx     []*Graph // per class: its grid's geometry, for the cluster searches, the shared nodes and the class's kept paths; no edges
	version uint64   // the source grid's when built or last updated
	nmask   []uint64 // per node: the classes it serves at level 1
	// Per level l (index l, from 1), per node n: the masks of its edges
	// base.edgesAt(l, n), one each, and (index l−2 of lmask) the classes
	// it serves at level l > 1, none for a node absent from the level.
	masks [MaxLevels + 1][][]uint64
	lmask [MaxLevels - 1][]uint64
	// Per class: its landmarks on the top level (landmarks.go), measured
	// along its edges.
	lms []*landmarks
	// Per level l > 1 and class k (index (l−2)·classes + k), per cluster
	// of level l: the paths of level l−1 between its nodes that the
	// class's queries refined, kept for its later queries.
	lpaths [][]atomic.Pointer[levelPaths]
	// mu is held for writing by Update, for reading by queries and
	// WriteTo; upd is the scratch of updates.
	mu  sync.RWMutex
	upd *annUpdateScratch
	// entrances counts, over the classes, each class's entrances.
	entrances int
}

// BuildAnnotated builds the annotated graph of the given agent classes
// over g, with the cluster size, max entrance, levels and level factor of
// opt, chosen as [Build] chooses them when 0. The filters are copied. It
// returns an error when g is nil, for a class that [BuildClasses]
// refuses, or for options Build refuses. It holds g's read lock while it
// reads g, once the classes' grids are derived. Its cost is about that of
// one Graph per class, all on runtime.GOMAXPROCS goroutines, plus one
// O(width·height) derivation per class that needs one.
func BuildAnnotated(g *grid.Grid, classes []Class, opt Options) (*Annotated, error) {
	if g == nil {
		return nil, errors.New("hpa: nil grid")
	}
	cs, me, err := opt.sizes()
	if err != nil {
		return nil, err
	}
	if opt.LevelFactor != 0 && (opt.LevelFactor < 2 || opt.LevelFactor > MaxLevelFactor) {
		return nil, fmt.Errorf("hpa: level factor %d, want 0 or 2 to %d", opt.LevelFactor, MaxLevelFactor)
	}
	if opt.Levels < 0 || opt.Levels > MaxLevels {
		return nil, fmt.Errorf("hpa: %d levels, want 0 to %d", opt.Levels, MaxLevels)
	}
	lf, levels := chooseLevels(g.Width(), g.Height(), cs, opt.Levels, opt.LevelFactor)
	c, err := newClasses(g, classes)
	if err != nil {
		return nil, err
	}
	g.RLock()
	defer g.RUnlock()
	a, inter := newAnnotated(c, cs, me, lf)
	a.finish(inter, a.intraEdges(opt.Progress), levels)
	return a, nil
}

// newAnnotated returns the annotated graph of classes c with clusters of
// cs, entrances split above me and level factor lf, with its nodes and
// the classes they serve, and its inter-cluster edges, which it leaves to
// finish. The caller holds the source grid's read lock.
func newAnnotated(c *Classes, cs, me, lf int) (*Annotated, []halfEdge) {
	a := &Annotated{cl: c, base: newGraph(c.src, cs, me, lf), version: c.src.Version()}
	for _, e := range c.cls {
		a.ctx = append(a.ctx, newGraph(e.g, cs, me, lf))
	}
	ts := a.transitions()
	a.base.makeNodes(ts)
	for _, x := range a.ctx { // the shared nodes, and paths kept per class
		x.nodes, x.cnodes = a.base.nodes, a.base.cnodes
		x.cpaths = make([]atomic.Pointer[clusterPaths], len(x.cnodes))
	}
	inter := a.interEdges(ts)
	a.nmask = make([]uint64, len(a.base.nodes))
	for _, e := range inter {
		a.nmask[e.from] |= e.mask
	}
	return a, inter
}

// finish lays out level 1 from its inter-cluster edges and the edges
// inside each cluster, and builds the levels up to levels and the
// landmarks.
func (a *Annotated) finish(inter []halfEdge, intra [][]intraEdge, levels int) {
	off, edges, emask := layoutMasked(len(a.base.nodes), inter, intra, true)
	a.base.edges = edges
	a.masks[1] = perNode(off, emask)
	a.base.off = off
	a.base.finish()
	a.buildLevels(levels)
	a.measureLandmarks()
}

// order returns the classes from the most restrictive to the least: by
// unit size, largest first, then those with a filter, then by index.
func (a *Annotated) order() []int {
	ord := make([]int, len(a.cl.cls))
	for i := range ord {
		ord[i] = i
	}
	slices.SortStableFunc(ord, func(i, j int) int {
		ci, cj := &a.cl.cls[i], &a.cl.cls[j]
		return cmp.Or(cmp.Compare(cj.k, ci.k), cmp.Compare(btoi(cj.df != nil), btoi(ci.df != nil)))
	})
	return ord
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// transitions returns the shared transitions of every border (see
// Annotated), border by border, and keeps each border's transitions and
// entrances (summed over the classes) in base.bts and base.bent, and
// their total in a.entrances.
func (a *Annotated) transitions() []transition {
	h := a.base
	nb := int32(2 * h.ncx * h.ncy)
	h.bts, h.bent = make([][]transition, nb), make([]int32, nb)
	var ts []transition
	starts := make([]int, nb+1)
	for b := range nb {
		var n int32
		ts, n = a.borderTransitions(ts, b)
		h.bent[b] = n
		a.entrances += int(n)
		starts[b+1] = len(ts)
	}
	for b := range nb {
		h.bts[b] = ts[starts[b]:starts[b+1]:starts[b+1]]
	}
	return ts
}

// borderTransitions appends border b's shared transitions to dst and
// returns them with the border's entrances, summed over the classes.
func (a *Annotated) borderTransitions(dst []transition, b int32) ([]transition, int32) {
	h, me := a.base, a.base.me
	n, across, pair := h.borderPairs(b)
	if n == 0 {
		return dst, 0
	}
	var chosen []int // pair indices of the border's transitions so far
	has := func(lo, hi int) bool {
		return slices.ContainsFunc(chosen, func(i int) bool { return i >= lo && i <= hi })
	}
	var entrances int32
	for _, k := range a.order() {
		g := a.ctx[k].g
		run := 0
		for i := 0; i <= n; i++ {
			if i < n {
				if p, _ := pair(i); g.Moves(p)&across != 0 {
					run++
					continue
				}
			}
			if run == 0 {
				continue
			}
			entrances++
			s, e := i-run, i-1
			switch {
			case run <= me:
				if !has(s, e) {
					chosen = append(chosen, (s+e)/2)
				}
			default:
				if !has(s, s+me-1) {
					chosen = append(chosen, s)
				}
				if !has(e-me+1, e) {
					chosen = append(chosen, e)
				}
			}
			run = 0
		}
	}
	slices.Sort(chosen)
	for _, i := range chosen {
		p, q := pair(i)
		dst = append(dst, transition{p, q})
	}
	return dst, entrances
}

// costMask is one cost of a step across a transition and the classes
// whose grids give it.
type costMask struct {
	cost float64
	mask uint64
}

// stepCosts appends to dst the distinct costs of transition t's step
// among the classes that may take it, each with those classes, in the
// order of the classes that first give each.
func (a *Annotated) stepCosts(dst []costMask, t transition) []costMask {
	across := eastBit
	if t.b.Y != t.a.Y {
		across = southBit
	}
	for k, x := range a.ctx {
		if x.g.Moves(t.a)&across == 0 {
			continue
		}
		c := x.g.StepCost(t.a, t.b)
		if i := slices.IndexFunc(dst, func(cm costMask) bool { return cm.cost == c }); i >= 0 {
			dst[i].mask |= 1 << k
		} else {
			dst = append(dst, costMask{c, 1 << k})
		}
	}
	return dst
}

// interEdges returns both directions of each transition's step, one edge
// per distinct cost among the classes that may take it, masked with them.
func (a *Annotated) interEdges(ts []transition) []halfEdge {
	var out []halfEdge
	var cms []costMask
	for _, t := range ts {
		cms = a.stepCosts(cms[:0], t)
		u, v := a.base.nodeAt(t.a), a.base.nodeAt(t.b)
		for _, cm := range cms {
			out = append(out,
				halfEdge{from: u, e: core.Edge{To: v, Cost: cm.cost}, mask: cm.mask},
				halfEdge{from: v, e: core.Edge{To: u, Cost: cm.cost}, mask: cm.mask})
		}
	}
	return out
}

// intraEdges returns, per cluster, the edges between its nodes: for each
// class, the searches on its grid among the nodes that serve it, merged
// where the same two nodes are joined at the same cost.
func (a *Annotated) intraEdges(progress func(done, total int)) [][]intraEdge {
	h := a.base
	nc := h.ncx * h.ncy
	out := make([][]intraEdge, nc)
	type scratch struct {
		cls []*clusterSearch // per class, made when first needed
		ids []int32
		buf []intraEdge
	}
	var mu sync.Mutex // serialises progress calls
	done := 0
	parallel.ForEach(nc, func() *scratch { return &scratch{cls: make([]*clusterSearch, len(a.ctx))} }, func(s *scratch, c int32) {
		s.buf = s.buf[:0]
		for k := range a.ctx {
			bit := uint64(1) << k
			s.ids = s.ids[:0]
			for _, n := range h.cnodes[c] {
				if a.nmask[n]&bit != 0 {
					s.ids = append(s.ids, n)
				}
			}
			if len(s.ids) < 2 {
				continue
			}
			if s.cls[k] == nil {
				s.cls[k] = newSpanSearch(a.ctx[k], 1)
			}
			s.buf = s.cls[k].connectAmong(s.buf, c, s.ids, h.nodes, bit)
		}
		out[c] = mergeMasks(s.buf, func(n int32) int { return h.localIndex(c, n) })
		if progress != nil {
			mu.Lock()
			done++
			progress(done, nc)
			mu.Unlock()
		}
	})
	return out
}

// mergeMasks returns the edges of es, one per distinct pair of nodes and
// cost, each with the union of the masks of those it stands for, in the
// order of from, to and cost, nodes ordered by rank (their place in their
// cluster's list); nil when es is empty.
func mergeMasks(es []intraEdge, rank func(n int32) int) []intraEdge {
	if len(es) == 0 {
		return nil
	}
	slices.SortFunc(es, func(x, y intraEdge) int {
		return cmp.Or(cmp.Compare(rank(x.from), rank(y.from)), cmp.Compare(rank(x.to), rank(y.to)), cmp.Compare(x.cost, y.cost))
	})
	out := make([]intraEdge, 0, len(es))
	for _, e := range es {
		if l := len(out) - 1; l >= 0 && out[l].from == e.from && out[l].to == e.to && out[l].cost == e.cost {
			out[l].mask |= e.mask
			continue
		}
		out = append(out, e)
	}
	return slices.Clip(out)
}

// Len returns the number of classes. It is O(1).
func (a *Annotated) Len() int { return a.cl.Len() }

// Class returns class i as given to [BuildAnnotated] (see
// [Classes.Class]). It panics when i is out of range.
func (a *Annotated) Class(i int) Class { return a.cl.Class(i) }

// Grid returns the grid of class i (see [Classes.Grid]): a grid search on
// it gives the class's exact optimum. It panics when i is out of range.
// The caller must not edit a derived grid.
func (a *Annotated) Grid(i int) *grid.Grid { return a.cl.Grid(i) }

// Levels returns the number of levels of the graph, at least 1.
func (a *Annotated) Levels() int { return a.base.Levels() }

// ClusterSize returns the side of the graph's clusters, in cells.
func (a *Annotated) ClusterSize() int { return a.base.cs }

// AnnotatedStats counts the parts of an [Annotated] graph.
type AnnotatedStats struct {
	Clusters int
	// Entrances counts each class's entrances, summed over the classes.
	Entrances int
	// Nodes counts the shared nodes; ClassNodes[i] those that serve class i.
	Nodes      int
	ClassNodes []int
	// Edges counts directed edges, each once whatever its classes;
	// ClassEdges[i] those class i may take. Both count level 1's.
	Edges      int
	ClassEdges []int
	// Levels is the number of levels; LevelNodes and LevelEdges count the
	// nodes and directed edges of the levels above the first, summed.
	Levels, LevelNodes, LevelEdges int
	// Bytes is the memory of the nodes, edges and landmarks of every
	// level: the graph's own, not counting the classes' grids or the
	// paths that queries keep.
	Bytes int
}

// Stats returns the sizes of the graph, in time linear in its edges; it
// allocates the two per-class slices.
func (a *Annotated) Stats() AnnotatedStats {
	a.mu.RLock()
	defer a.mu.RUnlock()
	h := a.base
	st := AnnotatedStats{
		Clusters: h.ncx * h.ncy, Entrances: a.entrances, Nodes: h.nlive,
		ClassNodes: make([]int, a.Len()), ClassEdges: make([]int, a.Len()),
	}
	count := func(dst []int, m uint64) {
		for k := range dst {
			if m&(1<<k) != 0 {
				dst[k]++
			}
		}
	}
	for _, m := range a.nmask {
		count(st.ClassNodes, m)
	}
	for _, ms := range a.masks[1] {
		st.Edges += len(ms)
		for _, m := range ms {
			count(st.ClassEdges, m)
		}
	}
	// Per node: its cell and cluster (12 bytes), mask (8), place in its
	// cluster's list (4), edge offset (4) and edge slice header (24); per
	// edge: target and cost (16) and mask (8).
	st.Bytes = st.Nodes*(12+8+4+4+24) + st.Edges*(16+8) + 4*(st.Clusters+1)
	// Per level above the first: per node ID, its edge and mask slice
	// headers (48) and classes (8); per member, its place in its
	// cluster's list (4); per edge, 24 as above.
	st.Levels = h.Levels()
	for _, lv := range h.levels {
		st.LevelNodes += lv.nmembers
		st.LevelEdges += lv.nedges
		st.Bytes += len(h.nodes)*(48+8) + lv.nmembers*4 + lv.nedges*(16+8)
	}
	// Per class's landmarks: per node ID, its row (4); per row, its node
	// (4), distances (8 each) and parents (4 each).
	for _, lm := range a.lms {
		st.Bytes += 4*len(lm.slot) + len(lm.ids)*(4+12*lm.k)
	}
	return st
}

// rlock takes a's read lock and its source grid's, as a query does: an
// Update waits, and so does an edit of the source grid.
func (a *Annotated) rlock() {
	a.mu.RLock()
	a.cl.src.RLock()
}

// runlock releases the locks rlock took.
func (a *Annotated) runlock() {
	a.cl.src.RUnlock()
	a.mu.RUnlock()
}

// fresh returns ErrStale, wrapped, when the source grid has changed since
// the graph was built. The caller holds the grid's read lock.
func (a *Annotated) fresh() error {
	if v := a.cl.src.Version(); v != a.version {
		return fmt.Errorf("%w: grid version %d, the annotated graph's %d", ErrStale, v, a.version)
	}
	return nil
}

// classOf returns class i's geometry, or an error.
func (a *Annotated) classOf(i int) (*Graph, error) {
	if i < 0 || i >= len(a.ctx) {
		return nil, fmt.Errorf("hpa: class %d of an annotated graph of %d", i, len(a.ctx))
	}
	return a.ctx[i], nil
}

// cell returns node n's cell.
func (a *Annotated) cell(n int32) image.Point { return a.base.nodes[n].cell() }
