// Package hpa is hierarchical path-finding A* (HPA*, Botea, Müller &
// Schaeffer 2004) over a [grid.Grid]: an abstract graph built once per map
// answers long queries by searching a few thousand nodes instead of millions
// of cells, at the price of paths a few per cent longer than optimal.
//
// The map is cut into square clusters of [Options.ClusterSize] cells (the last
// column and row of clusters may be narrower). Along each border between two
// horizontally or vertically adjacent clusters, every maximal run of cell
// pairs free on both sides is an entrance; an entrance gets one transition,
// a pair of facing cells, at its middle, or two at its ends when it is longer
// than [Options.MaxEntrance]. Each transition cell is an abstract node; the
// two cells of a transition are joined by an inter-cluster edge of one
// straight step, and the nodes of one cluster by intra-cluster edges whose
// cost is that of the shortest path between them that stays inside the
// cluster.
//
// A [Searcher] joins its start and goal to the nodes of their clusters at
// every level up to the one that separates them (without touching the
// shared [Graph]: a search of the end's level-1 cluster, then the tables of
// distances that the graph keeps per cluster, found when a query first
// needs them), searches that level's graph with core A* (guided on the top
// level by landmarks: the triangle inequality on distances from a few
// nodes), and refines each abstract edge back into cells; the graph keeps
// the paths that refinement searched between two nodes. Starts and goals in the same or neighbouring
// clusters are first searched directly on the grid, inside their clusters'
// bounding box grown by one cluster on every side: exact unless the shortest
// path leaves that window. A query can also be answered a piece at a time
// ([Searcher.Begin], [Searcher.BeginSliced]).
//
// A map that changes is edited in place with [grid.Grid.SetCells]; then
// [Graph.Update] rebuilds, in place, only the clusters the edit reaches and
// those above them (and measures the top level's landmarks again).
// Units of several sizes and filters are served from one grid by
// [Classes]: a derived grid and a graph per class, updated together; or
// from one graph whose nodes and edges the classes share, [Annotated]
// (annotated HPA*, with levels and landmarks per class), whose
// [AnnotatedSearcher] answers a piece at a time too.
//
// Coordinates and costs are the grid's: cell (x, y), row 0 at the top, a
// straight step costs 1 and a diagonal one √2, times the terrain multipliers.
// The abstract heuristic is the octile distance between cells (Manhattan on
// 4-connected grids), raised on the top level by the landmarks' bound; it
// is admissible and consistent for any terrain.
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

// ErrStale is the error of a query on a graph whose grid has been edited
// since the graph was made; [Graph.Update] makes the graph of the edited
// grid.
var ErrStale = errors.New("hpa: the grid has changed since the graph was made (Graph.Update makes the graph of the edited grid)")

// Default option values.
const (
	DefaultClusterSize = 32
	DefaultMaxEntrance = 6
	// MaxClusterSize is the largest cluster side Build accepts.
	MaxClusterSize = 1024
	// MaxLevelFactor is the largest Options.LevelFactor.
	MaxLevelFactor = 8
	// MaxAutoTopSide is the widest top-level cluster, in cells, that the
	// level factor 0 chooses where it can, and MaxAutoTopClusters the most
	// top-level clusters it accepts for that (see Options.LevelFactor).
	MaxAutoTopSide     = 256
	MaxAutoTopClusters = 256
)

