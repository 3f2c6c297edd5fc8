package hpa

import (
	"fmt"
	"image"

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
	path  []int32        // the abstract path of the latest query
	ids   [2][]int32     // the class's nodes of the start's and the goal's cluster
	goal  []core.Edge    // the edges into the goal
	exp   int            // nodes expanded by the query so far
	x     *Graph         // the current class's geometry
	cl    *annClass      // the current class's searches
	ends  [2]image.Point // the current query's start and goal
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
	n := len(a.base.nodes)
	sr := &AnnotatedSearcher{a: a, cls: make([]*annClass, len(a.ctx))}
	sr.view = view{h: a.base, level: 1, emask: a.emask, moff: a.off,
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
// status core.Unreachable and nothing appended. q.MaxLevel is not used, as
// the graph has one level; q.Weight weights the abstract search.
//
// Ends in the same or neighbouring clusters are first searched directly
// on the class's grid, inside their clusters' bounding box grown by one
// cluster on every side, as [Searcher.AppendPath] does. Otherwise, or when
// that window holds no path, start and goal are joined to the nodes of
// their clusters that serve the class by one Dijkstra search each, the
// graph is searched with A* along the class's edges, and each edge inside
// a cluster is refined by an A* search of that cluster the first time a
// query of the class needs it, then from the path the graph keeps
// (allocating it then). The result's cost
// is that of the path on the class's grid.
//
// A query holds off [grid.Grid.SetCells] of the source grid while it runs;
// after an edit of the source grid it fails with [ErrStale].
func (sr *AnnotatedSearcher) AppendPath(dst []image.Point, class int, from, to image.Point, q Query) ([]image.Point, Result, error) {
	a := sr.a
	x, err := a.classOf(class)
	if err != nil {
		return dst, Result{}, err
	}
	w, err := q.weight()
	if err != nil {
		return dst, Result{}, err
	}
	a.cl.src.RLock()
	defer a.cl.src.RUnlock()
	if err := a.fresh(); err != nil {
		return dst, Result{}, err
	}
	for _, e := range [2]struct {
		p    image.Point
		what string
	}{{from, "start"}, {to, "goal"}} {
		if err := x.checkEnd(e.p, e.what); err != nil {
			return dst, Result{}, fmt.Errorf("%w, for class %d", err, class)
		}
	}
	if !x.g.Connected(from, to) {
		return dst, Result{Status: core.Unreachable}, nil
	}
	if sr.cls[class] == nil {
		sr.cls[class] = &annClass{win: newClusterSearch(x), ins: [2]*clusterSearch{newSpanSearch(x, 1), newSpanSearch(x, 1)}}
	}
	sr.x, sr.cl, sr.ends, sr.exp = x, sr.cls[class], [2]image.Point{from, to}, 0
	n0 := len(dst)
	dst = append(dst, from)
	if from == to {
		return dst, Result{Status: core.Found}, nil
	}
	if cf, ct := x.clusterOf(from), x.clusterOf(to); x.near(cf, ct) {
		win := x.clusterRect(cf).Union(x.clusterRect(ct)).Inset(-x.cs).Intersect(x.g.Bounds())
		var ok bool
		var e int
		dst, e, ok = sr.cl.win.appendPathIn(dst, win, from, to)
		sr.exp += e
		if ok {
			return dst, Result{Status: core.Found, Cost: x.pathCost(dst[n0:]), Expanded: sr.exp}, nil
		}
		dst = dst[:n0+1]
	}
	if !sr.search(uint64(1)<<class, w) {
		// Cannot happen on a connected pair: every path leaving a cluster
		// crosses an entrance of the class, which has a transition that
		// serves it.
		return dst[:n0], Result{Status: core.Unreachable, Expanded: sr.exp}, nil
	}
	dst, ok := sr.refine(dst)
	if !ok {
		return dst[:n0], Result{}, fmt.Errorf("hpa: internal error: an edge of class %d's abstract path has no path in its cluster", class)
	}
	return dst, Result{Status: core.Found, Cost: x.pathCost(dst[n0:]), Expanded: sr.exp}, nil
}

// search joins the ends to the nodes of their clusters that serve the
// class of mask bit, and searches the graph along the class's edges with
// weight w; it reports whether it found a path, then in sr.path.
func (sr *AnnotatedSearcher) search(bit uint64, w float64) bool {
	a, x := sr.a, sr.x
	h := a.base
	v := &sr.view
	v.start, sr.goal = v.start[:0], sr.goal[:0]
	for end, p := range sr.ends {
		c := x.clusterOf(p)
		ids := sr.ids[end][:0]
		for _, n := range h.cnodes[c] {
			if a.nmask[n]&bit != 0 {
				ids = append(ids, n)
			}
		}
		sr.ids[end] = ids
		ins := sr.cl.ins[end]
		sr.exp += ins.searchAmong(c, p, ids, h.nodes)
		for i, n := range ids {
			if d, ok := ins.nodeDist(i); ok {
				if end == 0 {
					v.start = append(v.start, core.Edge{To: n, Cost: d})
				} else {
					sr.goal = append(sr.goal, core.Edge{To: n, Cost: d})
				}
			}
		}
	}
	v.setGoal(sr.goal)
	v.bit = bit
	sr.adist.from, sr.adist.to, sr.adist.target = sr.ends[0], sr.ends[1], sr.ends[1]
	nn := int32(len(h.nodes))
	r := sr.abs.Search(nn, nn+1, &sr.adist, core.Query{Weight: w})
	sr.exp += r.Expanded
	if r.Status != core.Found {
		return false
	}
	sr.path = sr.abs.AppendPath(sr.path[:0], r.End)
	return true
}

// refine appends the cells of the abstract path sr.path after its start,
// which dst ends with: the start's search tree to the first node, the
// path of each edge inside a cluster (searched the first time, then kept), a step for each edge across a
// border, and the goal's search tree from the last node. It reports false
// when a cluster's search finds no path, which a correct graph never
// gives.
func (sr *AnnotatedSearcher) refine(dst []image.Point) ([]image.Point, bool) {
	a, p := sr.a, sr.path // nn, the nodes, nn+1
	dst = sr.cl.ins[0].appendTreePath(dst, a.cell(p[1]), false)
	for i := 1; i+2 < len(p); i++ {
		u, v := a.base.nodes[p[i]], a.base.nodes[p[i+1]]
		if u.cluster != v.cluster {
			dst = append(dst, v.cell())
			continue
		}
		var ok bool
		var e int
		dst, e, ok = sr.cl.win.appendNodePath(dst, u.cluster, p[i], p[i+1])
		sr.exp += e
		if !ok {
			return dst, false
		}
	}
	return sr.cl.ins[1].appendTreePath(dst, a.cell(p[len(p)-2]), true), true
}
