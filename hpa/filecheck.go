package hpa

// The checks Read makes of a graph file's content against the grid: the
// nodes against the transitions a build finds, and each node's edges
// against the shape a build gives them.

import (
	"cmp"
	"fmt"
	"image"
	"math"
	"math/bits"
	"slices"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/parallel"
	"github.com/cairn-nav/cairn/internal/unionfind"
)

// checkNodes checks that a file's nodes are free cells of the grid in
// strictly increasing (cluster, row, column) order, then that they are h's,
// the transition cells of the grid.
func (h *Graph) checkNodes(file []node) error {
	for i, n := range file {
		p := n.cell()
		if !h.g.In(p) || n.x < 0 || n.y < 0 {
			return &FormatError{nodeOffset(i), fmt.Sprintf("node %d at (%d,%d) is outside the %d×%d map", i, uint32(n.x), uint32(n.y), h.w, h.h)}
		}
		if !h.g.Passable(p) {
			return &FormatError{nodeOffset(i), fmt.Sprintf("node %d at (%d,%d) is a blocked cell", i, n.x, n.y)}
		}
		if i > 0 {
			prev := file[i-1]
			pc, c := h.clusterOf(prev.cell()), h.clusterOf(p)
			if pc > c || pc == c && (prev.y > n.y || prev.y == n.y && prev.x >= n.x) {
				return &FormatError{nodeOffset(i), fmt.Sprintf("node %d at (%d,%d) is out of order after (%d,%d)", i, n.x, n.y, prev.x, prev.y)}
			}
		}
	}
	for i, n := range file {
		if i >= len(h.nodes) {
			return &FormatError{nodeOffset(i), fmt.Sprintf("node %d at (%d,%d) is past the last of the map's %d transition cells", i, n.x, n.y, len(h.nodes))}
		}
		if want := h.nodes[i]; n.x != want.x || n.y != want.y {
			return &FormatError{nodeOffset(i), fmt.Sprintf("node %d is at (%d,%d), want the transition cell (%d,%d)", i, n.x, n.y, want.x, want.y)}
		}
	}
	if len(file) != len(h.nodes) {
		return &FormatError{40, fmt.Sprintf("%d nodes, want the %d transition cells of the map", len(file), len(h.nodes))}
	}
	return nil
}

// shape is what a build makes of each node's edges, recomputed from the
// grid for Read to hold a file's edges to.
type shape struct {
	// inter has bit d set when a transition pairs the node with the cell
	// at grid.Step(d).
	inter []uint8
	// src is the first node of the node's group: the nodes of its cluster
	// that paths inside the cluster join it to.
	src []int32
	// For a node that is its own src, size counts the nodes of its group,
	// cells the cells that paths inside the cluster join to them, and mult
	// is the dearest terrain multiplier of those cells (1 without terrain).
	size  []int32
	cells []int32
	mult  []float64
}

// shape returns the shape of h's nodes, whose transitions are ts. It costs
// one pass over the cells of the clusters that hold two nodes or more, on
// runtime.GOMAXPROCS goroutines, a cluster at a time.
func (h *Graph) shape(ts []transition) *shape {
	n := len(h.nodes)
	s := &shape{inter: make([]uint8, n), src: make([]int32, n), size: make([]int32, n), cells: make([]int32, n), mult: make([]float64, n)}
	for _, t := range ts {
		a, b := h.nodeAt(t.a), h.nodeAt(t.b)
		s.inter[a] |= 1 << grid.StepDir(t.b.Sub(t.a))
		s.inter[b] |= 1 << grid.StepDir(t.a.Sub(t.b))
	}
	parallel.ForEach(h.ncx*h.ncy, func() *runs { return &runs{} }, func(rs *runs, c int32) { rs.groups(h, s, c) })
	return s
}

// runs are the runs of free cells of one cluster's rows, joined into the
// sets that paths inside the cluster join. Straight steps between free
// cells join what any move does: a diagonal step is legal only when both
// cells beside it are free (grid.Grid.Moves), and they lie in the cluster
// with its ends. So two runs are joined when they touch in neighbouring
// rows, and the sets are those of a union-find forest over the runs.
type runs struct {
	x0, x1 []int32          // per run: its cells in its row, x0 to x1−1
	row    []int32          // per row of the cluster, and one more: its first run
	parent unionfind.Forest // per run
	cells  []int32          // per root: the cells of its set
	mult   []float64        // per root: the dearest terrain multiplier of its set
	src    []int32          // per root: the first node in its set, or −1
}