// Options tunes how a [Graph] is built. The zero value gives clusters of
// [DefaultClusterSize] cells, entrances split above [DefaultMaxEntrance],
// and levels and a level factor chosen from the map's size.
type Options struct {
	// ClusterSize is the side of a square cluster, in cells; 0 means
	// DefaultClusterSize.
	ClusterSize int
	// MaxEntrance is the longest entrance that gets a single transition at
	// its middle; longer ones get two, at their ends. 0 means
	// DefaultMaxEntrance. An entrance is at most a cluster's side long, so
	// a MaxEntrance above ClusterSize acts as ClusterSize, and a graph's
	// Options report it so.
	MaxEntrance int
	// Levels is the number of levels of the hierarchy: 1 is the graph of
	// transitions alone; each level above groups LevelFactor×LevelFactor
	// clusters of the one below. 0 chooses it from the map: levels are
	// added while the top level has more than 64 clusters (8×8), up to
	// MaxLevels, which measured fastest on the Moving AI street maps at
	// 1024² (2 levels) and scaled to 4096² (3 levels with the level factor
	// 4, and 4 levels with 2, which a level factor of 0 chooses there).
	Levels int
	// LevelFactor is how many clusters of one level, along each axis,
	// make a cluster of the level above: 2 to MaxLevelFactor, or 0 to
	// choose from the map: 4, unless the top level's clusters would then
	// be wider than MaxAutoTopSide cells and 2 gives a top level of at most
	// MaxAutoTopClusters clusters, and 2 then. It trades queries
	// against updates. A long query crosses fewer clusters of the top
	// level when they are large, but an in-place Update searches again
	// the whole top-level cluster that holds an edit, whose cost grows
	// with the cluster's side. On a 4096² map, 4 gives three levels and a
	// top level of 512 cells; 2 gives four and one of 256 cells, whose
	// updates cost about a third (below a thousandth of a build) and whose
	// long queries 1.1 to 1.5 times as much: 0 chooses 2. At 1024² both
	// give top-level clusters of 128 cells, but 2 with one level more,
	// whose queries on the Moving AI maps took 1.1 to 1.6 times as long,
	// for updates under a millisecond either way: 0 chooses 4. Beyond
	// 4096² (at 8192² and 16384²), four levels of 2 would leave a top level
	// of more than 16×16 clusters, which no figure here measured: 0 keeps 4
	// there. The README has the figures; [Graph.LevelFactor] gives the
	// factor chosen.
	LevelFactor int
	// Progress, when not nil, is called once per cluster as the
	// intra-cluster edges are computed, with the clusters done so far and
	// their total. The calls are serialised (never concurrent, though they
	// come from the build's goroutines) and done runs from 1 to total; the
	// build waits for each call, so it should return quickly.
	Progress func(done, total int)
}

// node is an abstract node: a transition cell and the cluster holding it.
type node struct {
	x, y    int32
	cluster int32
}

func (n node) cell() image.Point { return image.Pt(int(n.x), int(n.y)) }

// Graph is the abstract graph of one grid. It is safe for concurrent use;
// queries run on a [Searcher] per goroutine. It changes only in an
// in-place [Graph.Update], which waits for the queries running and holds
// off new ones.
//
// A graph describes its grid as it was when the graph was made (its
// [grid.Grid.Version]). After the grid is edited in place with
// [grid.Grid.SetCells], queries on the graph fail with [ErrStale] until
// [Graph.Update] gives the graph of the edited grid. It holds
// its nodes and edges and reads the grid's own move masks.
//
// A build numbers the nodes cluster by cluster (row by row within each), the
// order of the graph file. Each node's out-edges are a slice of their own
// (at first slices of one array), and each cluster keeps the list of its
// nodes, so that an in-place Update replaces only what it rebuilds: the
// nodes it removes leave their IDs free for reuse, and the nodes it adds
// take free IDs or new ones at the end.
type Graph struct {
	g        *grid.Grid
	version  uint64 // of g when the graph was made
	w, h     int
	cs       int // cluster side
	me       int // max entrance
	lf       int // level factor
	ncx, ncy int // clusters per row and column
	// Per level l (index l), the cluster side and the clusters per row.
	lsides, lncx [MaxLevels + 1]int
	costs        bool
	four         bool

	// mu is held for writing by an in-place Update, for reading by queries.
	mu sync.RWMutex

	nodes  []node                         // per ID; cluster −1 for a free ID
	adj    [][]core.Edge                  // per ID: its level-1 out-edges
	cnodes [][]int32                      // per cluster: its node IDs, by row then column
	cpaths []atomic.Pointer[clusterPaths] // per cluster: the paths between its nodes that queries found
	bts    [][]transition                 // per border (2c: cluster c's east one, 2c+1: its south one): its transitions
	bent   []int32                        // per border: its entrances
	free   []int32                        // free IDs
	nlive  int                            // nodes
	nedges int                            // level-1 directed edges

	// What a build or Read computes first, in compressed sparse row form;
	// adj and cnodes start as views of it, and finish drops it.
	first []int32 // per cluster, plus one: first node ID
	off   []int32 // per node, plus one: first edge
	edges []core.Edge

	entrances int
	levels    []level        // levels 2 and up
	lm        *landmarks     // of the top level (landmarks.go)
	upd       *updateScratch // of in-place updates, under mu
}

// Stats counts the parts of a [Graph].
type Stats struct {
	Clusters  int
	Entrances int
	Nodes     int
	// Edges counts directed edges: each inter-cluster link and each pair of
	// nodes joined inside a cluster counts twice.
	Edges int
}

