package hpa

import (
	"cmp"
	"image"
	"math"
	"math/bits"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/bitset"
)

// jumpCluster presents the cells of a cluster's rectangle (or a window of
// clusters) to the core search for jump point search, on 8-connected grids
// of unit terrain: cells outside the rectangle count as blocked, so the
// search stays inside it as the plain cluster graph's does, and finds paths
// of the same cost. The rules are the grid's (see package grid's jump.go),
// with straight runs read a word of cells at a time:
//   - arriving diagonally, keep the two straight components and the
//     diagonal; arriving straight, keep everything but the three moves back;
//   - a straight run stops at a cell beside which a free cell has a blocked
//     one behind it, a diagonal run at a cell from which one of its straight
//     components finds a jump point, and both at a target.
//
// Its edges join jump points; their cost is the run's, k or k·√2.
type jumpCluster struct {
	c *cluster
	// The targets as bits: by local node (row-major, along the rows) in
	// trow, and column-major (bit (x−x0)·height + y−y0) in tcol, for the
	// runs, which read cells and targets a word at a time; tset and cset
	// list the bits set, to clear them at the next setTargets.
	trow, tcol []uint64
	tset, cset []int32
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
	if words := (j.c.NumNodes() + 63) / 64; len(j.trow) < words {
		j.trow, j.tcol = make([]uint64, words), make([]uint64, words)
		j.tset, j.cset = j.tset[:0], j.cset[:0]
	}
	for _, t := range j.tset {
		j.trow[t>>6] = 0
	}
	for _, k := range j.cset {
		j.tcol[k>>6] = 0
	}
	j.tset, j.cset = j.tset[:0], j.cset[:0]
	cw, ch := int32(j.c.cw), int32(j.c.r.Dy())
	for _, t := range ts {
		j.trow[t>>6] |= 1 << (t & 63)
		k := t%cw*ch + t/cw
		j.tcol[k>>6] |= 1 << (k & 63)
		j.tset, j.cset = append(j.tset, t), append(j.cset, k)
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
// rectangle's edge. It reads the run's line and the two beside it 64
// cells at a time (grid.Grid.RowBits, ColumnBits): the run stops at its
// first cell that is blocked or outside the rectangle (false), a target,
// or free beside a blocked cell behind it on a line beside the run
// (forced), as a walk cell by cell would.
func (j *jumpCluster) jumpStraight(p, s image.Point) (image.Point, int, bool) {
	r := j.c.r
	// (u, v): u along the run, v across it.
	vert := s.X == 0
	u, v, du := p.X, p.Y, s.X
	umin, umax, vmin, vmax := r.Min.X, r.Max.X, r.Min.Y, r.Max.Y
	if vert {
		u, v, du = p.Y, p.X, s.Y
		umin, umax, vmin, vmax = r.Min.Y, r.Max.Y, r.Min.X, r.Max.X
	}
	before, after := v-1 >= vmin, v+1 < vmax
	pt := func(q int) image.Point {
		if vert {
			return image.Pt(v, q)
		}
		return image.Pt(q, v)
	}
	if du > 0 {
		for lo := u + 1; ; lo += 64 {
			n := umax - lo // cells of the window inside the rectangle
			if n <= 0 {
				return pt(lo), 0, false
			}
			in := ^uint64(0)
			if n < 64 {
				in = 1<<n - 1
			}
			// Bit i is cell lo+i; forced where a line beside has it free
			// and the cell before it (bit i of the window one lower) not.
			stop := ^(j.line(vert, lo, v) & in) | j.targets(vert, lo, v, umin, vmin)&in
			if before {
				stop |= (j.line(vert, lo, v-1) &^ j.line(vert, lo-1, v-1)) & in
			}
			if after {
				stop |= (j.line(vert, lo, v+1) &^ j.line(vert, lo-1, v+1)) & in
			}
			if stop != 0 {
				q := lo + bits.TrailingZeros64(stop)
				if !j.free(pt(q)) {
					return pt(q), 0, false
				}
				return pt(q), q - u, true
			}
		}
	}
	for hi := u - 1; ; hi -= 64 {
		n := hi - umin + 1
		if n <= 0 {
			return pt(hi), 0, false
		}
		lo := hi - 63
		in := ^uint64(0)
		if n < 64 {
			in = ^uint64(0) << (64 - n)
		}
		// Bit i is cell lo+i; behind a cell is the one after it.
		stop := ^(j.line(vert, lo, v) & in) | j.targets(vert, lo, v, umin, vmin)&in
		if before {
			stop |= (j.line(vert, lo, v-1) &^ j.line(vert, lo+1, v-1)) & in
		}
		if after {
			stop |= (j.line(vert, lo, v+1) &^ j.line(vert, lo+1, v+1)) & in
		}
		if stop != 0 {
			q := lo + 63 - bits.LeadingZeros64(stop)
			if !j.free(pt(q)) {
				return pt(q), 0, false
			}
			return pt(q), u - q, true
		}
	}
}

// isTarget reports whether cell q, inside the rectangle, is a target.
func (j *jumpCluster) isTarget(q image.Point) bool {
	t := j.c.id(q)
	return j.trow[t>>6]>>(t&63)&1 != 0
}

// line returns the free cells u to u+63 of line v as bits: of row v when
// the run is horizontal, column v when vertical.
func (j *jumpCluster) line(vert bool, u, v int) uint64 {
	if vert {
		return j.c.h.g.ColumnBits(v, u)
	}
	return j.c.h.g.RowBits(u, v)
}

// targets returns the targets among cells u to u+63 of line v as bits;
// bits of cells outside the rectangle are meaningless.
func (j *jumpCluster) targets(vert bool, u, v, umin, vmin int) uint64 {
	if vert {
		return bitset.Word(j.tcol, (v-vmin)*j.c.r.Dy()+u-umin)
	}
	return bitset.Word(j.trow, (v-vmin)*j.c.cw+u-umin)
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
		if j.isTarget(q) {
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
