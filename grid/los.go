package grid

import "image"

// LineOfSight reports whether the straight segment between the centres of
// cells a and b stays on free cells under the rule that governs moves: every
// cell whose interior the segment crosses is free, and where the segment
// passes exactly through a grid corner, all four cells around that corner are
// free (so a single diagonal step has line of sight exactly when it is a legal
// move). It is false when a or b is blocked or outside the grid.
//
// It reads the cells from the row bitsets for a segment nearer horizontal,
// from the column bitsets for one nearer vertical, a run at a time: in
// each row (column) the segment crosses, the cells it meets are one run,
// whose ends integer arithmetic gives, tested a 64-bit word at a time; a
// band of eight rows (columns) whose cells lie in blocks of 8×8 free cells
// is passed over at once. Its cost is O(rows crossed + cells/64), about an
// eighth of the rows in open ground, and it does not allocate.
func (g *Grid) LineOfSight(a, b image.Point) bool {
	if !g.Passable(a) || !g.Passable(b) {
		return false
	}
	nx, ny := b.X-a.X, b.Y-a.Y
	sx, sy := 1, 1
	if nx < 0 {
		nx, sx = -nx, -1
	}
	if ny < 0 {
		ny, sy = -ny, -1
	}
	// Work in the coordinates of the bitset read: (u, v) is (x, y) in the
	// rows, (y, x) in the columns; words[v*stride + u>>6] holds cell (u, v).
	words, stride := g.bits.rows, g.bits.rw
	u, v, su, sv, nu, nv := a.X+1, a.Y+1, sx, sy, nx, ny
	if ny > nx {
		words, stride = g.bits.cols, g.bits.cw
		u, v, su, sv, nu, nv = a.Y+1, a.X+1, sy, sx, ny, nx
	}
	if nv == 0 {
		return runFree(words[v*stride:], u, u+su*nu)
	}
	// The segment crosses its (i+1)-th grid line across u at parameter
	// t = (2i+1)/(2nu) and its (k+1)-th across v at (2k+1)/(2nv). Before
	// leaving line k of v it has crossed e lines across u, the i with
	// (2i+1)·nv < (2k+1)·nu; where one is crossed at the same t, it passes
	// through a grid corner, which needs the cell beyond it on line k free
	// too (the cell beyond it on line k+1 starts that line's run).
	// x = (2k+1)·nu − nv is kept as q·2nv + r, stepped by 2nu a line.
	step := 2 * nv
	q, r := (nu-nv)/step, (nu-nv)%step
	dq, dr := (2*nu)/step, (2*nu)%step
	s := 0 // the run's first offset along u
	row := (v - sv) * stride
	// At the first line of each band of lines in one row of blocks, the
	// runs of the band's lines lie between s and the end of its last
	// line's run: when the blocks over that stretch are all free, the
	// band is passed over at once.
	bwords, bstride := g.bits.blkRows, g.bits.brw
	if ny > nx {
		bwords, bstride = g.bits.blkCols, g.bits.bcw
	}
	band := 0 // the next line at which to try a band
	for k := 0; k <= nv; k++ {
		row += sv * stride
		if k == band {
			vk := v + sv*k
			kb := k + blockSide - 1 - vk%blockSide
			if sv < 0 {
				kb = k + vk%blockSide
			}
			kb = min(kb, nv)
			band = kb + 1
			if kb-k >= 2 {
				eb, fb := nu, nu
				if kb < nv {
					x := (2*kb+1)*nu - nv
					eb = x / step
					if x%step > 0 {
						eb++
					}
					fb = eb
					if x%step == 0 {
						fb++
					}
				}
				if runFree(bwords[(vk/blockSide)*bstride:], (u+su*s)/blockSide, (u+su*fb)/blockSide) {
					s = eb
					row += sv * stride * (kb - k)
					k = kb
					if kb < nv {
						x := (2*(kb+1)+1)*nu - nv
						q, r = x/step, x%step
					}
					continue
				}
			}
		}
		e, f := nu, nu
		if k < nv {
			e = q
			if r > 0 {
				e++
			}
			f = e
			if r == 0 {
				f++ // through a corner
			}
			q, r = q+dq, r+dr
			if r >= step {
				q, r = q+1, r-step
			}
		}
		p0, p1 := u+su*s, u+su*f
		lo, hi := min(p0, p1), max(p0, p1)
		if lo>>6 == hi>>6 {
			m := ^uint64(0) << (lo & 63) & (^uint64(0) >> (63 - hi&63))
			if words[row+lo>>6]&m != m {
				return false
			}
		} else if !runFree(words[row:], lo, hi) {
			return false
		}
		s = e
	}
	return true
}

// runFree reports whether the bits of row, from p to q (either order),
// are all set.
func runFree(row []uint64, p, q int) bool {
	lo, hi := min(p, q), max(p, q)
	for w := lo >> 6; w <= hi>>6; w++ {
		m := ^uint64(0)
		if w == lo>>6 {
			m &= ^uint64(0) << (lo & 63)
		}
		if w == hi>>6 {
			m &= ^uint64(0) >> (63 - hi&63)
		}
		if row[w]&m != m {
			return false
		}
	}
	return true
}
