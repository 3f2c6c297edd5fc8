package hpa

import (
	"fmt"
	"image"
	"slices"
	"sync/atomic"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/internal/parallel"
)

// Higher levels (Botea et al.'s multi-level hierarchy). Level 1 is the graph
// of transitions described in the package doc. A cluster of level ℓ > 1 is a
// square of f×f clusters of level ℓ−1 for the level factor f
// (Options.LevelFactor), so its side is ClusterSize·f^(ℓ−1) cells and its
// borders are level-1 borders. The
// nodes of level ℓ are the level-1 nodes with an inter-cluster edge across a
// level-ℓ border; their edges are those inter-cluster edges and, between two
// nodes of one level-ℓ cluster, an edge whose cost is that of the shortest
// path between them in the level ℓ−1 graph confined to the cluster. Every
// level uses the level-1 node IDs; a node absent from a level has no edges
// there.

// MaxLevels is the most levels a graph may have.
const MaxLevels = 4

// level holds the edges of one level above the first, per level-1 node ID
// (none for a node absent from the level), and the nodes of each of its
// clusters.
type level struct {
	side     int // cluster side in cells
	ncx      int // clusters per row
	adj      [][]core.Edge
	cm       [][]int32 // per cluster: its nodes, in the order of a build's IDs
	nmembers int
	nedges   int
	// Per cluster: the paths of the level below between its nodes that
	// queries refined, as the level's clusterPaths do for cells.
	paths []atomic.Pointer[levelPaths]
	// Per cluster: its table of distances to the level below, for the
	// joins of queries' ends (lift.go), once a query has needed it.
	tables []atomic.Pointer[endTable]
}

// levelPaths keeps the paths inside one cluster of a level above the first
// that refinement has found between its nodes: the nodes of the level
// below from the i-th node of the cluster (of k, in the order of its node
// list) to the j-th at i·k + j.
type levelPaths struct {
	k     int
	paths []atomic.Pointer[[]int32]
}

// levelSlot returns where the path of the level below from node a to node
// b, both nodes of level l's cluster c, is kept, making the cluster's
// slots at its first use; nil when a or b is not a node of the cluster.
// The caller holds h.mu for reading; an in-place Update drops the paths of
// the clusters it rebuilds.
func (h *Graph) levelSlot(l int, c, a, b int32) *atomic.Pointer[[]int32] {
	lv := &h.levels[l-2]
	return slotIn(&lv.paths[c], lv.cm[c], a, b)
}

// slotIn returns where the path from node a to node b of a cluster whose
// nodes are ms is kept in the cluster's paths p, making them at their
// first use; nil when a or b is not in ms.
func slotIn(p *atomic.Pointer[levelPaths], ms []int32, a, b int32) *atomic.Pointer[[]int32] {
	i, j := slices.Index(ms, a), slices.Index(ms, b)
	if i < 0 || j < 0 {
		return nil
	}
	lp := p.Load()
	if lp == nil {
		lp = &levelPaths{k: len(ms), paths: make([]atomic.Pointer[[]int32], len(ms)*len(ms))}
		if !p.CompareAndSwap(nil, lp) {
			lp = p.Load()
		}
	}
	return &lp.paths[i*lp.k+j]
}

// levelSide returns the cluster side of level l (1-based), in cells.
func (h *Graph) levelSide(l int) int { return sideAt(h.cs, h.lf, l) }

// sideAt returns the cluster side of level l (1-based) for clusters of cs
// cells and level factor lf.
func sideAt(cs, lf, l int) int {
	s := cs
	for range l - 1 {
		s *= lf
	}
	return s
}

// Levels returns the number of levels of the graph, at least 1.
func (h *Graph) Levels() int { return 1 + len(h.levels) }

// edgesAt returns the out-edges of node n at level l (1-based).
func (h *Graph) edgesAt(l int, n int32) []core.Edge {
	if l == 1 {
		return h.adj[n]
	}
	return h.levels[l-2].adj[n]
}

// clusterAt returns the level-l cluster of cell p, as (cx, cy) packed into
// one int: cy·(clusters per row) + cx.
func (h *Graph) clusterAt(l int, p image.Point) int32 {
	side, ncx := h.lsides[l], h.lncx[l]
	return int32((p.Y/side)*ncx + p.X/side)
}

// levelClusterRect returns the cells of level-l cluster c.
func (h *Graph) levelClusterRect(l int, c int32) image.Rectangle {
	side := h.levelSide(l)
	ncx := (h.w + side - 1) / side
	x0, y0 := int(c)%ncx*side, int(c)/ncx*side
	return image.Rect(x0, y0, min(x0+side, h.w), min(y0+side, h.h))
}

// buildLevels adds levels 2 to levels to a graph whose level 1 is complete,
// each from the one below, running the cluster searches on
// runtime.GOMAXPROCS goroutines, and measures the top level's landmarks.
func (h *Graph) buildLevels(levels int) {
	h.levels = nil
	for l := 2; l <= levels; l++ {
		h.levels = append(h.levels, h.buildLevel(l))
	}
	h.measureLandmarks(&landmarkScratch{})
}