// Stats returns the sizes of the graph. It is O(1).
func (h *Graph) Stats() Stats {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return Stats{Clusters: h.ncx * h.ncy, Entrances: h.entrances, Nodes: h.nlive, Edges: h.nedges}
}

// Grid returns the grid the graph was built for.
func (h *Graph) Grid() *grid.Grid { return h.g }

// ClusterSize returns the side of the graph's clusters, in cells.
func (h *Graph) ClusterSize() int { return h.cs }

// Options returns the options the graph was built with, defaults filled in
// (and Progress nil).
func (h *Graph) Options() Options {
	return Options{ClusterSize: h.cs, MaxEntrance: h.me, Levels: h.Levels(), LevelFactor: h.lf}
}

// LevelFactor returns how many clusters of one level, along each axis, make
// a cluster of the level above (see Options.LevelFactor).
func (h *Graph) LevelFactor() int { return h.lf }

// clusterOf returns the cluster holding cell p.
func (h *Graph) clusterOf(p image.Point) int32 {
	return int32((p.Y/h.cs)*h.ncx + p.X/h.cs)
}

// clusterRect returns the cells of cluster c.
func (h *Graph) clusterRect(c int32) image.Rectangle {
	cx, cy := int(c)%h.ncx, int(c)/h.ncx
	x0, y0 := cx*h.cs, cy*h.cs
	return image.Rect(x0, y0, min(x0+h.cs, h.w), min(y0+h.cs, h.h))
}

// nodeAt returns the ID of the abstract node at cell p, or -1.
func (h *Graph) nodeAt(p image.Point) int32 {
	ids := h.cnodes[h.clusterOf(p)]
	i, ok := slices.BinarySearchFunc(ids, p, func(id int32, p image.Point) int {
		n := h.nodes[id]
		return cmp.Or(cmp.Compare(int(n.y), p.Y), cmp.Compare(int(n.x), p.X))
	})
	if !ok {
		return -1
	}
	return ids[i]
}

// finish makes the per-node views of the compressed sparse rows that a
// build or Read made, and drops the rows: after an in-place Update they
// would be out of date.
func (h *Graph) finish() {
	h.adj = make([][]core.Edge, len(h.nodes))
	for n := range h.adj {
		h.adj[n] = h.edges[h.off[n]:h.off[n+1]:h.off[n+1]]
	}
	h.nedges = len(h.edges)
	h.first, h.off, h.edges = nil, nil, nil
}

// transition is a pair of facing free cells on a cluster border.
type transition struct{ a, b image.Point }

// Build builds the abstract graph of g. Intra-cluster costs come from
// Dijkstra searches confined to each cluster, run in parallel on
// runtime.GOMAXPROCS goroutines; 4-connected grids and terrain costs are
// supported. Its cost is about one Dijkstra search of a cluster per abstract
// node. It returns an error for a nil grid or bad options.
func Build(g *grid.Grid, opt Options) (*Graph, error) {
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
	g.RLock() // one version of the grid throughout
	defer g.RUnlock()
	h := newGraph(g, cs, me, lf)
	h.build(levels, opt.Progress)
	return h, nil
}

// sizes returns the options' cluster size and max entrance, defaults
// filled in, or an error.
func (opt Options) sizes() (cs, me int, err error) {
	cs, me = opt.ClusterSize, opt.MaxEntrance
	if cs == 0 {
		cs = DefaultClusterSize
	}
	if me == 0 {
		me = DefaultMaxEntrance
	}
	if cs < 1 || cs > MaxClusterSize {
		return 0, 0, fmt.Errorf("hpa: cluster size %d, want 1 to %d", opt.ClusterSize, MaxClusterSize)
	}
	if me < 1 {
		return 0, 0, fmt.Errorf("hpa: max entrance %d, want a positive length", opt.MaxEntrance)
	}
	return cs, min(me, cs), nil // no entrance is longer than a cluster's side
}