// groups fills in the shape's groups of the nodes of cluster c.
func (rs *runs) groups(h *Graph, s *shape, c int32) {
	first, end := h.first[c], h.first[c+1]
	if end-first < 2 { // nothing to join
		for i := first; i < end; i++ {
			s.src[i], s.size[i] = i, 1
		}
		return
	}
	r := h.clusterRect(c)
	rs.x0, rs.x1, rs.row, rs.parent = rs.x0[:0], rs.x1[:0], rs.row[:0], rs.parent[:0]
	rs.cells, rs.mult, rs.src = rs.cells[:0], rs.mult[:0], rs.src[:0]
	for y := r.Min.Y; y < r.Max.Y; y++ {
		start := int32(len(rs.x0)) // this row's first run
		k := start                 // the runs of the row above are k to start−1
		if n := len(rs.row); n > 0 {
			k = rs.row[n-1]
		}
		rs.row = append(rs.row, start)
		for x := r.Min.X; x < r.Max.X; x++ {
			if !h.g.Passable(image.Pt(x, y)) {
				continue
			}
			id, x0, mult := int32(len(rs.x0)), x, 1.0
			for ; x < r.Max.X && h.g.Passable(image.Pt(x, y)); x++ {
				if h.costs {
					if m := h.g.Cost(image.Pt(x, y)); m > mult { // not max, which pays for NaN
						mult = m
					}
				}
			}
			rs.x0, rs.x1, rs.parent = append(rs.x0, int32(x0)), append(rs.x1, int32(x)), append(rs.parent, id)
			rs.cells, rs.mult, rs.src = append(rs.cells, int32(x-x0)), append(rs.mult, mult), append(rs.src, -1)
			// Join the runs above that share a column with this one; the
			// last of them may share one with the next run too.
			for k < start && rs.x1[k] <= int32(x0) {
				k++
			}
			for j := k; j < start && rs.x0[j] < int32(x); j++ {
				rs.parent.Union(j, id)
			}
		}
	}
	rs.row = append(rs.row, int32(len(rs.x0)))
	for i := range rs.parent {
		if root := rs.parent.Find(int32(i)); root != int32(i) {
			rs.cells[root] += rs.cells[i]
			if rs.mult[i] > rs.mult[root] {
				rs.mult[root] = rs.mult[i]
			}
		}
	}
	for i := first; i < end; i++ {
		p := h.nodes[i].cell()
		if !h.g.Passable(p) { // an annotated graph's node that h's class cannot use
			s.src[i] = -1
			continue
		}
		lo, hi := rs.row[p.Y-r.Min.Y], rs.row[p.Y-r.Min.Y+1]
		k, _ := slices.BinarySearch(rs.x1[lo:hi], int32(p.X)+1) // the run holding p, a free cell
		root := rs.parent.Find(lo + int32(k))
		if src := rs.src[root]; src >= 0 {
			s.src[i] = src
			s.size[src]++
			continue
		}
		rs.src[root] = i
		s.src[i], s.size[i], s.cells[i], s.mult[i] = i, 1, rs.cells[root], rs.mult[root]
	}
}

// degree returns the number of edges a build gives node n: one per
// transition and one to each other node its cluster's paths join it to.
func (s *shape) degree(n int) int32 {
	return int32(bits.OnesCount8(s.inter[n])) + s.size[s.src[n]] - 1
}

// setOffsets checks the out-degrees against the shape and the edge count,
// and fills off.
func (h *Graph) setOffsets(deg []int32, s *shape) error {
	n := len(h.nodes)
	h.off = make([]int32, n+1)
	for i, dg := range deg {
		if want := s.degree(i); dg != want {
			inter := bits.OnesCount8(s.inter[i])
			return &FormatError{degreeOffset(n, i), fmt.Sprintf("node %d has %d edges, want %d: %d to other clusters and %d inside its own",
				i, uint32(dg), want, inter, want-int32(inter))}
		}
		if int64(h.off[i])+int64(dg) > int64(len(h.edges)) {
			return &FormatError{degreeOffset(n, i), fmt.Sprintf("the degrees of nodes 0 to %d add up to more than the %d edges", i, len(h.edges))}
		}
		h.off[i+1] = h.off[i] + dg
	}
	if int(h.off[n]) != len(h.edges) {
		return &FormatError{degreeOffset(n, 0), fmt.Sprintf("the degrees add up to %d, want the %d edges", h.off[n], len(h.edges))}
	}
	return nil
}

// costSlack is the relative slack of the bounds on intra-cluster costs,
// which the sums of steps of a build's searches meet only up to rounding.
const costSlack = 1e-9

