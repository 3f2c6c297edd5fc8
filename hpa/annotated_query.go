package hpa

import (
	"fmt"
	"image"
	"slices"
	"sync/atomic"

	"github.com/cairn-nav/cairn/core"
)

// AnnotatedSearcher answers the queries of the classes of one [Annotated]
// graph and owns the scratch memory of its searches: about 32 bytes per
// abstract node, and per class that it has answered 16 bytes per cell of a
// window of 4×4 clusters and of two more clusters. It is not safe for
// concurrent use; give each goroutine its own. After its buffers have
// grown (and its first query of each class), a query allocates nothing but
// what it appends to the caller's slice (nothing when that slice has room)
// and the paths it searches that the graph keeps.
type AnnotatedSearcher struct {
	a     *Annotated
	cls   []*annClass // per class, made at its first query
	view  view
	abs   *core.Searcher
	adist absDist
	path  []int32    // the abstract path of the latest query
	ids   [2][]int32 // per end: the class's nodes of its cluster at the level of the latest join
	// Per end and level l (index l): an edge to each node of the end's
	// level-l cluster that serves the class and that the end reaches
	// inside that cluster along the class's edges, with its cost.
	lift   [2][MaxLevels + 1][]core.Edge
	seq    [MaxLevels][]int32 // per level l > 1 (index l−2): the latest refinement's path at level l−1
	exp    int                // nodes expanded by the query so far
	x      *Graph             // the current class's geometry
	cl     *annClass          // the current class's searches
	class  int                // the current class
	ends   [2]image.Point     // the current query's start and goal
	pair   [2]int32           // the one edge that fillLocked refines
	stream                    // an incremental query (Begin, Next)
	sl     annSliced          // a sliced query (BeginSliced, Step)
}

// annClass holds the searches of one class on its grid.
type annClass struct {
	win *clusterSearch    // the window's search and the refinement's
	ins [2]*clusterSearch // the start's and the goal's cluster searches
}

// NewAnnotatedSearcher returns a searcher for a. It panics when a is nil.
func NewAnnotatedSearcher(a *Annotated) *AnnotatedSearcher {
	if a == nil {
		panic("hpa: NewAnnotatedSearcher of a nil annotated graph")
	}
	a.mu.RLock() // an Update may be changing the nodes
	defer a.mu.RUnlock()
	return newAnnotatedSearcher(a)
}

// newAnnotatedSearcher is NewAnnotatedSearcher for a caller that holds a.mu.
func newAnnotatedSearcher(a *Annotated) *AnnotatedSearcher {
	n := len(a.base.nodes)
	sr := &AnnotatedSearcher{a: a, cls: make([]*annClass, len(a.ctx))}
	sr.view = view{h: a.base, level: 1, masks: a.masks[1],
		goalCost: make([]float64, n), goalStamp: make([]uint32, n)}
	sr.abs = core.NewSearcher(&sr.view)
	sr.adist.h = a.base
	return sr
}

// AppendPath finds a path for a unit of class class from one cell to
// another (its anchor cell's) and appends its cells, from and to included,
// to dst. A class out of range, a start or goal outside the grid or where
// the unit does not fit, or a weight out of range is an error; a goal in
// another connected region of the class's grid is answered at once with
// status core.Unreachable and nothing appended. q.MaxLevel caps the level
// of the abstract search and q.Weight weights it, as for a [Searcher].
//
// Ends in the same or neighbouring clusters are first searched directly
// on the class's grid, inside their clusters' bounding box grown by one
// cluster on every side, as [Searcher.AppendPath] does. Otherwise, or when
// that window holds no path, start and goal are joined to the nodes of
// their level-1 clusters that serve the class by one Dijkstra search each,
// and from those to the class's nodes of their clusters at each level up
// to the highest that separates them, by a Dijkstra search of the class's
// edges of the level below inside the cluster; that level is searched
// with A* along the class's edges, guided by its landmarks, and each edge
// inside a cluster is refined level by level into cells, by an A* search
// inside the cluster the first time a query of the class needs it, then
// from the path the graph keeps (allocating it then). The result's cost
// is that of the path on the class's grid.
//
// A query holds off [grid.Grid.SetCells] of the source grid while it runs;
// after an edit of the source grid it fails with [ErrStale].
func (sr *AnnotatedSearcher) AppendPath(dst []image.Point, class int, from, to image.Point, q Query) ([]image.Point, Result, error) {
	a := sr.a
	a.rlock()
	defer a.runlock()
	res, err := sr.begin(class, from, to, q)
	if err != nil || res.Status != core.Found {
		sr.drop()
		return dst, res, err
	}
	n0 := len(dst)
	dst = append(dst, sr.pending...)
	dst, ok := sr.refine(dst, -1)
	sr.drop() // AppendPath leaves no incremental query
	if !ok {
		return dst[:n0], Result{}, sr.lost()
	}
	return dst, Result{Status: core.Found, Cost: sr.x.pathCost(dst[n0:]), Expanded: sr.exp}, nil
}