// build makes the nodes and edges of a graph that newGraph made: the
// transitions, the inter-cluster edges, the intra-cluster edges of each
// cluster from its searches, and the levels above.
func (h *Graph) build(levels int, progress func(done, total int)) {
	ts := h.findTransitions(h.me)
	h.makeNodes(ts)

	// Out-edges per node: inter-cluster ones from the transitions, then
	// intra-cluster ones from the cluster searches.
	inter := make([]halfEdge, 0, 2*len(ts))
	for _, t := range ts {
		a, b := h.nodeAt(t.a), h.nodeAt(t.b)
		c := h.g.StepCost(t.a, t.b)
		inter = append(inter, halfEdge{from: a, e: core.Edge{To: b, Cost: c}}, halfEdge{from: b, e: core.Edge{To: a, Cost: c}})
	}
	h.off, h.edges = layoutEdges(len(h.nodes), inter, h.intraEdges(progress))
	h.finish()
	h.buildLevels(levels)
}

// chooseLevels returns the level factor and the number of levels of a
// w×h map's graph with clusters of side cs, for the options' levels and
// level factor, each 0 to choose (see Options).
func chooseLevels(w, h, cs, levels, lf int) (int, int) {
	f := lf
	if f == 0 {
		f = 4
	}
	l := levels
	if l == 0 {
		l = autoLevels(w, h, cs, f)
	}
	if lf == 0 && l > 1 && sideAt(cs, f, l) > MaxAutoTopSide {
		l2 := levels
		if l2 == 0 {
			l2 = autoLevels(w, h, cs, 2)
		}
		if side := sideAt(cs, 2, l2); ((w+side-1)/side)*((h+side-1)/side) <= MaxAutoTopClusters {
			f, l = 2, l2
		}
	}
	return f, l
}

// autoLevels returns the number of levels after which the top level has at
// most 64 clusters.
func autoLevels(w, h, cs, lf int) int {
	l, side := 1, cs
	for l < MaxLevels && ((w+side-1)/side)*((h+side-1)/side) > 64 {
		l++
		side *= lf
	}
	return l
}

// newGraph returns a graph of g with clusters of side cs, entrances split
// above me and level factor lf, and everything that follows from the grid
// filled in: sizes, cluster counts and move masks. Nodes and edges are left
// to the caller, [Build] or [Read].
func newGraph(g *grid.Grid, cs, me, lf int) *Graph {
	h := &Graph{
		g: g, version: g.Version(), w: g.Width(), h: g.Height(), cs: cs, me: me, lf: lf,
		costs: g.HasCosts(), four: g.Connectivity() == grid.Four,
	}
	h.ncx = (h.w + cs - 1) / cs
	h.ncy = (h.h + cs - 1) / cs
	for l := 1; l <= MaxLevels; l++ {
		side := h.levelSide(l)
		h.lsides[l], h.lncx[l] = side, (h.w+side-1)/side
	}
	return h
}

// Move-mask bits of the steps across an east and a south border.
var eastBit, southBit = uint8(1) << grid.StepDir(image.Pt(1, 0)), uint8(1) << grid.StepDir(image.Pt(0, 1))

// findTransitions scans every border between two adjacent clusters for
// entrances and returns their transitions, counting the entrances; it
// keeps each border's transitions and entrance count in h.bts and h.bent.
func (h *Graph) findTransitions(maxEntrance int) []transition {
	var ts []transition
	nc := h.ncx * h.ncy
	h.bts = make([][]transition, 2*nc)
	h.bent = make([]int32, 2*nc)
	starts := make([]int, 2*nc+1)
	for c := range int32(nc) {
		for k := range int32(2) {
			b := 2*c + k
			starts[b] = len(ts)
			var n int32
			ts, n = h.borderTransitions(ts, b, maxEntrance)
			h.bent[b] = n
			h.entrances += int(n)
		}
	}
	starts[2*nc] = len(ts)
	for b := range 2 * nc {
		h.bts[b] = ts[starts[b]:starts[b+1]:starts[b+1]]
	}
	return ts
}

// borderTransitions appends the transitions of border b (2c: the east
// border of cluster c, 2c+1: its south border; none at the map's edge) to
// ts, and returns them with the border's entrance count.
func (h *Graph) borderTransitions(ts []transition, b int32, maxEntrance int) ([]transition, int32) {
	n, across, pair := h.borderPairs(b)
	var entrances int32
	run := 0
	for i := 0; i <= n; i++ {
		if i < n {
			if a, _ := pair(i); h.g.Moves(a)&across != 0 {
				run++
				continue
			}
		}
		if run == 0 {
			continue
		}
		entrances++
		s, e := i-run, i-1
		if run <= maxEntrance {
			a, b := pair((s + e) / 2)
			ts = append(ts, transition{a, b})
		} else {
			a, b := pair(s)
			ts = append(ts, transition{a, b})
			a, b = pair(e)
			ts = append(ts, transition{a, b})
		}
		run = 0
	}
	return ts, entrances
}

