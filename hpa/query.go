package hpa

import (
	"fmt"
	"image"
	"math"

	"github.com/cairn-nav/cairn/core"
)

// Result describes an HPA* query.
type Result struct {
	// Status is core.Found or core.Unreachable.
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

// Query answers path queries on one [Graph] and owns the scratch memory of
// its searches: about 16 bytes per abstract node and per cell of a window of
// 4×4 clusters, whatever the size of the map. It
// is not safe for concurrent use; give each goroutine its own. After its
// buffers have grown, a query allocates nothing but what it appends to the
// caller's slice (and nothing when that slice has room).
type Query struct {
	h     *Graph
	cs    *clusterSearch
	view  view
	abs   *core.Searcher
	adist absDist
	apath []int32
}

// NewQuery returns a query object for h.
func NewQuery(h *Graph) *Query {
	q := &Query{h: h, cs: newClusterSearch(h)}
	q.view.h = h
	q.abs = core.NewSearcher(&q.view)
	q.adist.h = h
	return q
}

// view presents the abstract graph with the query's start and goal inserted:
// nodes 0 to N-1 are the graph's, node N is the start and node N+1 the goal.
// The extra edges live here, so the shared graph is never written.
type view struct {
	h         *Graph
	start     []core.Edge // out-edges of the start
	goalFirst int32       // first node of the goal's cluster
	toGoal    []float64   // per node of the goal's cluster: cost to the goal, or -1
}

func (v *view) NumNodes() int { return len(v.h.nodes) + 2 }

func (v *view) AppendEdges(dst []core.Edge, n int32) []core.Edge {
	h := v.h
	nn := int32(len(h.nodes))
	if n >= nn {
		if n == nn {
			return append(dst, v.start...)
		}
		return dst // the goal: the search ends there
	}
	dst = append(dst, h.edges[h.off[n]:h.off[n+1]]...)
	if i := n - v.goalFirst; uint32(i) < uint32(len(v.toGoal)) && v.toGoal[i] >= 0 {
		dst = append(dst, core.Edge{To: nn + 1, Cost: v.toGoal[i]})
	}
	return dst
}

// absDist is the distance from an abstract node's cell to the goal.
type absDist struct {
	h        *Graph
	from, to image.Point
}

func (d *absDist) Estimate(n int32) float64 {
	nn := int32(len(d.h.nodes))
	switch {
	case n < nn:
		return d.h.distance(d.h.nodes[n].cell(), d.to)
	case n == nn:
		return d.h.distance(d.from, d.to)
	}
	return 0
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
func (q *Query) AppendPath(dst []image.Point, from, to image.Point) ([]image.Point, Result, error) {
	h := q.h
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
		dst, e, ok = q.cs.appendPathIn(dst, w, from, to)
		exp += e
		if ok {
			return dst, Result{Status: core.Found, Cost: h.pathCost(dst[n0:]), Expanded: exp}, nil
		}
		dst = dst[:n0]
	}

	nn := int32(len(h.nodes))
	exp += q.cs.searchFrom(cf, from)
	q.view.start = q.view.start[:0]
	for i := range h.first[cf+1] - h.first[cf] {
		if d, ok := q.cs.nodeDist(int(i)); ok {
			q.view.start = append(q.view.start, core.Edge{To: h.first[cf] + i, Cost: d})
		}
	}
	exp += q.cs.searchFrom(ct, to)
	q.view.goalFirst = h.first[ct]
	q.view.toGoal = q.view.toGoal[:0]
	for i := range h.first[ct+1] - h.first[ct] {
		d, ok := q.cs.nodeDist(int(i))
		if !ok {
			d = -1
		}
		q.view.toGoal = append(q.view.toGoal, d)
	}
	q.adist.from, q.adist.to = from, to
	r := q.abs.Search(nn, nn+1, &q.adist, core.Options{})
	exp += r.Expanded
	if r.Status != core.Found {
		// Cannot happen on a connected pair: every path leaving a cluster
		// crosses an entrance, whose transition is reachable along it.
		return dst, Result{Status: core.Unreachable, Expanded: exp}, nil
	}
	q.apath = q.abs.AppendPath(q.apath[:0], r.End)

	n0 := len(dst)
	dst = append(dst, from)
	for k := 1; k < len(q.apath); k++ {
		a, b := q.apath[k-1], q.apath[k]
		var c int32
		switch {
		case a == nn:
			c = cf
		case b == nn+1:
			c = ct
		case h.nodes[a].cluster != h.nodes[b].cluster:
			dst = append(dst, h.nodes[b].cell()) // an inter-cluster step
			continue
		default:
			c = h.nodes[a].cluster
		}
		pa, pb := q.endCell(a), q.endCell(b)
		var e int
		var ok bool
		dst, e, ok = q.cs.appendPath(dst, c, pa, pb)
		exp += e
		if !ok {
			return dst[:n0], Result{}, fmt.Errorf("hpa: internal error: no path from (%d,%d) to (%d,%d) inside cluster %d", pa.X, pa.Y, pb.X, pb.Y, c)
		}
	}
	return dst, Result{Status: core.Found, Cost: h.pathCost(dst[n0:]), Expanded: exp}, nil
}

// endCell returns the cell of a node of the current query's view.
func (q *Query) endCell(n int32) image.Point {
	switch nn := int32(len(q.h.nodes)); {
	case n < nn:
		return q.h.nodes[n].cell()
	case n == nn:
		return q.adist.from
	}
	return q.adist.to
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
