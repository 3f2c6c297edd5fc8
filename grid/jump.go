package grid

import (
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
	goal   int32
	gx, gy int // the goal in padded coordinates
	jump   bool
}

func (q *queryGraph) NumNodes() int { return len(q.g.free) }

func (q *queryGraph) AppendEdges(dst []core.Edge, n int32) []core.Edge {
	return (*graph)(q.g).AppendEdges(dst, n)
}

func (q *queryGraph) AppendEdgesFrom(dst []core.Edge, n, parent int32) []core.Edge {
	g := q.g
	if !q.jump {
		return (*graph)(g).AppendEdges(dst, n)
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
		var to, k int32
		if d < dirSE {
			to, k = q.jumpStraight(x, y, d)
		} else {
			to, k = q.jumpDiagonal(x, y, d)
		}
		if to >= 0 {
			dst = append(dst, core.Edge{To: to, Cost: float64(k) * baseCost[d]})
		}
	}
	return dst
}

// dirBetween returns the direction of the run from a to b, two cells on one
// straight or diagonal line.
func (g *Grid) dirBetween(a, b int32) int {
	pw := int32(g.pw)
	ay, by := a/pw, b/pw
	ax, bx := a-ay*pw, b-by*pw
	return int(dirIndex[sign(bx-ax)+1][sign(by-ay)+1])
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
	b := &q.g.bits
	pw := q.g.pw
	var p int
	switch d {
	case dirE:
		r := b.row(y)
		p = stopAfter(r, b.row(y-1), b.row(y+1), x)
		if q.gy == y && q.gx > x && q.gx <= p {
			return q.goal, int32(q.gx - x)
		}
		if !bitSet(r, p) {
			return -1, 0
		}
		return int32(y*pw + p), int32(p - x)
	case dirW:
		r := b.row(y)
		p = stopBefore(r, b.row(y-1), b.row(y+1), x)
		if q.gy == y && q.gx < x && q.gx >= p {
			return q.goal, int32(x - q.gx)
		}
		if !bitSet(r, p) {
			return -1, 0
		}
		return int32(y*pw + p), int32(x - p)
	case dirS:
		c := b.col(x)
		p = stopAfter(c, b.col(x-1), b.col(x+1), y)
		if q.gx == x && q.gy > y && q.gy <= p {
			return q.goal, int32(q.gy - y)
		}
		if !bitSet(c, p) {
			return -1, 0
		}
		return int32(p*pw + x), int32(p - y)
	default: // dirN
		c := b.col(x)
		p = stopBefore(c, b.col(x-1), b.col(x+1), y)
		if q.gx == x && q.gy < y && q.gy >= p {
			return q.goal, int32(y - q.gy)
		}
		if !bitSet(c, p) {
			return -1, 0
		}
		return int32(p*pw + x), int32(y - p)
	}
}

// jumpDiagonal runs from padded cell (x, y) in diagonal direction d and
// returns the first jump point and its distance in diagonal steps, or -1.
func (q *queryGraph) jumpDiagonal(x, y, d int) (int32, int32) {
	g := q.g
	bit := uint8(1) << d
	off := g.off[d]
	dx, dy := dirDX[d], dirDY[d]
	h, v := compH[d], compV[d]
	n := int32(y*g.pw + x)
	for k := int32(1); ; k++ {
		if g.moves[n]&bit == 0 {
			return -1, 0
		}
		n += off
		x += dx
		y += dy
		if n == q.goal {
			return n, k
		}
		if to, _ := q.jumpStraight(x, y, h); to >= 0 {
			return n, k
		}
		if to, _ := q.jumpStraight(x, y, v); to >= 0 {
			return n, k
		}
	}
}
