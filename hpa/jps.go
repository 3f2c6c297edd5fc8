package hpa

import (
	"cmp"
	"image"
	"math"
	"math/bits"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
)

// jumpCluster presents the cells of a cluster's rectangle (or a window of
// clusters) to the core search for jump point search, on 8-connected grids
// of unit terrain: cells outside the rectangle count as blocked, so the
// search stays inside it as the plain cluster graph's does, and finds paths
// of the same cost. The rules are the grid's (see package grid's jump.go),
// with runs walked cell by cell, as the rectangles are small:
//   - arriving diagonally, keep the two straight components and the
//     diagonal; arriving straight, keep everything but the three moves back;
//   - a straight run stops at a cell beside which a free cell has a blocked
//     one behind it, a diagonal run at a cell from which one of its straight
//     components finds a jump point, and both at a target.
//
// Its edges join jump points; their cost is the run's, k or k·√2.
type jumpCluster struct {
	c      *cluster
	target []uint32 // per local node: stamp when the node is a target
	stamp  uint32
}

// The pruning sets per direction of arrival (as grid.Step numbers them),
// and the direction of each unit step, by its signs.
var (
	jumpKeep     [8]uint8
	jumpDirIndex [3][3]int
)

func init() {
	for d := range 8 {
		s := grid.Step(d)
		jumpDirIndex[s.X+1][s.Y+1] = d
		if s.X != 0 && s.Y != 0 { // diagonal: its components and itself
			jumpKeep[d] = 1<<d | 1<<grid.StepDir(image.Pt(s.X, 0)) | 1<<grid.StepDir(image.Pt(0, s.Y))
			continue
		}
		for e := range 8 { // straight: all but the three moves back
			if t := grid.Step(e); t.X*s.X+t.Y*s.Y >= 0 {
				jumpKeep[d] |= 1 << e
			}
		}
	}
}

func (j *jumpCluster) NumNodes() int { return j.c.NumNodes() }

func (j *jumpCluster) AppendEdges(dst []core.Edge, n int32) []core.Edge {
	return j.AppendEdgesFrom(dst, n, -1)
}

// setTargets marks the local nodes ts as the targets at which runs stop.
func (j *jumpCluster) setTargets(ts ...int32) {
	if n := j.c.NumNodes(); len(j.target) < n {
		j.target = make([]uint32, n)
	}
	j.stamp++
	if j.stamp == 0 {
		clear(j.target)
		j.stamp = 1
	}
	for _, t := range ts {
		j.target[t] = j.stamp
	}
}

// free reports whether cell p is free and inside the rectangle.
func (j *jumpCluster) free(p image.Point) bool {
	return p.In(j.c.r) && j.c.h.g.Passable(p)
}

// moves returns the legal moves from p that stay inside the rectangle.
func (j *jumpCluster) moves(p image.Point) uint8 {
	m := j.c.h.g.Moves(p)
	r := j.c.r
	for mm := m; mm != 0; mm &= mm - 1 {
		d := bits.TrailingZeros8(mm)
		if !p.Add(grid.Step(d)).In(r) {
			m &^= 1 << d
		}
	}
	return m
}

func (j *jumpCluster) AppendEdgesFrom(dst []core.Edge, n, parent int32) []core.Edge {
	p := j.c.cell(n)
	m := j.moves(p)
	if parent >= 0 {
		s := p.Sub(j.c.cell(parent))
		m &= jumpKeep[jumpDirIndex[cmp.Compare(s.X, 0)+1][cmp.Compare(s.Y, 0)+1]]
	}
	for ; m != 0; m &= m - 1 {
		d := bits.TrailingZeros8(m)
		s := grid.Step(d)
		var to image.Point
		var k int
		var ok bool
		if s.X != 0 && s.Y != 0 {
			to, k, ok = j.jumpDiagonal(p, d)
		} else {
			to, k, ok = j.jumpStraight(p, s)
		}
		if !ok {
			continue
		}
		cost := float64(k)
		if s.X != 0 && s.Y != 0 {
			cost *= math.Sqrt2
		}
		dst = append(dst, core.Edge{To: j.c.id(to), Cost: cost})
	}
	return dst
}

// jumpStraight runs from p in the straight direction s and returns the
// jump point where it stops and its distance; false at a wall or the
// rectangle's edge.
func (j *jumpCluster) jumpStraight(p, s image.Point) (image.Point, int, bool) {
	side := image.Pt(s.Y, s.X) // perpendicular
	for k := 1; ; k++ {
		q := p.Add(s.Mul(k))
		if !j.free(q) {
			return q, 0, false
		}
		if j.target[j.c.id(q)] == j.stamp {
			return q, k, true
		}
		back := q.Sub(s)
		if (j.free(q.Add(side)) && !j.free(back.Add(side))) || (j.free(q.Sub(side)) && !j.free(back.Sub(side))) {
			return q, k, true
		}
	}
}

// jumpDiagonal runs from p in diagonal direction d and returns the first
// cell of the run that is a target or from which a straight component
// finds a jump point, and its distance; false where the run ends first.
func (j *jumpCluster) jumpDiagonal(p image.Point, d int) (image.Point, int, bool) {
	s := grid.Step(d)
	h, v := image.Pt(s.X, 0), image.Pt(0, s.Y)
	q := p
	for k := 1; ; k++ {
		if j.moves(q)&(1<<d) == 0 {
			return q, 0, false
		}
		q = q.Add(s)
		if j.target[j.c.id(q)] == j.stamp {
			return q, k, true
		}
		if _, _, ok := j.jumpStraight(q, h); ok {
			return q, k, true
		}
		if _, _, ok := j.jumpStraight(q, v); ok {
			return q, k, true
		}
	}
}

// appendJumpPath appends the cells after a up to b, a run between two jump
// points: straight or diagonal.
func appendJumpPath(dst []image.Point, a, b image.Point) []image.Point {
	s := image.Pt(cmp.Compare(b.X, a.X), cmp.Compare(b.Y, a.Y))
	for p := a; p != b; {
		p = p.Add(s)
		dst = append(dst, p)
	}
	return dst
}
