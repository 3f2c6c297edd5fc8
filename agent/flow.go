package agent

import (
	"fmt"
	"image"
	"math"
	"math/bits"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/radix"
)

// FlowField holds the exact cost from every cell of a grid to one goal and
// the best move out of each cell, so that any number of agents heading for
// the same goal share one search: [FlowField.Compute] runs a reverse
// Dijkstra search from the goal over the whole grid, then [FlowField.Next]
// and [FlowField.Dist] answer for any cell in O(1).
//
// Moves and costs are the grid's: its connectivity, no corner cutting on
// 8-connected grids, and terrain multipliers, the cost of the move from a
// to b being [grid.Grid.StepCost](a, b). Distances are exact: each is the
// sum of the step costs along a shortest path, as float64 adds them, so a
// cell's distance is that of its [FlowField.Next] plus the step's cost, to
// the last bit.
//
// Concurrency: a FlowField is written by Compute and then read. Compute
// must not overlap any other method of the same field; once it has
// returned, every other method may be called from any number of goroutines
// at once, without locks. The readers use only the field's own arrays, so
// they stay valid, and describe the grid as it was, while the grid is
// edited; [FlowField.Stale] tells when it has changed since.
type FlowField struct {
	g     *grid.Grid
	graph flowGraph
	heap  radix.Heap

	dist []float64 // per cell, row-major: cost to the goal, +Inf when it cannot reach it
	dir  []int8    // per cell reached, but the goal: the direction of Next, as grid.Step

	goal     image.Point
	goalID   int32
	version  uint64
	computed bool
	reached  int
	maxDist  float64
}

// flowBaseCost is the cost of a move on unit terrain, by direction of
// [grid.Step].
var flowBaseCost = [8]float64{1, 1, 1, 1, math.Sqrt2, math.Sqrt2, math.Sqrt2, math.Sqrt2}

// flowBack is the direction of the move back, by direction of [grid.Step]:
// east and west, south and north, south-east and north-west, north-east and
// south-west.
var flowBack = [8]int8{1, 0, 3, 2, 7, 6, 5, 4}

// NewFlowField returns a flow field for g, computed for no goal yet: every
// cell reports false until [FlowField.Compute] succeeds. It allocates 9
// bytes per cell (8 for the distance, 1 for the move); the first Compute
// grows the open list, 16 bytes an entry, which holds about the cells of
// the search's frontier: some 40 000 entries (0.6 MB, beside the field's
// 9.4 MB) on a 1024×1024 city map. It panics when g is nil.
func NewFlowField(g *grid.Grid) *FlowField {
	if g == nil {
		panic("agent: NewFlowField of a nil grid")
	}
	w, h := g.Width(), g.Height()
	f := &FlowField{
		g:     g,
		graph: flowGraph{g: g, w: int32(w), h: int32(h), costs: g.HasCosts()},
		dist:  make([]float64, w*h),
		dir:   make([]int8, w*h),
		goal:  image.Pt(-1, -1),
	}
	for d := range 8 {
		s := grid.Step(d)
		f.graph.off[d] = int32(s.X + s.Y*w)
	}
	return f
}

// Compute finds the cost from every cell to goal and the best move out of
// each, replacing what the field held. It returns an error, and leaves the
// field as it was, when goal is outside the grid or blocked.
//
// Compute holds the grid's read lock ([grid.Grid.RLock]) while it runs, so
// it sees one version of the grid, and records that version
// ([FlowField.Version]). Its cost is O(cells) to reset the distances plus
// the search over the cells that reach the goal: each is expanded once and
// its legal moves relaxed, and the open list is a radix heap, whose entries
// move between a few of its 65 buckets. Once a first Compute has grown the
// open list, it allocates nothing (a new goal may grow it a little more).
func (f *FlowField) Compute(goal image.Point) error {
	g := f.g
	g.RLock()
	defer g.RUnlock()
	if !g.In(goal) {
		return fmt.Errorf("agent: flow field goal (%d,%d) is outside the %d×%d grid", goal.X, goal.Y, g.Width(), g.Height())
	}
	if !g.Passable(goal) {
		return fmt.Errorf("agent: flow field goal (%d,%d) is a blocked cell", goal.X, goal.Y)
	}
	f.goal = goal
	f.goalID = f.graph.id(goal)
	f.version = g.Version()
	f.computed = true
	f.search()
	return nil
}

