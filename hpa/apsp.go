package hpa

import (
	"math"

	"github.com/cairn-nav/cairn/internal/radix"
)

// clusterAPSP finds the shortest distances between the nodes of one cluster
// of a level above the first, in the graph of the level below confined to
// the cluster: a Dijkstra search from each node, on a compact copy of the
// confined graph made once per cluster (local indices, edges in arrays),
// with a radix heap (package radix). The confined graph of a level-3 cluster at
// 4096² has some 400 nodes and a few thousand edges; against the general
// search of package core, whose scratch spans all the graph's nodes and
// which filters each node's edges at every visit, this does the same work
// in a fraction of the time, and the searches of one cluster are what an
// in-place update of a higher level costs.
//
// The distances are those of any correct Dijkstra search: the value at a
// node is the least, over the paths to it, of the path's cost summed edge
// by edge from the start in floating point, whatever the order of the heap
// (a later relaxation cannot lower a settled value, as costs are positive
// and rounding is monotone). So a graph updated in place and one built
// afresh get the same bits.
type clusterAPSP struct {
	local []int32 // per node ID: its local index + 1 in the current cluster, 0 outside
	ids   []int32 // per local index: the node ID
	off   []int32 // per local index: where its edges start in to and cost; one more at the end
	to    []int32
	cost  []float64
	// Per local index, of the current search (cur): the best distance
	// found, and the search in which it was found (seen), was settled
	// (done) and was made a target (target).
	dist               []float64
	seen, done, target []uint32
	cur                uint32
	heap               radix.Heap
	// d is the k×k matrix of the distances between the cluster's k nodes
	// (+Inf where none, and on the diagonal), in the order of their list.
	d []float64
	// For a class of an annotated graph: the masks of the edges of the
	// level below, per node (nil for a Graph), of which compact keeps the
	// edges with bit, and the nodes with such an edge.
	mask [][]uint64
	bit  uint64
}

// run makes the compact copy of the graph of level below, confined to
// level-l cluster c, whose nodes at level l are ms (two or more), and
// fills d from a search from each node to the later ones.
func (a *clusterAPSP) run(h *Graph, below, l int, c int32, ms []int32) {
	a.compact(h, below, l, c)
	k := len(ms)
	if cap(a.d) < k*k {
		a.d = make([]float64, k*k)
	}
	a.d = a.d[:k*k]
	inf := math.Inf(1)
	for i := range a.d {
		a.d[i] = inf
	}
	for i, m := range ms[:k-1] {
		a.search(a.local[m]-1, ms[i+1:])
		for j := i + 1; j < k; j++ {
			if t := a.local[ms[j]] - 1; a.done[t] == a.cur {
				a.d[i*k+j], a.d[j*k+i] = a.dist[t], a.dist[t]
			}
		}
	}
	a.release()
}

// compact makes the compact copy of the graph of level below confined to
// level-l cluster c: its nodes in a.ids (by level-1 cluster, row-major,
// each cluster's in its order), local[id] set for each, and their edges
// inside the cluster. release forgets local again.
func (a *clusterAPSP) compact(h *Graph, below, l int, c int32) {
	if len(a.local) < len(h.nodes) {
		a.local = make([]int32, len(h.nodes))
	}
	a.ids = a.ids[:0]
	r := h.levelClusterRect(l, c)
	for cy := r.Min.Y / h.cs; cy*h.cs < r.Max.Y; cy++ {
		for cx := r.Min.X / h.cs; cx*h.cs < r.Max.X; cx++ {
			for _, n := range h.cnodes[cy*h.ncx+cx] {
				if a.serves(h, below, n) {
					a.ids = append(a.ids, n)
					a.local[n] = int32(len(a.ids))
				}
			}
		}
	}
	a.off, a.to, a.cost = a.off[:0], a.to[:0], a.cost[:0]
	for _, n := range a.ids {
		a.off = append(a.off, int32(len(a.to)))
		var ms []uint64
		if a.mask != nil {
			ms = a.mask[n]
		}
		for i, e := range h.edgesAt(below, n) {
			if ms != nil && ms[i]&a.bit == 0 {
				continue // not the class's
			}
			if j := a.local[e.To]; j > 0 { // in the cluster
				a.to = append(a.to, j-1)
				a.cost = append(a.cost, e.Cost)
			}
		}
	}
	a.off = append(a.off, int32(len(a.to)))
	v := len(a.ids)
	if cap(a.dist) < v {
		a.dist = make([]float64, v)
		a.seen, a.done, a.target = make([]uint32, v), make([]uint32, v), make([]uint32, v)
		a.cur = 0
	}
	a.dist = a.dist[:v]
	a.seen, a.done, a.target = a.seen[:v], a.done[:v], a.target[:v]
}

