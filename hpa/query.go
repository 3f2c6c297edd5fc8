package hpa

import (
	"fmt"
	"image"
	"math"
	"slices"

	"github.com/cairn-nav/cairn/core"
)

// Query tunes one HPA* query. The zero value searches the abstract graph
// at the highest level that separates start and goal.
type Query struct {
	// MaxLevel caps the level of the abstract search, from 1 to
	// [Graph.Levels]; 0, or a level above the graph's, means no cap. A
	// lower level searches more abstract nodes, and may find a shorter
	// path: with MaxLevel 1 a query finds a path of the cost it would find
	// on a graph of one level.
	MaxLevel int
	// Weight multiplies the estimate of the abstract search, as in
	// weighted A*: the abstract path found is at most Weight times the
	// shortest one through the same joins of start and goal, and the
	// search expands fewer nodes. 0 means 1, the shortest abstract path;
	// it is an error outside [1, MaxWeight] (0 aside). The searches that
	// join the ends and refine the path are exact whatever the weight.
	//
	// Measured on 20 long queries of the 4096² demo world, weight 1.05
	// took about 15 % less time than the exact search and lengthened the
	// cell paths from 1.8 % to 3.0 % above the optimum (smoothed: from 2.5 %
	// to 1.4 % below the 8-connected one, one path 0.8 % above it); on the
	// 20 longest queries of Berlin_0_1024 scaled ×4, whose corner-to-corner
	// searches the landmarks guide closely, it gained nothing measurable
	// and lengthened the cell paths from 0.9 % to 1.5 %.
	Weight float64
}

// MaxWeight is the largest Query.Weight.
const MaxWeight = 100

// weight returns the weight of q's abstract search, or an error.
func (q Query) weight() (float64, error) {
	switch w := q.Weight; {
	case w == 0:
		return 1, nil
	case w >= 1 && w <= MaxWeight:
		return w, nil
	default:
		return 0, fmt.Errorf("hpa: query weight %v, want 0 (meaning 1) or 1 to %d", w, MaxWeight)
	}
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
	// searches. An edge between two nodes, at any level, is searched the
	// first time a query refines it; the graph keeps its path for later
	// queries, whose refinement of it expands nothing.
	Expanded int
}

// Searcher answers path queries on one [Graph] and owns the scratch memory
// of its searches: about 32 bytes per abstract node and 16 per cell of a
// window of 4×4 clusters and of two more clusters, whatever the size of the
// map (at 4096², with clusters of 32 cells, about 2 MB), and as much again once it
// runs a sliced query (whose searches have scratch of their own). It stays
// valid across in-place updates of its graph. It is not safe for
// concurrent use; give each goroutine its own. After its buffers have grown,
// a query allocates nothing but what it appends to the caller's slice (and
// nothing when that slice has room), and the paths it searches that the
// graph keeps.
type Searcher struct {
	h     *Graph
	cs    *clusterSearch
	view  view
	abs   *core.Searcher
	adist absDist
	// The abstract path of the latest query, its ends joined level by
	// level to the top (lift.go), and the level of each step: the level
	// of the cluster it stays in, or of the border it crosses.
	apath  []int32
	alevel []int8
	raw    []int32 // the abstract search's path, before the joins
	// The start and the goal joined to each level (lift.go): the searches
	// of their level-1 clusters, whose trees also give the first and last
	// steps of the path, and the scratch of the cluster tables they read;
	// and per level l (index l−1) the node sequence of the latest
	// refinement at that level.
	ends      [2]endLift
	ins       [2]*clusterSearch
	ap        clusterAPSP
	seq       [MaxLevels][]int32
	lastLevel int // level of the latest abstract search, 0 when none

	stream        // an incremental query (Begin, Next)
	sl     sliced // a sliced query (BeginSliced, Step)
}

// NewSearcher returns a searcher for h. It panics when h is nil.
func NewSearcher(h *Graph) *Searcher {
	if h == nil {
		panic("hpa: NewSearcher of a nil graph")
	}
	h.mu.RLock()
	defer h.mu.RUnlock()
	sr := &Searcher{h: h, cs: newClusterSearch(h)}
	sr.ins = [2]*clusterSearch{newSpanSearch(h, 1), newSpanSearch(h, 1)}
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
	// For a class of an annotated graph (annotated.go): node n's edges
	// at the level are followed where bit is in masks[n], one mask per
	// edge; masks is nil for a Graph.
	masks [][]uint64
	bit   uint64
	// Edges into the goal: from node n when goalStamp[n] == stamp.
	goalCost  []float64
	goalStamp []uint32
	stamp     uint32
}

func (v *view) NumNodes() int { return len(v.h.nodes) + 2 }