// open starts a query of class from one cell to another, dropping any in
// progress: it checks the query, makes class the current class and the
// start the first pending cell, and returns the abstract search's weight;
// true when the query is answered at once (the goal in another region, or
// the start), with sr.inc set. The caller holds a.mu and the source
// grid's read lock.
func (sr *AnnotatedSearcher) open(class int, from, to image.Point, q Query) (float64, bool, error) {
	a := sr.a
	sr.drop()
	x, err := a.classOf(class)
	if err != nil {
		return 0, false, err
	}
	w, err := q.weight()
	if err != nil {
		return 0, false, err
	}
	if err := a.fresh(); err != nil {
		return 0, false, err
	}
	for _, e := range [2]struct {
		p    image.Point
		what string
	}{{from, "start"}, {to, "goal"}} {
		if err := x.checkEnd(e.p, e.what); err != nil {
			return 0, false, fmt.Errorf("%w, for class %d", err, class)
		}
	}
	sr.incAt = a.version
	if !x.g.Connected(from, to) {
		sr.inc = Result{Status: core.Unreachable}
		return w, true, nil
	}
	sr.use(class)
	sr.ends, sr.exp = [2]image.Point{from, to}, 0
	sr.pending = append(sr.pending[:0], from)
	sr.inc = Result{Status: core.Found}
	return w, from == to, nil
}

// begin answers a query up to its refinement, as Begin does: the whole
// path in sr.pending when the window around near ends holds one, else
// the start there and the abstract path in sr.frames. The caller holds
// a.mu and the source grid's read lock.
func (sr *AnnotatedSearcher) begin(class int, from, to image.Point, q Query) (Result, error) {
	w, done, err := sr.open(class, from, to, q)
	if err != nil || done {
		return sr.inc, err
	}
	x := sr.x
	if win, near := x.window(from, to); near {
		cells, e, ok := sr.cl.win.appendPathIn(sr.pending, win, from, to)
		sr.exp += e
		if ok {
			sr.pending = cells
			sr.inc = Result{Status: core.Found, Cost: x.pathCost(cells), Expanded: sr.exp}
			return sr.inc, nil
		}
		sr.pending = cells[:1]
	}
	top := sr.a.base.topLevel(from, to, q)
	sr.prepare(uint64(1)<<class, top)
	nn := int32(len(sr.a.base.nodes))
	r := sr.abs.Search(nn, nn+1, &sr.adist, core.Query{Weight: w})
	sr.exp += r.Expanded
	return sr.abstractFound(r, sr.abs, top), nil
}

