package hpa

import (
	"image"
	"math"
	"slices"

	"github.com/cairn-nav/cairn/core"
)

// A query joins each end to the graph level by level. The search of the
// end's level-1 cluster gives its distances to the cluster's nodes (insert);
// from those, the distance to each node S of its level-l cluster, inside
// that cluster, is the least over the nodes m of its level-(l−1) cluster of
// d(end, m) + d(m, S), where d(m, S) is the distance in the level below
// confined to the level-l cluster: a path from the end that stays in the
// level-l cluster leaves its level-(l−1) cluster first at such an m (or
// never, and S is one of them). A cluster's table of those distances, from
// each of its nodes to each node of the level below in it, is found by a
// search from each of its nodes the first time a query needs it, and kept
// by the graph until an update rebuilds the cluster. With them the
// abstract search follows the top level's edges alone: a long query on a
// 4096² map expands some hundreds of top-level nodes, where a search that
// stepped down to the levels below around each end expanded as many again
// there.

// endTable is one table of a cluster of a level l above the first: k rows,
// the cluster's level-l nodes in the order of its member list, and a
// column per node of level l−1 in the cluster (cols, ascending node IDs);
// d[j·k + i] is the distance from row i to column j in the level below,
// confined to the cluster, +Inf where none. Once stored it is never
// changed.
type endTable struct {
	k    int
	cols []int32
	d    []float64
}

// column returns the distances from the rows to node n, nil when n is not
// a column.
func (t *endTable) column(n int32) []float64 {
	j, ok := slices.BinarySearch(t.cols, n)
	if !ok {
		return nil
	}
	return t.d[j*t.k : (j+1)*t.k]
}

// newTable returns the table of level-l cluster c, whose nodes are ms,
// with no row filled yet.
func (a *clusterAPSP) newTable(h *Graph, l int, c int32, ms []int32) *endTable {
	a.compact(h, l-1, l, c)
	defer a.release()
	t := &endTable{k: len(ms), cols: slices.Clone(a.ids), d: make([]float64, len(a.ids)*len(ms))}
	slices.Sort(t.cols)
	return t
}

// fillRows fills the rows of t, the table of level-l cluster c whose nodes
// are ms, from row i on, by a search from each row's node to every column,
// until the rows are done or the searches have settled budget nodes (at
// least one row; budget ≤ 0 for no bound). It returns the next row to fill
// (len(ms) when done) and the nodes settled.
func (a *clusterAPSP) fillRows(h *Graph, t *endTable, l int, c int32, ms []int32, i, budget int) (int, int) {
	a.compact(h, l-1, l, c)
	defer a.release()
	k := t.k
	inf := math.Inf(1)
	settled := 0
	for ; i < len(ms) && (budget <= 0 || settled < budget); i++ {
		settled += a.search(a.local[ms[i]]-1, a.ids)
		for u, n := range a.ids {
			j, _ := slices.BinarySearch(t.cols, n)
			t.d[j*k+i] = inf
			if a.done[u] == a.cur {
				t.d[j*k+i] = a.dist[u]
			}
		}
	}
	return i, settled
}

// endTable returns the table of level-l cluster c, finding it with a when
// no query has yet, and the nodes that cost. The caller holds h.mu for
// reading.
func (h *Graph) endTable(a *clusterAPSP, l int, c int32) (*endTable, int) {
	lv := &h.levels[l-2]
	if t := lv.tables[c].Load(); t != nil {
		return t, 0
	}
	ms := lv.cm[c]
	t := a.newTable(h, l, c, ms)
	_, n := a.fillRows(h, t, l, c, ms, 0, 0)
	return h.keepTable(l, c, t), n
}

// keepTable stores t, the full table of level-l cluster c, unless a query
// racing on it stored one first, and returns the one stored.
func (h *Graph) keepTable(l int, c int32, t *endTable) *endTable {
	lv := &h.levels[l-2]
	if !lv.tables[c].CompareAndSwap(nil, t) {
		t = lv.tables[c].Load()
	}
	return t
}

