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
	g    *Grid
	goal int32
	jump bool
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
	for m != 0 {
		d := bits.TrailingZeros8(m)
		m &= m - 1
		var to, k int32
		if d < dirSE {
			to, k = q.jumpStraight(n, d)
		} else {
			to, k = q.jumpDiagonal(n, d)
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

// jumpStraight runs from n in straight direction d and returns the first
// jump point and its distance in steps, or -1 when the run hits a wall.
func (q *queryGraph) jumpStraight(n int32, d int) (int32, int32) {
	g := q.g
	free := g.free
	off := g.off[d]
	var s1, s2 int32 = -int32(g.pw), int32(g.pw)
	if d == dirS || d == dirN {
		s1, s2 = -1, 1
	}
	cur := n
	for k := int32(1); ; k++ {
		cur += off
		if !free[cur] {
			return -1, 0
		}
		if cur == q.goal ||
			(free[cur+s1] && !free[cur+s1-off]) ||
			(free[cur+s2] && !free[cur+s2-off]) {
			return cur, k
		}
	}
}

// jumpDiagonal runs from n in diagonal direction d and returns the first
// jump point and its distance in diagonal steps, or -1.
func (q *queryGraph) jumpDiagonal(n int32, d int) (int32, int32) {
	g := q.g
	bit := uint8(1) << d
	off := g.off[d]
	h, v := compH[d], compV[d]
	cur := n
	for k := int32(1); ; k++ {
		if g.moves[cur]&bit == 0 {
			return -1, 0
		}
		cur += off
		if cur == q.goal {
			return cur, k
		}
		if to, _ := q.jumpStraight(cur, h); to >= 0 {
			return cur, k
		}
		if to, _ := q.jumpStraight(cur, v); to >= 0 {
			return cur, k
		}
	}
}