// borderPairs returns the n cell pairs of border b (see
// borderTransitions), 0 at the map's edge: pair(i) gives the i-th, and
// the move from its first cell to its second is bit across of the first's
// move mask.
func (h *Graph) borderPairs(b int32) (n int, across uint8, pair func(i int) (image.Point, image.Point)) {
	c, south := b/2, b%2 == 1
	cx, cy := int(c)%h.ncx, int(c)/h.ncx
	if (!south && cx+1 >= h.ncx) || (south && cy+1 >= h.ncy) {
		return 0, 0, nil
	}
	r := h.clusterRect(c)
	if !south {
		return r.Dy(), eastBit, func(i int) (image.Point, image.Point) {
			return image.Pt(r.Max.X-1, r.Min.Y+i), image.Pt(r.Max.X, r.Min.Y+i)
		}
	}
	return r.Dx(), southBit, func(i int) (image.Point, image.Point) {
		return image.Pt(r.Min.X+i, r.Max.Y-1), image.Pt(r.Min.X+i, r.Max.Y)
	}
}

// makeNodes makes one abstract node per distinct transition cell, numbered
// by cluster, then row, then column.
func (h *Graph) makeNodes(ts []transition) {
	// Bucket the transition cells by cluster, then sort each cluster's few
	// by row and column and drop the repeats.
	nc := h.ncx * h.ncy
	count := make([]int32, nc+1)
	for _, t := range ts {
		count[h.clusterOf(t.a)+1]++
		count[h.clusterOf(t.b)+1]++
	}
	for c := range nc {
		count[c+1] += count[c]
	}
	ns := make([]node, count[nc])
	fill := slices.Clone(count[:nc])
	for _, t := range ts {
		for _, p := range [2]image.Point{t.a, t.b} {
			c := h.clusterOf(p)
			ns[fill[c]] = node{x: int32(p.X), y: int32(p.Y), cluster: c}
			fill[c]++
		}
	}
	h.first = make([]int32, nc+1)
	out := ns[:0]
	for c := range nc {
		b := ns[count[c]:count[c+1]]
		slices.SortFunc(b, func(a, b node) int { return cmp.Or(cmp.Compare(a.y, b.y), cmp.Compare(a.x, b.x)) })
		for i, n := range b {
			if i == 0 || n != b[i-1] {
				out = append(out, n) // out never passes b: it holds fewer
			}
		}
		h.first[c+1] = int32(len(out))
	}
	h.nodes = slices.Clip(out)
	ids := make([]int32, len(h.nodes))
	for i := range ids {
		ids[i] = int32(i)
	}
	h.cnodes = make([][]int32, nc)
	for c := range nc {
		h.cnodes[c] = ids[h.first[c]:h.first[c+1]:h.first[c+1]]
	}
	h.cpaths = make([]atomic.Pointer[clusterPaths], nc)
	h.nlive = len(h.nodes)
}

// intraEdge joins two nodes of one cluster, from < to; it stands for both
// directions, since step costs are symmetric. mask is an annotated graph's
// classes that may take it (annotated.go), 0 in a Graph.
type intraEdge struct {
	from, to int32
	cost     float64
	mask     uint64
}

// intraEdges runs, for each cluster, one Dijkstra search per abstract node to
// the cluster's later nodes, on runtime.GOMAXPROCS goroutines, and returns
// the edges found per cluster; reuse, when not nil, may supply a cluster's
// edges instead. It calls progress, when not nil, after each
// cluster, one call at a time.
func (h *Graph) intraEdges(progress func(done, total int)) [][]intraEdge {
	nc := h.ncx * h.ncy
	out := make([][]intraEdge, nc)
	var mu sync.Mutex // serialises progress calls
	done := 0
	type scratch struct {
		cl  *clusterSearch
		buf []intraEdge
	}
	parallel.ForEach(nc, func() *scratch { return &scratch{cl: newClusterSearch(h)} }, func(s *scratch, c int32) {
		if s.buf = s.cl.connect(s.buf[:0], c); len(s.buf) > 0 {
			out[c] = slices.Clone(s.buf)
		}
		if progress != nil {
			mu.Lock()
			done++
			progress(done, nc)
			mu.Unlock()
		}
	})
	return out
}