// endLift is one end of a query joined to each level from 1 to the top:
// at level l, an edge to each node of the end's level-l cluster that the
// end reaches inside that cluster, with its cost, and the node of level
// l−1 its path leaves the cluster of level l−1 by (at level 1, −1: the
// end itself). Edges run from the end; by symmetry they serve the goal's
// side too.
type endLift struct {
	edges [MaxLevels + 1][]core.Edge
	via   [MaxLevels + 1][]int32
	// The end's cluster at each level above the first, and its table.
	cl   [MaxLevels + 1]int32
	tab  [MaxLevels + 1]*endTable
	best []float64 // scratch of lift
}

// lift sets level l of e, for an end in level-l cluster c, from level l−1,
// and returns the nodes the table cost.
func (e *endLift) lift(h *Graph, a *clusterAPSP, l int, c int32) int {
	t, n := h.endTable(a, l, c)
	e.cl[l], e.tab[l] = c, t
	ms := h.levels[l-2].cm[c]
	inf := math.Inf(1)
	e.best = e.best[:0]
	via := e.via[l][:0]
	for range ms {
		e.best = append(e.best, inf)
		via = append(via, -1)
	}
	for _, lo := range e.edges[l-1] {
		col := t.column(lo.To)
		for i, x := range col {
			if d := lo.Cost + x; d < e.best[i] {
				e.best[i], via[i] = d, lo.To
			}
		}
	}
	edges := e.edges[l][:0]
	k := 0
	for i, m := range ms {
		if e.best[i] < inf {
			edges = append(edges, core.Edge{To: m, Cost: e.best[i]})
			via[k] = via[i]
			k++
		}
	}
	e.edges[l], e.via[l] = edges, via[:k]
	return n
}

// appendChain appends to dst the nodes by which the end reaches node n of
// level top, after the end itself: the level-1 node by which its path
// leaves its level-1 cluster, then, for each level l up to top, the nodes
// of level l−1 by which it goes on inside its level-l cluster to the node
// of level l by which it leaves that cluster (n at the top). To levels it
// appends the level of each step, the step from the end first.
func (e *endLift) appendChain(h *Graph, dst []int32, levels []int8, top int, n int32) ([]int32, []int8) {
	var chain [MaxLevels + 1]int32
	chain[top] = n
	for l := top; l >= 2; l-- {
		k := slices.IndexFunc(e.edges[l], func(x core.Edge) bool { return x.To == chain[l] })
		chain[l-1] = e.via[l][k]
	}
	dst, levels = append(dst, chain[1]), append(levels, 1)
	for l := 2; l <= top; l++ {
		if chain[l] == chain[l-1] {
			continue
		}
		row := slices.Index(h.levels[l-2].cm[e.cl[l]], chain[l])
		n0, l0 := len(dst), len(levels)
		var ok bool
		if dst, levels, ok = e.tab[l].appendWalk(h, dst, levels, l, row, chain[l-1]); !ok {
			// One step of level l, which refinement searches.
			dst, levels = append(dst[:n0], chain[l]), append(levels[:l0], int8(l))
		}
	}
	return dst, levels
}

// appendWalk appends to dst the nodes of level l−1 after m on a shortest
// path from m to the node of row i, inside the table's level-l cluster, up
// to that node, and l−1 to levels for each step. Each next node is a
// neighbour x of the current one at level l−1 whose distance from the row's
// node plus the edge's cost is the current node's distance: the search
// that made the table relaxed that very sum, so one always matches, and
// distances fall along the walk, which thus ends. Among several, the least
// cell (row, then column) is taken, so that the walk depends on the graph
// alone and not on its node IDs. It returns false, having appended
// something, if no neighbour matches, which only costs that differ between
// an edge's two directions could cause.
func (t *endTable) appendWalk(h *Graph, dst []int32, levels []int8, l, i int, m int32) ([]int32, []int8, bool) {
	for {
		d := t.column(m)[i]
		if d == 0 {
			return dst, levels, true
		}
		next := int32(-1)
		for _, e := range h.edgesAt(l-1, m) {
			col := t.column(e.To)
			if col == nil || col[i]+e.Cost != d {
				continue
			}
			if next < 0 || cellBefore(h.nodes[e.To].cell(), h.nodes[next].cell()) {
				next = e.To
			}
		}
		if next < 0 {
			return dst, levels, false
		}
		m = next
		dst, levels = append(dst, m), append(levels, int8(l-1))
	}
}

// cellBefore reports whether cell a comes before b, row by row.
func cellBefore(a, b image.Point) bool { return a.Y < b.Y || (a.Y == b.Y && a.X < b.X) }