// checkEdges checks each node's edges against the shape, in the order a
// build writes them: first one edge per transition of the node, to the
// cell across the border at the cost of that step; then one edge to each
// other node of its cluster that paths inside the cluster join it to, in
// increasing order, at a cost between the bounds the shape gives, and equal
// to the cost of the edge back. With the degrees as the shape wants them
// and no edge repeated, no edge of either kind is missing.
func (h *Graph) checkEdges(s *shape) error {
	nn := int32(len(h.nodes))
	for a := range nn {
		na := h.nodes[a]
		pa := na.cell()
		var seen uint8
		prev := int32(-1) // the latest target inside the cluster
		for i := h.off[a]; i < h.off[a+1]; i++ {
			e := h.edges[i]
			at := edgeOffset(int(nn), int(i))
			if e.To < 0 || e.To >= nn || e.To == a {
				return &FormatError{at, fmt.Sprintf("edge %d from node %d goes to node %d, want another of the %d nodes", i, a, uint32(e.To), nn)}
			}
			b := e.To
			pb := h.nodes[b].cell()
			if na.cluster != h.nodes[b].cluster {
				if !h.g.CanStep(pa, pb) {
					return &FormatError{at, fmt.Sprintf("edge %d joins (%d,%d) and (%d,%d) in different clusters, which is not a legal step", i, pa.X, pa.Y, pb.X, pb.Y)}
				}
				bit := uint8(1) << grid.StepDir(pb.Sub(pa)) // never a transition's for a diagonal step
				switch {
				case s.inter[a]&bit == 0:
					return &FormatError{at, fmt.Sprintf("edge %d joins (%d,%d) and (%d,%d), which are not the two cells of a transition", i, pa.X, pa.Y, pb.X, pb.Y)}
				case seen&bit != 0:
					return &FormatError{at, fmt.Sprintf("edge %d from (%d,%d) to (%d,%d) repeats an earlier edge", i, pa.X, pa.Y, pb.X, pb.Y)}
				case prev >= 0:
					return &FormatError{at, fmt.Sprintf("edge %d from (%d,%d) to (%d,%d) leaves the cluster after edges inside it, want it before them", i, pa.X, pa.Y, pb.X, pb.Y)}
				}
				seen |= bit
				if want := h.g.StepCost(pa, pb); e.Cost != want {
					return &FormatError{at, fmt.Sprintf("edge %d from (%d,%d) to (%d,%d) costs %v, want the step cost %v", i, pa.X, pa.Y, pb.X, pb.Y, e.Cost, want)}
				}
				continue
			}
			if s.src[b] != s.src[a] {
				return &FormatError{at, fmt.Sprintf("edge %d joins (%d,%d) and (%d,%d), which no path inside their cluster joins", i, pa.X, pa.Y, pb.X, pb.Y)}
			}
			if b <= prev {
				return &FormatError{at, fmt.Sprintf("edge %d from node %d goes to node %d after node %d, want each node of the cluster once, in increasing order", i, a, b, prev)}
			}
			prev = b
			// A path inside the cluster costs at least the octile (or
			// Manhattan) distance, since terrain multipliers are at least
			// 1; and at most what a path of straight steps that visits
			// each cell joined to its ends once at most costs, a step
			// costing the mean multiplier of its two cells.
			src := s.src[a]
			lo := h.distance(pa, pb) * (1 - costSlack)
			hi := float64(s.cells[src]-1) * s.mult[src] * (1 + costSlack)
			if !(e.Cost >= lo && e.Cost <= hi) {
				return &FormatError{at, fmt.Sprintf("edge %d from (%d,%d) to (%d,%d) costs %v, want a cost from %v to %v", i, pa.X, pa.Y, pb.X, pb.Y, e.Cost, lo, hi)}
			}
			if b < a {
				// b's edges inside the cluster, already checked, hold a.
				es := h.edges[h.off[b]+int32(bits.OnesCount8(s.inter[b])) : h.off[b+1]]
				back := math.NaN()
				if k, ok := slices.BinarySearchFunc(es, a, func(e core.Edge, t int32) int { return cmp.Compare(e.To, t) }); ok {
					back = es[k].Cost
				}
				if e.Cost != back {
					return &FormatError{at, fmt.Sprintf("edge %d from (%d,%d) to (%d,%d) costs %v, but the edge back costs %v", i, pa.X, pa.Y, pb.X, pb.Y, e.Cost, back)}
				}
			}
		}
	}
	return nil
}