// search runs Dijkstra's algorithm from the goal over the moves into each
// cell, on the radix heap. Each cell is expanded once, when it leaves the
// heap with the distance it still has; an entry whose cell has been
// improved since is skipped. A cell's move is set whenever its distance
// improves, toward the cell being expanded, so that it ends toward the
// first cell expanded that gave it its final distance.
//
// The moves into a cell are its moves out, reversed: the grid's rule of
// legal moves is symmetric (both cells free and, for a diagonal, both cells
// beside it). Each costs what the forward move does.
func (f *FlowField) search() {
	inf := math.Inf(1)
	dist, dir := f.dist, f.dir
	for i := range dist {
		dist[i] = inf
	}
	r := &f.graph
	h := &f.heap
	h.Reset()
	f.reached, f.maxDist = 0, 0
	dist[f.goalID] = 0
	h.Push(0, f.goalID)
	for h.Len() > 0 {
		e := h.Pop()
		u := e.Node
		du := dist[u]
		if e.Key != math.Float64bits(du) {
			continue // improved since it was pushed
		}
		f.reached++
		f.maxDist = du // keys leave the heap in order
		p := r.cell(u)
		for m := r.g.Moves(p); m != 0; m &= m - 1 {
			d := bits.TrailingZeros8(m)
			v := u + r.off[d]
			c := flowBaseCost[d]
			if r.costs {
				q := p.Add(grid.Step(d))
				c = r.g.StepCost(q, p) // the forward move, from q into p
			}
			if nd := du + c; nd < dist[v] {
				dist[v] = nd
				dir[v] = flowBack[d]
				h.Push(math.Float64bits(nd), v)
			}
		}
	}
}

// Dist returns the cost of a shortest path from p to the goal, and false
// (with +Inf) when p is blocked, outside the grid, cannot reach the goal,
// or no Compute has succeeded. It is O(1), does not allocate, and is safe
// for concurrent use once Compute has returned.
func (f *FlowField) Dist(p image.Point) (float64, bool) {
	if !f.computed || !f.g.In(p) {
		return math.Inf(1), false
	}
	d := f.dist[f.graph.id(p)]
	return d, !math.IsInf(d, 1)
}

// Next returns the neighbouring cell to step to from p: a legal move of the
// grid (as it was when computed) that starts a shortest path to the goal:
// Dist(p) is Dist(next) plus [grid.Grid.StepCost](p, next), to the last
// bit. Where several moves tie, it is the one toward the neighbour the
// search expanded first, the same for every Compute of the same grid and
// goal. It returns false at the goal and wherever [FlowField.Dist] does. It is
// O(1), does not allocate, and is safe for concurrent use once Compute has
// returned.
func (f *FlowField) Next(p image.Point) (image.Point, bool) {
	if !f.computed || !f.g.In(p) {
		return p, false
	}
	n := f.graph.id(p)
	if math.IsInf(f.dist[n], 1) || n == f.goalID {
		return p, false
	}
	return p.Add(grid.Step(int(f.dir[n]))), true
}

// AppendPath appends the cells of the path that [FlowField.Next] traces
// from from to the goal, both ends included, and returns the extended
// slice; its cost ([grid.Grid.PathCost]) is Dist(from). It appends just the
// goal when from is the goal, and nothing when from cannot reach it. It is
// O(path), allocates only when dst is short of room, and is safe for
// concurrent use once Compute has returned.
func (f *FlowField) AppendPath(dst []image.Point, from image.Point) []image.Point {
	if _, ok := f.Dist(from); !ok {
		return dst
	}
	// Each move brings the goal nearer by at least 1, so no cell comes
	// twice; the bound is only a guard.
	for p, ok, n := from, true, 0; ok && n < f.reached; p, ok = f.Next(p) {
		dst = append(dst, p)
		n++
	}
	return dst
}

// Goal returns the goal of the latest successful Compute, or (-1,-1) before
// the first.
func (f *FlowField) Goal() image.Point { return f.goal }

// Grid returns the grid the field was made for.
func (f *FlowField) Grid() *grid.Grid { return f.g }

// Version returns the grid's [grid.Grid.Version] when the field was
// computed (0 before the first successful Compute).
func (f *FlowField) Version() uint64 { return f.version }

// Stale reports whether the field no longer describes the grid: no Compute
// has succeeded yet, or the grid has been edited since. A stale field still
// answers, for the grid as it was. Stale is safe for concurrent use, also
// with edits of the grid.
func (f *FlowField) Stale() bool { return !f.computed || f.g.Version() != f.version }

// Reached returns the number of cells that reach the goal, the goal
// included; 0 before the first successful Compute.
func (f *FlowField) Reached() int { return f.reached }

// MaxDist returns the largest finite distance of the field: that of the
// cells farthest from the goal.
func (f *FlowField) MaxDist() float64 { return f.maxDist }

// flowGraph numbers the cells of the grid for the search: node n is the
// cell (n mod w, n div w).
type flowGraph struct {
	g     *grid.Grid
	w, h  int32
	costs bool
	off   [8]int32 // node offset per direction of grid.Step
}

func (r *flowGraph) id(p image.Point) int32 { return int32(p.Y)*r.w + int32(p.X) }

func (r *flowGraph) cell(n int32) image.Point { return image.Pt(int(n%r.w), int(n/r.w)) }