// setGoal marks the nodes with an edge into the goal; nil marks none.
func (v *view) setGoal(edges []core.Edge) {
	if n := len(v.h.nodes); len(v.goalStamp) < n { // the graph grew in an update
		v.goalCost = append(v.goalCost, make([]float64, n-len(v.goalCost))...)
		v.goalStamp = append(v.goalStamp, make([]uint32, n-len(v.goalStamp))...)
	}
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
	switch {
	case v.masks != nil:
		ms := v.masks[n]
		for i, e := range h.edgesAt(v.level, n) {
			if ms[i]&v.bit != 0 && v.inside(e.To) {
				dst = append(dst, e)
			}
		}
	case v.confine == 0:
		dst = append(dst, h.edgesAt(v.level, n)...)
	default:
		for _, e := range h.edgesAt(v.level, n) {
			if v.inside(e.To) {
				dst = append(dst, e)
			}
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
	alt      altBound    // the landmark bound of a query's abstract search
}

func (d *absDist) Estimate(n int32) float64 {
	var p image.Point
	switch nn := int32(len(d.h.nodes)); {
	case n < nn:
		p = d.h.nodes[n].cell()
		return d.alt.estimate(d.h.distance(p, d.target), n)
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
// abstract nodes of their level-1 clusters by one Dijkstra search each, and
// from those to the nodes of their clusters at each level up to the one
// that separates them, through each cluster's table of distances to the
// level below (found the first time a query needs it, then kept by the
// graph); the abstract graph of that level is searched with A*, guided by
// landmarks on the top level, and each abstract edge is refined into cells
// level by level (the first time by an A* search inside its cluster: the
// graph keeps the path of an edge between two nodes for later queries); the
// path is then usually a few per cent longer than optimal. The cost is
// that of the searches, which touch a few clusters and the abstract nodes
// near the path; it allocates only while its buffers grow, when dst lacks
// room, and when it keeps a path or a table it searched.
//
// q.MaxLevel, when set, caps the level of the abstract search.
//
// The query holds off [grid.Grid.SetCells] while it runs; on a grid edited
// since the graph was made it fails with [ErrStale].
func (sr *Searcher) AppendPath(dst []image.Point, from, to image.Point, q Query) ([]image.Point, Result, error) {
	h := sr.h
	sr.rlock()
	defer sr.runlock()
	if err := sr.restart(); err != nil {
		return dst, Result{}, err
	}
	n0 := len(dst)
	dst, res, err := sr.begin(dst, from, to, q)
	if err != nil || res.Status != core.Found {
		return dst, res, err
	}
	dst, e, err := sr.refine(dst, 0)
	res.Expanded += e
	if err != nil {
		return dst[:n0], Result{}, err
	}
	res.Cost = h.pathCost(dst[n0:])
	return dst, res, nil
}

// rlock takes the read locks a query holds while it runs: the graph's,
// then its grid's (the order an in-place Update takes them in), so that it
// sees one version of both.
func (sr *Searcher) rlock() {
	sr.h.mu.RLock()
	sr.h.g.RLock()
}

// runlock releases what rlock took.
func (sr *Searcher) runlock() {
	sr.h.g.RUnlock()
	sr.h.mu.RUnlock()
}

// fresh returns ErrStale, wrapped, when the grid has changed since the graph
// was made. The caller holds the grid's read lock.
func (sr *Searcher) fresh() error {
	if v := sr.h.g.Version(); v != sr.h.version {
		return fmt.Errorf("%w: grid version %d, the graph's %d", ErrStale, v, sr.h.version)
	}
	return nil
}

// begin answers a query up to its refinement. When the window of clusters
// around the ends holds a path, it appends the whole path to dst and leaves
// nothing to refine; otherwise it inserts the ends, searches the abstract
// graph and appends from alone, leaving the abstract path's refinement in
// sr.frames. The result's cost is that of the abstract path, and nothing is
// appended for an unreachable goal.
func (sr *Searcher) begin(dst []image.Point, from, to image.Point, q Query) ([]image.Point, Result, error) {
	h := sr.h
	if res, err := sr.check(from, to, q); err != nil || res.Status == core.Unreachable {
		return dst, res, err
	}
	exp := 0
	if w, near := h.window(from, to); near {
		// Search the two clusters' bounding box grown by one cluster: exact
		// unless the shortest path leaves it, which the abstract search
		// below then covers.
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
	top := h.topLevel(from, to, q)
	exp += sr.insertEnds(from, to, top)
	nn := int32(len(h.nodes))
	w, _ := q.weight() // checked by check
	r := sr.abs.Search(nn, nn+1, &sr.adist, core.Query{Weight: w})
	exp += r.Expanded
	if r.Status != core.Found {
		// Cannot happen on a connected pair: every path leaving a cluster
		// crosses an entrance, whose transition is reachable along it.
		return dst, Result{Status: core.Unreachable, Expanded: exp}, nil
	}
	sr.raw = sr.abs.AppendPath(sr.raw[:0], r.End)
	dst = sr.abstractFound(dst, from, sr.raw, top)
	return dst, Result{Status: core.Found, Cost: r.Cost, Expanded: exp}, nil
}

// check checks a query: an error for an end off the grid or on a blocked
// cell, or for a weight out of range, status core.Unreachable for ends in
// different regions.
func (sr *Searcher) check(from, to image.Point, q Query) (Result, error) {
	h := sr.h
	sr.lastLevel = 0
	if _, err := q.weight(); err != nil {
		return Result{}, err
	}
	if err := h.checkEnd(from, "start"); err != nil {
		return Result{}, err
	}
	if err := h.checkEnd(to, "goal"); err != nil {
		return Result{}, err
	}
	if !h.g.Connected(from, to) {
		return Result{Status: core.Unreachable}, nil
	}
	return Result{Status: core.InProgress}, nil
}

// window returns the window of the direct search of ends in the same or
// neighbouring clusters: their bounding box grown by one cluster; false
// when the ends are further apart.
func (h *Graph) window(from, to image.Point) (image.Rectangle, bool) {
	cf, ct := h.clusterOf(from), h.clusterOf(to)
	if !h.near(cf, ct) {
		return image.Rectangle{}, false
	}
	return h.clusterRect(cf).Union(h.clusterRect(ct)).Inset(-h.cs).Intersect(image.Rect(0, 0, h.w, h.h)), true
}

// topLevel returns the highest level of h, up to q.MaxLevel, at which
// cells from and to lie in different clusters: the level of a query's
// abstract search.
func (h *Graph) topLevel(from, to image.Point, q Query) int {
	for l := h.Levels(); l > 1; l-- {
		if q.MaxLevel > 0 && l > q.MaxLevel {
			continue
		}
		if h.clusterAt(l, from) != h.clusterAt(l, to) {
			return l
		}
	}
	return 1
}

// insertEnds joins start and goal to the nodes of their clusters at each
// level up to top (at level 1 by a search of the cluster's cells, above it
// through the clusters' tables; see lift.go) and sets the view up for the
// abstract search of level top; it returns the nodes expanded.
func (sr *Searcher) insertEnds(from, to image.Point, top int) int {
	h := sr.h
	sr.adist.from, sr.adist.to = from, to
	exp := 0
	for i, p := range [2]image.Point{from, to} {
		e := &sr.ends[i]
		var n int
		e.edges[1], n = joinCluster(h, e.edges[1][:0], p, sr.ins[i])
		exp += n
		for l := 2; l <= top; l++ {
			exp += e.lift(h, &sr.ap, l, h.clusterAt(l, p))
		}
	}
	v := &sr.view
	v.level, v.confine = top, 0
	v.start = sr.ends[0].edges[top]
	v.setGoal(sr.ends[1].edges[top])
	sr.adist.target = to
	sr.adist.alt.set(h, top, sr.ends[1].edges[top], sr.ends[0].edges[top])
	return exp
}

// abstractFound sets up the refinement of path, the abstract path found
// at level top from the start (node N) to the goal (node N+1), and
// appends from, its first cell, to dst: sr.apath is path with each end's
// joins spelled out (the nodes of the levels below by which it reaches its
// top-level node), and sr.alevel the level of each step.
func (sr *Searcher) abstractFound(dst []image.Point, from image.Point, path []int32, top int) []image.Point {
	sr.lastLevel = top
	r := len(path) - 1 // the goal
	sr.apath = append(sr.apath[:0], path[0])
	sr.alevel = sr.alevel[:0]
	sr.apath, sr.alevel = sr.ends[0].appendChain(sr.h, sr.apath, sr.alevel, top, path[1])
	for _, n := range path[2:r] {
		sr.apath = append(sr.apath, n)
		sr.alevel = append(sr.alevel, int8(top))
	}
	// The goal's chain runs from the goal up to path[r−1]: reversed, it
	// runs down to the goal, and its first node is path[r−1], in place.
	i, j := len(sr.apath), len(sr.alevel)
	sr.apath, sr.alevel = sr.ends[1].appendChain(sr.h, sr.apath, sr.alevel, top, path[r-1])
	slices.Reverse(sr.apath[i:])
	slices.Reverse(sr.alevel[j:])
	sr.apath = append(append(sr.apath[:i], sr.apath[i+1:]...), path[r])
	sr.frames = append(sr.frames[:0], refineFrame{level: 0, path: sr.apath, k: 1})
	return append(dst, from)
}

// joinCluster joins cell p to the nodes of its level-1 cluster by a
// Dijkstra search of the cluster's cells with cs, appending to edges one
// edge per node p reaches, from p (or, by symmetry, to p); it returns the
// edges and the cells expanded.
func joinCluster(h *Graph, edges []core.Edge, p image.Point, cs *clusterSearch) ([]core.Edge, int) {
	c := h.clusterOf(p)
	exp := cs.searchFrom(c, p)
	for i, id := range h.cnodes[c] {
		if d, ok := cs.nodeDist(i); ok {
			edges = append(edges, core.Edge{To: id, Cost: d})
		}
	}
	return edges, exp
}

// AppendAbstract appends the cells of the abstract path of the latest query,
// start and goal included, and returns the extended slice and the level it
// searched: its nodes are of that level, but for those by which the start
// and the goal reach it, which are of the levels below (inside an end's
// level-l cluster, nodes of level l−1); after a query that searched no
// abstract graph (answered within a window of clusters, unreachable, or an
// error) it appends nothing and reports level 0.
func (sr *Searcher) AppendAbstract(dst []image.Point) ([]image.Point, int) {
	sr.h.mu.RLock()
	defer sr.h.mu.RUnlock()
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