// serves reports whether node n has an edge at level below: for a class
// (a.mask set), one with a.bit.
func (a *clusterAPSP) serves(h *Graph, below int, n int32) bool {
	es := h.edgesAt(below, n)
	if a.mask == nil {
		return len(es) > 0
	}
	for _, m := range a.mask[n] {
		if m&a.bit != 0 {
			return true
		}
	}
	return false
}

func (a *clusterAPSP) release() {
	for _, n := range a.ids {
		a.local[n] = 0
	}
}

// search runs Dijkstra from local node s until the targets (node IDs of
// the cluster) are all settled, or the cluster is exhausted: done[n] ==
// cur then marks the settled nodes, with their distances in dist. It
// returns the nodes it settled.
func (a *clusterAPSP) search(s int32, targets []int32) int {
	a.cur++
	if a.cur == 0 { // wrapped: forget every earlier search
		clear(a.seen)
		clear(a.done)
		clear(a.target)
		a.cur = 1
	}
	cur := a.cur
	left := 0
	for _, t := range targets {
		if j := a.local[t] - 1; j != s && a.target[j] != cur {
			a.target[j] = cur
			left++
		}
	}
	a.dist[s], a.seen[s] = 0, cur
	hp := &a.heap
	hp.Reset()
	hp.Push(0, s)
	settled := 0
	// The source is settled even when it is the only target: the tables
	// of a cluster with one node read its distance to itself.
	for hp.Len() > 0 && (left > 0 || settled == 0) {
		top := hp.Pop()
		u := top.Node
		du := math.Float64frombits(top.Key)
		if a.done[u] == cur || du > a.dist[u] {
			continue // settled already, or a stale entry
		}
		a.done[u] = cur
		settled++
		if a.target[u] == cur {
			left--
		}
		for e := a.off[u]; e < a.off[u+1]; e++ {
			w := a.to[e]
			nd := du + a.cost[e]
			if a.seen[w] == cur && nd >= a.dist[w] {
				continue // no better (a settled node is never bettered)
			}
			a.dist[w], a.seen[w] = nd, cur
			hp.Push(math.Float64bits(nd), w)
		}
	}
	return settled
}

// prune appends to dst, in the order of the pairs (i < j), the edges
// between the cluster's nodes ms whose distance d gives, less those a–c for
// which some node b of the cluster gives a path a–b–c no longer than it (to
// one part in 10¹²). Shortest distances are unchanged, since each dropped
// edge is replaced by edges that are kept or replaced in turn (with
// positive costs the replacements cannot go round in a circle), but the
// dense graphs of the higher levels lose most of their edges. O(k³) for k
// nodes, in a loop over two rows of d.
func (a *clusterAPSP) prune(dst []intraEdge, ms []int32) []intraEdge {
	k := len(ms)
	d := a.d
	for i := range k {
		ri := d[i*k : (i+1)*k]
		for j := i + 1; j < k; j++ {
			dij := ri[j]
			if math.IsInf(dij, 1) {
				continue
			}
			limit := dij * (1 + 1e-12)
			rj := d[j*k : (j+1)*k]
			dominated := false
			for b, dib := range ri { // +Inf at b = i and b = j
				if dib+rj[b] <= limit {
					dominated = true
					break
				}
			}
			if !dominated {
				dst = append(dst, intraEdge{from: ms[i], to: ms[j], cost: dij})
			}
		}
	}
	return dst
}
