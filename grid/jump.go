package grid

import (
	"math"
	"math/bits"

	"github.com/cairn-nav/cairn/core"
)

// Jump point search (Harabor & Grastien 2011), in the variant for grids
// without corner cutting: A* runs over jump points only, and the straight
// and diagonal runs between them are scanned cell by cell. Its paths are as
// short as plain A*'s; it applies to 8-connected grids of unit terrain.
//
// Pruning by the direction of arrival, with no corner cutting:
//   - arriving diagonally, keep the two straight components and the diagonal;
//   - arriving straight, keep everything but the three moves backward.
// A straight run stops at a cell beside which a free cell has a blocked
// cell behind it (a forced neighbour); a diagonal run stops where one of its
// straight components finds a jump point. Both stop at the goal.

// keep[d] is the set of directions worth exploring after arriving in
// direction d.
var keep = [numDirs]uint8{
	dirE:  1<<dirE | 1<<dirS | 1<<dirN | 1<<dirSE | 1<<dirNE,
	dirW:  1<<dirW | 1<<dirS | 1<<dirN | 1<<dirSW | 1<<dirNW,
	dirS:  1<<dirS | 1<<dirE | 1<<dirW | 1<<dirSE | 1<<dirSW,
	dirN:  1<<dirN | 1<<dirE | 1<<dirW | 1<<dirNE | 1<<dirNW,
	dirSE: 1<<dirE | 1<<dirS | 1<<dirSE,
	dirNE: 1<<dirE | 1<<dirN | 1<<dirNE,
	dirSW: 1<<dirW | 1<<dirS | 1<<dirSW,
	dirNW: 1<<dirW | 1<<dirN | 1<<dirNW,
}

// horizontal and vertical components of the diagonal directions.
var compH = [numDirs]int{dirSE: dirE, dirNE: dirE, dirSW: dirW, dirNW: dirW}
var compV = [numDirs]int{dirSE: dirS, dirNE: dirN, dirSW: dirS, dirNW: dirN}

// queryGraph is the graph a Searcher hands to the core search: the grid's
// cells, or its jump points toward the current goal.
type queryGraph struct {
	g      *Grid
	jumps  jumpTable // g's, once a jump point search has run
	goal   int32
	gx, gy int // the goal in padded coordinates
	jump   bool
	filter filtered // of a query with a Filter; filter.f is nil without
	size   int      // of a query with a Size above 1; 0 else
}

func (q *queryGraph) NumNodes() int { return len(q.g.free) }

func (q *queryGraph) AppendEdges(dst []core.Edge, n int32) []core.Edge {
	if q.filter.f != nil {
		return q.filteredEdges(dst, n)
	}
	if q.size > 0 {
		return q.sizedEdges(dst, n)
	}
	return (*graph)(q.g).AppendEdges(dst, n)
}

func (q *queryGraph) AppendEdgesFrom(dst []core.Edge, n, parent int32) []core.Edge {
	g := q.g
	if !q.jump {
		return q.AppendEdges(dst, n)
	}
	m := g.moves[n]
	if parent >= 0 {
		m &= keep[g.dirBetween(parent, n)]
	}
	y := int(n) / g.pw
	x := int(n) - y*g.pw
	for m != 0 {
		d := bits.TrailingZeros8(m)
		m &= m - 1
		if d >= dirSE {
			dst = q.diagonalSuccessors(dst, x, y, d)
			continue
		}
		if to, k := q.jumpStraight(x, y, d); to >= 0 {
			dst = append(dst, core.Edge{To: to, Cost: float64(k)})
		}
	}
	return dst
}

// dirBetween returns the direction in which a run from a arrives at b. A
// successor is reached by a straight or diagonal run, or by a diagonal run
// followed by a straight one (see diagonalSuccessors); it then arrives along
// the axis of the larger displacement.
func (g *Grid) dirBetween(a, b int32) int {
	pw := int32(g.pw)
	ay, by := a/pw, b/pw
	dx, dy := b-by*pw-(a-ay*pw), by-ay
	switch adx, ady := abs32(dx), abs32(dy); {
	case adx > ady && ady != 0:
		dy = 0
	case ady > adx && adx != 0:
		dx = 0
	}
	return int(dirIndex[sign(dx)+1][sign(dy)+1])
}

func abs32(v int32) int32 {
	if v < 0 {
		return -v
	}
	return v
}

// dirIndex[dx+1][dy+1] is the direction of a unit step (dx, dy).
var dirIndex = [3][3]int8{
	{dirNW, dirW, dirSW},
	{dirN, -1, dirS},
	{dirNE, dirE, dirSE},
}