func (h *Graph) buildLevel(l int) level {
	side := h.levelSide(l)
	ncx, ncy := (h.w+side-1)/side, (h.h+side-1)/side
	lv := level{side: side, ncx: ncx}
	nn := len(h.nodes)

	// The nodes of level l, grouped by level-l cluster, and their
	// inter-cluster edges across level-l borders.
	members := make([][]int32, ncx*ncy)
	inter := make([][]core.Edge, nn)
	for n := range h.nodes {
		c := h.clusterAt(l, h.nodes[n].cell())
		for _, e := range h.edgesAt(l-1, int32(n)) {
			if h.clusterAt(l, h.nodes[e.To].cell()) != c {
				inter[n] = append(inter[n], e)
			}
		}
		if len(inter[n]) > 0 {
			members[c] = append(members[c], int32(n))
		}
	}

	// Intra-cluster edges from searches of the level below, confined to
	// each level-l cluster.
	intra := make([][]intraEdge, len(members))
	newScratch := func() *levelScratch { return h.newLevelScratch(l) }
	parallel.ForEach(len(members), newScratch, func(sc *levelScratch, c int32) {
		if len(members[c]) >= 2 {
			sc.buf = sc.levelIntra(sc.buf[:0], c, members[c])
			intra[c] = slices.Clone(sc.buf)
		}
	})

	var half []halfEdge
	for n, es := range inter {
		for _, e := range es {
			half = append(half, halfEdge{from: int32(n), e: e})
		}
	}
	off, edges := layoutEdges(nn, half, intra)
	lv.set(off, edges, members)
	return lv
}

// set gives lv its edges, per node n edges[off[n]:off[n+1]], and the
// members of its clusters, with room for their kept paths and tables.
func (lv *level) set(off []int32, edges []core.Edge, members [][]int32) {
	nn := len(off) - 1
	lv.adj = make([][]core.Edge, nn)
	for n := range nn {
		lv.adj[n] = edges[off[n]:off[n+1]:off[n+1]]
	}
	lv.cm = members
	lv.paths = make([]atomic.Pointer[levelPaths], len(members))
	lv.tables = make([]atomic.Pointer[endTable], len(members))
	lv.nedges = len(edges)
	for _, ms := range members {
		lv.nmembers += len(ms)
	}
}

// levelScratch runs the searches of one level's clusters.
type levelScratch struct {
	h     *Graph
	level int
	ap    clusterAPSP
	buf   []intraEdge
}

func (h *Graph) newLevelScratch(l int) *levelScratch {
	return &levelScratch{h: h, level: l}
}

// levelIntra appends to dst the intra-cluster edges of the level's cluster
// c, whose nodes are ms: the shortest distances between them in the level
// below, confined to the cluster (clusterAPSP), less the edges that a path
// through a third node matches (clusterAPSP.prune).
func (sc *levelScratch) levelIntra(dst []intraEdge, c int32, ms []int32) []intraEdge {
	sc.ap.run(sc.h, sc.level-1, sc.level, c, ms)
	return sc.ap.prune(dst, ms)
}

// LevelStats counts the clusters, nodes and directed edges of level l, from
// 1 to [Graph.Levels]; level 1 gives the same counts as [Graph.Stats]. It
// is O(nodes) for levels above the first.
func (h *Graph) LevelStats(l int) (clusters, nodes, edges int) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	if l < 1 || l > h.Levels() {
		return 0, 0, 0
	}
	if l == 1 {
		return h.ncx * h.ncy, h.nlive, h.nedges
	}
	lv := &h.levels[l-2]
	return len(lv.cm), lv.nmembers, lv.nedges
}

// NodeCell returns the cell of abstract node n, for pictures and tools; n
// runs from 0 to NodeIDs()−1, and an unused ID gives (−1, −1). It panics
// when n is out of range.
func (h *Graph) NodeCell(n NodeID) image.Point {
	h.mu.RLock()
	defer h.mu.RUnlock()
	h.checkNode(n)
	return h.nodes[n].cell()
}

// NodeLevel returns the highest level at which node n is a node (1 to
// [Graph.Levels]), or 0 for an unused ID; n runs from 0 to NodeIDs()−1. It
// panics when n is out of range (with one level, −1 once got the answer 1).
func (h *Graph) NodeLevel(n NodeID) int {
	h.mu.RLock()
	defer h.mu.RUnlock()
	h.checkNode(n)
	l := 1
	if h.nodes[n].cluster < 0 {
		return 0
	}
	for l < h.Levels() && len(h.levels[l-1].adj[n]) > 0 {
		l++
	}
	return l
}

// checkNode panics with a message when n is not a node of h.
func (h *Graph) checkNode(n NodeID) {
	if uint32(n) >= uint32(len(h.nodes)) {
		panic(fmt.Sprintf("hpa: node %d out of range [0, %d)", n, len(h.nodes)))
	}
}
