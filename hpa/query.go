package hpa

import (
	"fmt"
	"image"
	"math"

	"github.com/cairn-nav/cairn/core"
)

// Query tunes one HPA* query. The zero value searches the abstract graph
// at the highest level that separates start and goal.
type Query struct {
	// MaxLevel caps the level of the abstract search, from 1 to
	// [Graph.Levels]; 0, or a level above the graph's, means no cap. A
	// lower level searches more abstract nodes, and may find a shorter
	// path: with MaxLevel 1 a query answers as on a graph of one level.
	MaxLevel int
}

// Result describes an HPA* query.
type Result struct {
	// Status is core.Found or core.Unreachable; core.NotSearched beside an
	// error.
	Status core.Status
	// Cost is the exact cost of the returned path, as grid.Grid.PathCost
	// computes it.
	Cost float64
	// Expanded counts the nodes expanded by all the searches of the query:
	// cells of the direct grid search, or cells of the start and goal
	// insertion searches, abstract nodes, and cells of the refinement
	// searches.
	Expanded int
}

// Searcher answers path queries on one [Graph] and owns the scratch memory
// of its searches: about 28 bytes per abstract node and 16 per cell of a window
// of 4×4 clusters, whatever the size of the map. It is not safe for
// concurrent use; give each goroutine its own. After its buffers have grown,
// a query allocates nothing but what it appends to the caller's slice (and
// nothing when that slice has room).
type Searcher struct {
	h     *Graph
	cs    *clusterSearch
	view  view
	abs   *core.Searcher
	adist absDist
	apath []int32
	// Per level l (index l−1): the start's out-edges and the goal's
	// in-edges, as edges from the start or to the goal; and the node
	// sequence of the latest refinement at that level.
	startEdges [MaxLevels][]core.Edge
	goalEdges  [MaxLevels][]core.Edge
	seq        [MaxLevels][]int32
	buf        []int32
	lastLevel  int // level of the latest abstract search, 0 when none
}

// NewSearcher returns a searcher for h. It panics when h is nil.
func NewSearcher(h *Graph) *Searcher {
	if h == nil {
		panic("hpa: NewSearcher of a nil graph")
	}
	sr := &Searcher{h: h, cs: newClusterSearch(h)}
	sr.view.h = h
	sr.view.goalCost = make([]float64, len(h.nodes))
	sr.view.goalStamp = make([]uint32, len(h.nodes))
	sr.abs = core.NewSearcher(&sr.view)
	sr.adist.h = h
	return sr
}

// view presents one level of the abstract graph, optionally confined to one
// cluster of a level above, with the query's start and goal inserted: nodes
// 0 to N-1 are the graph's, node N is the start and node N+1 the goal. The
// extra edges live here, so the shared graph is never written.
type view struct {
	h       *Graph
	level   int   // whose edges are followed
	confine int   // 0, or the level whose cluster confines the search
	cluster int32 // that cluster
	start   []core.Edge
	// Edges into the goal: from node n when goalStamp[n] == stamp.
	goalCost  []float64
	goalStamp []uint32
	stamp     uint32
}

func (v *view) NumNodes() int { return len(v.h.nodes) + 2 }

// setGoal marks the nodes with an edge into the goal; nil marks none.
func (v *view) setGoal(edges []core.Edge) {
	v.stamp++
	if v.stamp == 0 {
		clear(v.goalStamp)
		v.stamp = 1
	}
	for _, e := range edges {
		v.goalStamp[e.To] = v.stamp
		v.goalCost[e.To] = e.Cost
	}
}

func (v *view) inside(n int32) bool {
	return v.confine == 0 || v.h.clusterAt(v.confine, v.h.nodes[n].cell()) == v.cluster
}

func (v *view) AppendEdges(dst []core.Edge, n int32) []core.Edge {
	h := v.h
	nn := int32(len(h.nodes))
	if n >= nn {
		if n == nn {
			for _, e := range v.start {
				if v.inside(e.To) {
					dst = append(dst, e)
				}
			}
		}
		return dst // the goal: the search ends there
	}
	for _, e := range h.edgesAt(v.level, n) {
		if v.inside(e.To) {
			dst = append(dst, e)
		}
	}
	if v.goalStamp[n] == v.stamp {
		dst = append(dst, core.Edge{To: nn + 1, Cost: v.goalCost[n]})
	}
	return dst
}

// absDist is the distance from an abstract node's cell to the goal.
type absDist struct {
	h        *Graph
	from, to image.Point // the query's start and goal
	target   image.Point // the cell the current search heads for
}

func (d *absDist) Estimate(n int32) float64 {
	var p image.Point
	switch nn := int32(len(d.h.nodes)); {
	case n < nn:
		p = d.h.nodes[n].cell()
	case n == nn:
		p = d.from
	default:
		p = d.to
	}
	return d.h.distance(p, d.target)
}

func (h *Graph) checkEnd(p image.Point, what string) error {
	if !h.g.In(p) {
		return fmt.Errorf("hpa: %s (%d,%d) is outside the %d×%d grid", what, p.X, p.Y, h.w, h.h)
	}
	if !h.g.Passable(p) {
		return fmt.Errorf("hpa: %s (%d,%d) is a blocked cell", what, p.X, p.Y)
	}
	return nil
}