func sign(v int32) int32 {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

// jumpStraight runs from padded cell (x, y) in straight direction d and
// returns the first jump point and its distance in steps, or -1 when the run
// hits a wall. It reads the grid's bitsets 64 cells at a time.
func (q *queryGraph) jumpStraight(x, y, d int) (int32, int32) {
	if q.jumps == nil {
		return q.scanStraight(x, y, d)
	}
	i := y*q.g.pw + x
	c := int(q.jumps[i][d])
	if c == 0 {
		return q.scanStraight(x, y, d)
	}
	dist, free := c, c > 0
	if !free {
		dist = -c
	}
	var on bool
	var toGoal int
	switch d {
	case dirE:
		on, toGoal = q.gy == y, q.gx-x
	case dirW:
		on, toGoal = q.gy == y, x-q.gx
	case dirS:
		on, toGoal = q.gx == x, q.gy-y
	default:
		on, toGoal = q.gx == x, y-q.gy
	}
	if on && toGoal > 0 && toGoal <= dist {
		return q.goal, int32(toGoal)
	}
	if !free {
		return -1, 0
	}
	return int32(i) + int32(dist)*q.g.off[d], int32(dist)
}

// scanStraight is jumpStraight by a scan of the bitsets, for runs too long
// for the jump table.
func (q *queryGraph) scanStraight(x, y, d int) (int32, int32) {
	b := &q.g.bits
	pw := q.g.pw
	// The run is along line, between the side lines s1 and s2, from
	// position from; it meets the goal when the goal lies on it, at goal.
	// Position p of the line is padded cell base + p·stride.
	var line, s1, s2 []uint64
	var from, goal, base, stride int
	var on bool
	if d == dirE || d == dirW {
		line, s1, s2 = b.row(y), b.row(y-1), b.row(y+1)
		from, goal, on, base, stride = x, q.gx, q.gy == y, y*pw, 1
	} else {
		line, s1, s2 = b.col(x), b.col(x-1), b.col(x+1)
		from, goal, on, base, stride = y, q.gy, q.gx == x, x, pw
	}
	var p, dist, toGoal int
	if d == dirE || d == dirS {
		p = stopAfter(line, s1, s2, from)
		dist, toGoal = p-from, goal-from
	} else {
		p = stopBefore(line, s1, s2, from)
		dist, toGoal = from-p, from-goal
	}
	if on && toGoal > 0 && toGoal <= dist {
		return q.goal, int32(toGoal)
	}
	if !bitSet(line, p) {
		return -1, 0
	}
	return int32(base + p*stride), int32(dist)
}

// diagonalSuccessors runs from padded cell (x, y) in diagonal direction d
// and appends, as successors, every jump point that the straight runs from
// the cells along the way find, and the goal if the run meets it. The cells
// of the diagonal run where those straight runs start are not added to the
// open list (Harabor & Grastien's pruning of intermediate jump points, 2014):
// the edge from (x, y) to a successor j is the diagonal run to the cell
// where j's straight run starts, then that run, which the path fill-in
// rebuilds as diagonal steps first, then straight ones.
//
// With a jump table the run goes from stop to stop: the cells from which a
// straight jump finds a jump point (the bits of diagStops, read a word of 64
// cells at a time), and the cells on the goal's row or column, whose
// straight jumps may meet the goal. Nothing else on the run can add a
// successor.
func (q *queryGraph) diagonalSuccessors(dst []core.Edge, x, y, d int) []core.Edge {
	if q.jumps == nil {
		return q.diagonalWalk(dst, x, y, d, 0)
	}
	g := q.g
	off := g.off[d]
	dx, dy := dirDX[d], dirDY[d]
	h, v := compH[d], compV[d]
	n := int32(y*g.pw + x)
	for k := 0; ; {
		steps, found := g.diag.run(x, y, d)
		// The first step that reaches the goal's row or column, if any.
		j := steps + 1
		if r := (q.gy - y) * dy; r > 0 {
			j = r
		}
		if r := (q.gx - x) * dx; r > 0 && r < j {
			j = r
		}
		switch {
		case j <= steps:
			steps = j
		case !found:
			return dst
		}
		n += int32(steps) * off
		x += steps * dx
		y += steps * dy
		k += steps
		var goal bool
		if dst, goal = q.stop(dst, n, x, y, h, v, k); goal {
			return dst
		}
	}
}

// stop appends the successors of a diagonal run at padded cell n = (x, y),
// k diagonal steps from its start: the goal when n is the goal (then goal
// is true and the run ends), else the jump points that the straight jumps
// along the components h and v find.
func (q *queryGraph) stop(dst []core.Edge, n int32, x, y, h, v, k int) (_ []core.Edge, goal bool) {
	diag := float64(k) * math.Sqrt2
	if n == q.goal {
		return append(dst, core.Edge{To: n, Cost: diag}), true
	}
	if to, s := q.jumpStraight(x, y, h); to >= 0 {
		dst = append(dst, core.Edge{To: to, Cost: diag + float64(s)})
	}
	if to, s := q.jumpStraight(x, y, v); to >= 0 {
		dst = append(dst, core.Edge{To: to, Cost: diag + float64(s)})
	}
	return dst, false
}

// diagonalWalk is diagonalSuccessors cell by cell, from the cell k steps
// along the run: for grids without a jump table, and runs too long for it.
func (q *queryGraph) diagonalWalk(dst []core.Edge, x, y, d, k int) []core.Edge {
	g := q.g
	bit := uint8(1) << d
	off := g.off[d]
	dx, dy := dirDX[d], dirDY[d]
	h, v := compH[d], compV[d]
	n := int32(y*g.pw + x)
	for k++; ; k++ {
		if g.moves[n]&bit == 0 {
			return dst
		}
		n += off
		x += dx
		y += dy
		var goal bool
		if dst, goal = q.stop(dst, n, x, y, h, v, k); goal {
			return dst
		}
	}
}
