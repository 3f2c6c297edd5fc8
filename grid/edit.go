package grid

import "image"

// WithCells returns a copy of g in which every cell of r is free (free true)
// or blocked (free false); g itself is unchanged, as a built grid is
// immutable. Cells of r outside the grid are ignored. Terrain costs and
// connectivity carry over.
//
// The copy costs O(width·height): the cell arrays are copied and the
// connected regions labelled again; the move masks and bitsets are
// recomputed only around r, and so is the jump table when g has one (the
// rows and columns through r and beside it).
func (g *Grid) WithCells(r image.Rectangle, free bool) *Grid {
	r = r.Intersect(g.Bounds())
	n := &Grid{w: g.w, h: g.h, pw: g.pw, conn: g.conn, off: g.off}
	n.free = append([]bool(nil), g.free...)
	n.moves = append([]uint8(nil), g.moves...)
	if g.cost != nil {
		n.cost = append([]float64(nil), g.cost...)
	}
	n.bits = bitsets{rw: g.bits.rw, cw: g.bits.cw}
	n.bits.rows = append([]uint64(nil), g.bits.rows...)
	n.bits.cols = append([]uint64(nil), g.bits.cols...)
	if r.Empty() {
		n.region = append([]int32(nil), g.region...)
		n.nregions = g.nregions
		n.copyJumps(g, 0, 0, 0, 0)
		return n
	}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			n.setFree(x, y, free)
		}
	}
	// A cell's moves depend on its 8 neighbours.
	m := r.Inset(-1).Intersect(g.Bounds())
	n.computeMoves(m.Min.X, m.Min.Y, m.Max.X, m.Max.Y)
	n.labelRegions()
	n.copyJumps(g, r.Min.X+1, r.Min.Y+1, r.Max.X+1, r.Max.Y+1)
	return n
}

// setFree sets one cell's passability in the cell array and the bitsets.
func (g *Grid) setFree(x, y int, free bool) {
	i := g.pidx(x, y)
	g.free[i] = free
	px, py := x+1, y+1
	rb := &g.bits.rows[py*g.bits.rw+px>>6]
	cb := &g.bits.cols[px*g.bits.cw+py>>6]
	if free {
		*rb |= 1 << (px & 63)
		*cb |= 1 << (py & 63)
	} else {
		*rb &^= 1 << (px & 63)
		*cb &^= 1 << (py & 63)
	}
}