// near reports whether clusters a and b are the same or touch, sides or
// corners.
func (h *Graph) near(a, b int32) bool {
	ax, ay := int(a)%h.ncx, int(a)/h.ncx
	bx, by := int(b)%h.ncx, int(b)/h.ncx
	return ax-bx <= 1 && bx-ax <= 1 && ay-by <= 1 && by-ay <= 1
}

// AppendPath finds a path from one cell to another and appends its cells,
// from and to included, to dst. A start or goal outside the grid or on a
// blocked cell is an error; a goal in another connected region is answered
// at once with status core.Unreachable and nothing appended.
//
// When from and to lie in the same or neighbouring clusters the path comes
// from an A* search of the cells of their bounding box grown by one cluster
// on every side (4×4 clusters at most), exact within that window. Otherwise,
// or when the window holds no path, start and goal are joined to the
// abstract nodes of their clusters by one Dijkstra search each, the abstract
// graph is searched with A*, and each abstract edge is refined into cells
// by an A* search inside its cluster; the path is then usually a few per cent
// longer than optimal. The cost is that of the searches, which touch a few
// clusters and the abstract nodes near the path; it allocates only while its
// buffers grow and when dst lacks room.
//
// q.MaxLevel, when set, caps the level of the abstract search.
//
// The query holds off [grid.Grid.SetCells] while it runs; on a grid edited
// since the graph was made it fails with [ErrStale].
func (sr *Searcher) AppendPath(dst []image.Point, from, to image.Point, q Query) ([]image.Point, Result, error) {
	h := sr.h
	sr.lastLevel = 0
	h.g.RLock()
	defer h.g.RUnlock()
	if v := h.g.Version(); v != h.version {
		return dst, Result{}, fmt.Errorf("%w: grid version %d, the graph's %d", ErrStale, v, h.version)
	}
	if err := h.checkEnd(from, "start"); err != nil {
		return dst, Result{}, err
	}
	if err := h.checkEnd(to, "goal"); err != nil {
		return dst, Result{}, err
	}
	if !h.g.Connected(from, to) {
		return dst, Result{Status: core.Unreachable}, nil
	}
	cf, ct := h.clusterOf(from), h.clusterOf(to)
	exp := 0
	if h.near(cf, ct) {
		// Search the two clusters' bounding box grown by one cluster: exact
		// unless the shortest path leaves it, which the abstract search
		// below then covers.
		w := h.clusterRect(cf).Union(h.clusterRect(ct)).Inset(-h.cs).Intersect(image.Rect(0, 0, h.w, h.h))
		n0 := len(dst)
		dst = append(dst, from)
		var ok bool
		var e int
		dst, e, ok = sr.cs.appendPathIn(dst, w, from, to)
		exp += e
		if ok {
			return dst, Result{Status: core.Found, Cost: h.pathCost(dst[n0:]), Expanded: exp}, nil
		}
		dst = dst[:n0]
	}

	// Search the highest level at which start and goal lie in different
	// clusters; insert them into every level up to it.
	top := 1
	for l := h.Levels(); l > 1; l-- {
		if q.MaxLevel > 0 && l > q.MaxLevel {
			continue
		}
		if h.clusterAt(l, from) != h.clusterAt(l, to) {
			top = l
			break
		}
	}
	sr.adist.from, sr.adist.to = from, to
	var e int
	sr.startEdges, e = sr.insert(sr.startEdges, from, top)
	exp += e
	sr.goalEdges, e = sr.insert(sr.goalEdges, to, top)
	exp += e

	nn := int32(len(h.nodes))
	sr.view.level, sr.view.confine = top, 0
	sr.view.start = sr.startEdges[top-1]
	sr.view.setGoal(sr.goalEdges[top-1])
	sr.adist.target = to
	r := sr.abs.Search(nn, nn+1, &sr.adist, core.Query{})
	exp += r.Expanded
	if r.Status != core.Found {
		// Cannot happen on a connected pair: every path leaving a cluster
		// crosses an entrance, whose transition is reachable along it.
		return dst, Result{Status: core.Unreachable, Expanded: exp}, nil
	}
	sr.apath = sr.abs.AppendPath(sr.apath[:0], r.End)
	sr.lastLevel = top

	n0 := len(dst)
	dst = append(dst, from)
	dst, e, err := sr.refine(dst, top, sr.apath)
	exp += e
	if err != nil {
		return dst[:n0], Result{}, err
	}
	return dst, Result{Status: core.Found, Cost: h.pathCost(dst[n0:]), Expanded: exp}, nil
}

