package grid

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// segmentSlack widens the segment of [Grid.SegmentFree] on every side, so
// that rounding in the crossings it computes can only make it stricter.
const segmentSlack = 1e-9

// SegmentFree reports whether an agent of no size can move straight from
// the continuous point a to b, in world coordinates (cell (x, y) covers
// [x, x+1) × [y, y+1)): every cell whose closed square the closed segment
// touches is free and inside the grid. The test is deliberately strict
// where a segment grazes a cell: running along a cell's edge, or through a
// grid corner, needs the cells on both sides free, which is the rule of
// moves that do not cut corners. So a segment that SegmentFree accepts
// never enters a blocked cell or crosses between two blocked cells that
// touch at a corner, under any reading of cell boundaries; a point on the
// grid's outer edge is not free. Coordinates that are not finite give false.
//
// It walks the rows the segment crosses and, in each, the run of cells it
// spans: O(|b−a| + 1) cell reads, with no allocation. Like [Grid.Passable],
// it must not overlap [Grid.SetCells] unless the caller holds [Grid.RLock].
func (g *Grid) SegmentFree(a, b mgl64.Vec2) bool {
	return g.segmentPasses(a, b, nil)
}

// SegmentFree is [Grid.SegmentFree] for a unit that goes where f lets it:
// every cell the segment touches must pass f (see [Filter]). A nil f is
// the grid's own rule. It costs what Grid.SegmentFree does and does not
// allocate.
func (f *Filter) SegmentFree(g *Grid, a, b mgl64.Vec2) bool {
	return g.segmentPasses(a, b, f)
}

// segmentPasses is SegmentFree with the cells that f lets through, or the
// free cells when f is nil.
func (g *Grid) segmentPasses(a, b mgl64.Vec2, f *Filter) bool {
	for _, v := range [4]float64{a.X(), a.Y(), b.X(), b.Y()} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	ymin, ymax := min(a.Y(), b.Y()), max(a.Y(), b.Y())
	if ymin-segmentSlack <= 0 || ymax+segmentSlack >= float64(g.h) {
		return false
	}
	xmin, xmax := min(a.X(), b.X()), max(a.X(), b.X())
	if xmin-segmentSlack <= 0 || xmax+segmentSlack >= float64(g.w) {
		return false
	}
	dy := b.Y() - a.Y()
	xAt := func(y float64) float64 {
		if dy == 0 {
			return a.X()
		}
		return a.X() + (y-a.Y())*(b.X()-a.X())/dy
	}
	// Row j's closed band [j, j+1] meets [ymin, ymax] for j from
	// ⌈ymin⌉−1 to ⌊ymax⌋.
	j0 := int(math.Ceil(ymin-segmentSlack)) - 1
	j1 := int(math.Floor(ymax + segmentSlack))
	for j := j0; j <= j1; j++ {
		lo, hi := max(float64(j), ymin), min(float64(j+1), ymax)
		xa, xb := xAt(lo), xAt(hi)
		if dy == 0 {
			xa, xb = xmin, xmax
		}
		if xa > xb {
			xa, xb = xb, xa
		}
		// Cell i's closed span [i, i+1] meets [xa, xb] for i from ⌈xa⌉−1 to ⌊xb⌋.
		i0 := int(math.Ceil(max(xa, xmin)-segmentSlack)) - 1
		i1 := int(math.Floor(min(xb, xmax) + segmentSlack))
		// The padding cells are blocked: i0 ≥ −1 and i1 ≤ w, given the
		// bounds checked above, so the row's ends need no test.
		row := g.pidx(0, j)
		for i := i0; i <= i1; i++ {
			if f == nil {
				if !g.free[row+i] {
					return false
				}
			} else if !f.passes(g, row+i) {
				return false
			}
		}
	}
	return true
}
