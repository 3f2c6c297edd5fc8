package grid

import (
	"fmt"
	"math"
)

// Erode returns the grid of the cells an agent of radius r may stand on
// anywhere: a free cell is kept when every point of it is at least r from
// every blocked cell and from the grid's edge (cells outside the grid count
// as blocked). Distances are Euclidean, square to square: a cell dx, dy
// cells from a blocked one is √(max(|dx|−1,0)² + max(|dy|−1,0)²) from it, so
// every cell touching a blocked cell goes for any r > 0, and a straight
// corridor k cells wide stays open only when k ≥ 2⌈r⌉+1. The squared
// distances are whole numbers, compared with r·r, so the test is exact
// whenever r·r is. A radius of 0 keeps every free cell. Connectivity and
// terrain costs carry over; g is unchanged.
//
// It is an error when r is negative, NaN or infinite. Erode costs
// O(width·height) whatever r, with an exact Euclidean distance transform
// (Felzenszwalb and Huttenlocher's lower envelope of parabolas), and
// allocates about 6 bytes per cell besides the new grid. It is safe for
// concurrent use.
func (g *Grid) Erode(r float64) (*Grid, error) {
	if math.IsNaN(r) || math.IsInf(r, 0) || r < 0 {
		return nil, fmt.Errorf("grid: erosion radius %v, want a finite value ≥ 0", r)
	}
	w, h := g.w, g.h
	free := make([]bool, w*h)
	opt := Options{Connectivity: g.conn}
	if g.cost != nil {
		opt.Costs = make([]float64, w*h)
		for y := range h {
			for x := range w {
				opt.Costs[y*w+x] = g.cost[g.pidx(x, y)]
			}
		}
	}
	r2 := r * r
	switch {
	case r == 0:
		for y := range h {
			copy(free[y*w:(y+1)*w], g.free[g.pidx(0, y):])
		}
	case r2 < float64(w)*float64(w)+float64(h)*float64(h):
		// A larger radius keeps nothing: no two cells of the grid are
		// that far apart.
		g.erodeInto(free, r2)
	}
	return New(w, h, free, opt)
}

// erodeInto sets free[y·w+x] for the free cells whose squared distance to
// the nearest blocked cell (square to square, see Erode) is at least r2.
//
// That distance is the squared distance from the cell to the nearest
// "seed": a cell within one step (in x and in y) of a blocked cell, since
// max(|d|−1, 0) is the distance from d to the nearest of d−1, d, d+1. The
// cells on the grid's edge are seeds (the outside is blocked), so every
// row and column holds one, and a nearer seed outside the grid never
// exists. The distance transform runs over columns, then rows.
func (g *Grid) erodeInto(free []bool, r2 float64) {
	w, h := g.w, g.h
	// col[y·w+x] is the distance from (x, y) to the nearest seed in
	// column x.
	col := make([]int32, w*h)
	seed := func(x, y int) bool {
		i := g.pidx(x, y) // the padding makes every neighbour addressable
		for _, j := range [...]int{i - g.pw - 1, i - g.pw, i - g.pw + 1, i - 1, i, i + 1, i + g.pw - 1, i + g.pw, i + g.pw + 1} {
			if !g.free[j] {
				return true
			}
		}
		return false
	}
	for x := range w {
		d := int32(h) // beyond any cell: row 0 is always a seed
		for y := range h {
			if seed(x, y) {
				d = 0
			} else {
				d++
			}
			col[y*w+x] = d
		}
		for y := h - 2; y >= 0; y-- {
			if next := col[(y+1)*w+x] + 1; next < col[y*w+x] {
				col[y*w+x] = next
			}
		}
	}
	// Per row, the lower envelope of the parabolas (x−q)² + col(q)².
	v := make([]int32, w)     // the parabolas' apexes, left to right
	z := make([]float64, w+1) // z[k], z[k+1] bound where parabola k is lowest
	f := func(q int32, y int) int64 { c := int64(col[y*w+int(q)]); return c*c + int64(q)*int64(q) }
	for y := range h {
		k := 0
		v[0], z[0], z[1] = 0, math.Inf(-1), math.Inf(1)
		for q := int32(1); q < int32(w); q++ {
			fq := f(q, y)
			for {
				p := v[k]
				s := float64(fq-f(p, y)) / float64(2*(q-p))
				if s <= z[k] {
					k--
					continue
				}
				k++
				v[k], z[k], z[k+1] = q, s, math.Inf(1)
				break
			}
		}
		k = 0
		for x := range w {
			for z[k+1] < float64(x) {
				k++
			}
			if !g.free[g.pidx(x, y)] {
				continue
			}
			dx, c := int64(x)-int64(v[k]), int64(col[y*w+int(v[k])])
			free[y*w+x] = float64(dx*dx+c*c) >= r2
		}
	}
}