// insert joins cell p to the nodes of its clusters at levels 1 to top: at
// level 1 by a Dijkstra search of its cluster's cells, above by a Dijkstra
// search of the level below confined to its cluster, from p inserted there.
// It returns the edges per level, from p (or, by symmetry, to p), and the
// nodes expanded.
func (sr *Searcher) insert(edges [MaxLevels][]core.Edge, p image.Point, top int) ([MaxLevels][]core.Edge, int) {
	h := sr.h
	c := h.clusterOf(p)
	exp := sr.cs.searchFrom(c, p)
	edges[0] = edges[0][:0]
	for i := range h.first[c+1] - h.first[c] {
		if d, ok := sr.cs.nodeDist(int(i)); ok {
			edges[0] = append(edges[0], core.Edge{To: h.first[c] + i, Cost: d})
		}
	}
	nn := int32(len(h.nodes))
	for l := 2; l <= top; l++ {
		c := h.clusterAt(l, p)
		sr.view.level, sr.view.confine, sr.view.cluster = l-1, l, c
		sr.view.start = edges[l-2]
		sr.view.setGoal(nil)
		ms := h.membersOf(l, c, sr.buf)
		r := sr.abs.SearchAll(nn, ms, core.Query{})
		exp += r.Expanded
		edges[l-1] = edges[l-1][:0]
		for _, m := range ms {
			if d, ok := sr.abs.Dist(m); ok {
				edges[l-1] = append(edges[l-1], core.Edge{To: m, Cost: d})
			}
		}
	}
	return edges, exp
}

// refine appends the cells of an abstract path of level l, after its first
// node, to dst: each edge of level l > 1 becomes a path of the level below,
// found by A* confined to the edge's cluster, and refined in turn; each
// level-1 edge becomes a path of cells inside its cluster, or one step
// between clusters.
func (sr *Searcher) refine(dst []image.Point, l int, path []int32) ([]image.Point, int, error) {
	h := sr.h
	nn := int32(len(h.nodes))
	exp := 0
	for k := 1; k < len(path); k++ {
		a, b := path[k-1], path[k]
		pa, pb := sr.endCell(a), sr.endCell(b)
		if a < nn && b < nn && h.clusterAt(l, pa) != h.clusterAt(l, pb) {
			dst = append(dst, pb) // an inter-cluster step
			continue
		}
		if l == 1 {
			var c int32
			switch {
			case a == nn:
				c = h.clusterOf(pa)
			default:
				c = h.clusterOf(pb)
			}
			var e int
			var ok bool
			dst, e, ok = sr.cs.appendPath(dst, c, pa, pb)
			exp += e
			if !ok {
				return dst, exp, fmt.Errorf("hpa: internal error: no path from (%d,%d) to (%d,%d) inside cluster %d", pa.X, pa.Y, pb.X, pb.Y, c)
			}
			continue
		}
		// An edge inside a level-l cluster: search the level below.
		inner := pb
		if b == nn+1 {
			inner = pa
		}
		sr.view.level, sr.view.confine, sr.view.cluster = l-1, l, h.clusterAt(l, inner)
		sr.view.start = nil
		if a == nn {
			sr.view.start = sr.startEdges[l-2]
		}
		if b == nn+1 {
			sr.view.setGoal(sr.goalEdges[l-2])
		} else {
			sr.view.setGoal(nil)
		}
		sr.adist.target = pb
		r := sr.abs.Search(a, b, &sr.adist, core.Query{})
		exp += r.Expanded
		if r.Status != core.Found {
			return dst, exp, fmt.Errorf("hpa: internal error: no level-%d path from (%d,%d) to (%d,%d)", l-1, pa.X, pa.Y, pb.X, pb.Y)
		}
		sr.seq[l-2] = sr.abs.AppendPath(sr.seq[l-2][:0], r.End)
		var e int
		var err error
		dst, e, err = sr.refine(dst, l-1, sr.seq[l-2])
		exp += e
		if err != nil {
			return dst, exp, err
		}
	}
	return dst, exp, nil
}

// AppendAbstract appends the cells of the abstract path of the latest query,
// start and goal included, at the level it searched, and returns the
// extended slice and that level; after a query that searched no abstract
// graph (answered within a window of clusters, unreachable, or an error) it
// appends nothing and reports level 0.
func (sr *Searcher) AppendAbstract(dst []image.Point) ([]image.Point, int) {
	if sr.lastLevel == 0 {
		return dst, 0
	}
	for _, n := range sr.apath {
		dst = append(dst, sr.endCell(n))
	}
	return dst, sr.lastLevel
}

// endCell returns the cell of a node of the current query's view.
func (sr *Searcher) endCell(n int32) image.Point {
	switch nn := int32(len(sr.h.nodes)); {
	case n < nn:
		return sr.h.nodes[n].cell()
	case n == nn:
		return sr.adist.from
	}
	return sr.adist.to
}

// pathCost returns the cost of a legal path, summed as grid.Grid.PathCost
// sums it.
func (h *Graph) pathCost(path []image.Point) float64 {
	if h.costs {
		var sum float64
		for i := 1; i < len(path); i++ {
			sum += h.g.StepCost(path[i-1], path[i])
		}
		return sum
	}
	var straight, diag int
	for i := 1; i < len(path); i++ {
		if path[i].X != path[i-1].X && path[i].Y != path[i-1].Y {
			diag++
		} else {
			straight++
		}
	}
	return float64(straight) + float64(diag)*math.Sqrt2
}
