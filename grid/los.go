package grid

import "image"

// LineOfSight reports whether the straight segment between the centres of
// cells a and b stays on free cells under the rule that governs moves: every
// cell whose interior the segment crosses is free, and where the segment
// passes exactly through a grid corner, all four cells around that corner are
// free (so a single diagonal step has line of sight exactly when it is a legal
// move). It is false when a or b is blocked or outside the grid.
//
// It walks the cells along the segment with integer arithmetic only, in
// O(|dx|+|dy|) time, and does not allocate.
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
	free := g.free
	stepX, stepY := sx, sy*g.pw
	i := g.pidx(a.X, a.Y)
	// The segment crosses its (ix+1)-th vertical grid line at parameter
	// t = (2ix+1)/(2nx) and its (iy+1)-th horizontal one at (2iy+1)/(2ny);
	// compare the two by cross-multiplying.
	for ix, iy := 0, 0; ix < nx || iy < ny; {
		var c int
		switch {
		case ix == nx:
			c = 1
		case iy == ny:
			c = -1
		default:
			c = (2*ix+1)*ny - (2*iy+1)*nx
		}
		switch {
		case c < 0: // a vertical line first
			i += stepX
			ix++
		case c > 0: // a horizontal line first
			i += stepY
			iy++
		default: // through a corner: all four cells around it
			if !free[i+stepX] || !free[i+stepY] {
				return false
			}
			i += stepX + stepY
			ix++
			iy++
		}
		if !free[i] {
			return false
		}
	}
	return true
}