// abstractFound ends the abstract search of level top, whose result is r
// on searcher s: it sets sr.inc and, for a path, sr.path and the first
// frame of its refinement.
func (sr *AnnotatedSearcher) abstractFound(r core.Result, s interface {
	AppendPath([]int32, int32) []int32
}, top int) Result {
	if r.Status != core.Found {
		// Cannot happen on a connected pair: every path leaving a cluster
		// crosses an entrance of the class, which has a transition that
		// serves it.
		sr.pending = sr.pending[:0]
		sr.inc = Result{Status: core.Unreachable, Expanded: sr.exp}
		return sr.inc
	}
	sr.path = s.AppendPath(sr.path[:0], r.End)
	sr.frames = append(sr.frames[:0], refineFrame{level: top, path: sr.path, k: 1})
	sr.inc = Result{Status: core.Found, Cost: r.Cost, Expanded: sr.exp}
	return sr.inc
}

// lost is the error of a refinement whose search found no path, which a
// correct graph never gives.
func (sr *AnnotatedSearcher) lost() error {
	return fmt.Errorf("hpa: internal error: an edge of class %d's abstract path has no path in its cluster", sr.class)
}

// prepare joins the ends to the nodes of level top that serve the class
// of mask bit and sets the view and the estimate up for the search of
// that level, the class's landmarks guiding it.
func (sr *AnnotatedSearcher) prepare(bit uint64, top int) {
	a, v := sr.a, &sr.view
	for end, p := range sr.ends {
		sr.join(end, p, bit, top)
	}
	v.level, v.confine, v.masks = top, 0, a.masks[top]
	v.start = sr.lift[0][top]
	v.setGoal(sr.lift[1][top])
	sr.adist.from, sr.adist.to, sr.adist.target = sr.ends[0], sr.ends[1], sr.ends[1]
	sr.adist.alt.setFor(a.lms[sr.class], top, sr.lift[1][top], sr.lift[0][top])
}

// use makes class the current class, making its searches at its first
// query.
func (sr *AnnotatedSearcher) use(class int) {
	if sr.cls[class] == nil {
		x := sr.a.ctx[class]
		sr.cls[class] = &annClass{win: newClusterSearch(x), ins: [2]*clusterSearch{newSpanSearch(x, 1), newSpanSearch(x, 1)}}
	}
	sr.x, sr.cl, sr.class = sr.a.ctx[class], sr.cls[class], class
}

// join sets sr.lift[end] for cell p of the current class, whose mask bit
// is: at level 1 by a Dijkstra search of the cells of p's cluster to its
// nodes that serve the class, and at each level l up to top by a Dijkstra
// search of the class's edges of level l−1 inside p's level-l cluster,
// from the edges of level l−1, to that cluster's nodes of level l that
// serve the class.
func (sr *AnnotatedSearcher) join(end int, p image.Point, bit uint64, top int) {
	a, x := sr.a, sr.x
	h := a.base
	nn := int32(len(h.nodes))
	sr.view.bit = bit
	c := x.clusterOf(p)
	ids := sr.ids[end][:0]
	for _, n := range h.cnodes[c] {
		if a.nmask[n]&bit != 0 {
			ids = append(ids, n)
		}
	}
	ins := sr.cl.ins[end]
	sr.exp += ins.searchAmong(c, p, ids, h.nodes)
	edges := sr.lift[end][1][:0]
	for i, n := range ids {
		if d, ok := ins.nodeDist(i); ok {
			edges = append(edges, core.Edge{To: n, Cost: d})
		}
	}
	sr.lift[end][1] = edges
	for l := 2; l <= top; l++ {
		c := h.clusterAt(l, p)
		ids = a.levelMembers(ids[:0], l, c, bit)
		sr.confine(l, c, sr.lift[end][l-1])
		r := sr.abs.SearchAll(nn, ids, core.Query{})
		sr.exp += r.Expanded
		edges := sr.lift[end][l][:0]
		for _, n := range ids {
			if d, ok := sr.abs.Dist(n); ok {
				edges = append(edges, core.Edge{To: n, Cost: d})
			}
		}
		sr.lift[end][l] = edges
	}
	sr.ids[end] = ids
}

// confine sets the view up for a search of the class's edges of level
// l−1 inside level-l cluster c, with start edges start (nil for none)
// and no goal edges.
func (sr *AnnotatedSearcher) confine(l int, c int32, start []core.Edge) {
	v := &sr.view
	v.level, v.confine, v.cluster, v.masks = l-1, l, c, sr.a.masks[l-1]
	v.start = start
	v.setGoal(nil)
}

// refine appends cells of the refinement in sr.frames to dst, whole
// abstract edges at a time, until it has appended at least n cells (all
// of them when n ≤ 0) or the path is complete. It reports false when a
// search finds no path, which a correct graph never gives, and then drops
// the refinement.
//
// A frame holds a path of level l whose node before index k has its cell
// at the end of dst. A step between two clusters of level l is one step of
// cells across a border. At level 1 a step inside a cluster is the start's
// search tree to its first node, the goal's from its last, or the path
// between two nodes (searched the first time, then kept by the graph).
// Above it a step inside a cluster of level l is searched with A* along
// the class's edges of level l−1 inside that cluster, from the start's
// lifted edges of level l−1 for the first step, to the goal's for the
// last, unless the graph keeps it, and refined in turn in a frame of its
// own.
func (sr *AnnotatedSearcher) refine(dst []image.Point, n int) ([]image.Point, bool) {
	a := sr.a
	h := a.base
	nn := int32(len(h.nodes))
	n0 := len(dst)
	sr.adist.alt.lm = nil // the searches inside clusters use no landmarks, whatever query set them
	for n <= 0 || len(dst)-n0 < n {
		f, i, ok := sr.nextEdge()
		if !ok {
			break
		}
		l, u, v := f.level, f.path[i-1], f.path[i]
		if u < nn && v < nn && h.clusterAt(l, a.cell(u)) != h.clusterAt(l, a.cell(v)) {
			dst = append(dst, a.cell(v))
			continue
		}
		if l == 1 {
			switch {
			case u == nn:
				dst = sr.cl.ins[0].appendTreePath(dst, a.cell(v), false)
			case v == nn+1:
				dst = sr.cl.ins[1].appendTreePath(dst, a.cell(u), true)
			default:
				var ok bool
				var e int
				dst, e, ok = sr.cl.win.appendNodePath(dst, h.nodes[u].cluster, u, v)
				sr.exp += e
				if !ok {
					sr.frames = sr.frames[:0]
					return dst, false
				}
			}
			continue
		}
		var r core.Result
		var slot *atomic.Pointer[[]int32]
		switch {
		case u == nn:
			sr.confine(l, h.clusterAt(l, a.cell(v)), sr.lift[0][l-1])
			sr.adist.target = a.cell(v)
			r = sr.abs.Search(nn, v, &sr.adist, core.Query{})
		case v == nn+1:
			sr.confine(l, h.clusterAt(l, a.cell(u)), nil)
			sr.view.setGoal(sr.lift[1][l-1])
			sr.adist.target = sr.ends[1]
			r = sr.abs.Search(u, nn+1, &sr.adist, core.Query{})
		default: // between two nodes: maybe found before
			c := h.clusterAt(l, a.cell(v))
			if slot = a.levelSlot(l, sr.class, c, u, v); slot != nil {
				if seq := slot.Load(); seq != nil {
					sr.frames = append(sr.frames, refineFrame{level: l - 1, path: *seq, k: 1})
					continue
				}
			}
			sr.confine(l, c, nil)
			sr.adist.target = a.cell(v)
			r = sr.abs.Search(u, v, &sr.adist, core.Query{})
		}
		sr.exp += r.Expanded
		if r.Status != core.Found {
			sr.frames = sr.frames[:0]
			return dst, false
		}
		// The frame of level l−1 holds sr.seq[l−2] until it is done, before
		// any other step of level l searches again.
		seq := sr.abs.AppendPath(sr.seq[l-2][:0], r.End)
		sr.seq[l-2] = seq
		if slot != nil {
			kept := slices.Clone(seq)
			slot.Store(&kept)
			seq = kept
		}
		sr.frames = append(sr.frames, refineFrame{level: l - 1, path: seq, k: 1})
	}
	return dst, true
}
