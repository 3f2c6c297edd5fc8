// Package mapgen makes grid maps for demos and benchmarks: [World] generates
// a deterministic game-like world of any size (4096×4096 by default), and
// [Scale] enlarges an existing map, such as a Moving AI benchmark map, k
// times. [FarPair] picks the two ends of a long query on a map.
//
// Maps are [grid.Grid] values, with the grid package's conventions: cell
// (x, y) is column x of row y, row 0 first, and costs are in cells (1 per
// straight step, √2 per diagonal step).
package mapgen

import (
	"image"

	"github.com/cairn-nav/cairn/grid"
)

// FarPair returns two cells of g's largest connected region, far apart for
// a long query: the cells of that region nearest (by Manhattan distance) to
// two opposite corners of the map, top-left and bottom-right or top-right and
// bottom-left, whichever pair is farther apart by the octile distance. Ties
// go to the cell with the smaller y, then the smaller x. ok is false when g
// has no free cell.
//
// FarPair costs O(width·height) and allocates one count per region.
func FarPair(g *grid.Grid) (a, b image.Point, ok bool) {
	if g.NumRegions() == 0 {
		return image.Point{}, image.Point{}, false
	}
	w, h := g.Width(), g.Height()
	size := make([]int, g.NumRegions())
	for y := range h {
		for x := range w {
			if r := g.Region(image.Pt(x, y)); r >= 0 {
				size[r]++
			}
		}
	}
	largest := int32(0)
	for r, n := range size {
		if n > size[largest] {
			largest = int32(r)
		}
	}
	tl := nearest(g, largest, false, false)
	br := nearest(g, largest, true, true)
	tr := nearest(g, largest, true, false)
	bl := nearest(g, largest, false, true)
	if grid.Octile(tr, bl) > grid.Octile(tl, br) {
		return tr, bl, true
	}
	return tl, br, true
}

// nearest returns the cell of region r nearest to a corner of g: the right
// one when right, the bottom one when bottom. It scans the diagonals at
// growing Manhattan distance from the corner, each from its smallest y, and r
// must have a cell.
func nearest(g *grid.Grid, r int32, right, bottom bool) image.Point {
	w, h := g.Width(), g.Height()
	var found image.Point
	better := func(p image.Point) bool {
		return p.Y < found.Y || p.Y == found.Y && p.X < found.X
	}
	for s := 0; s <= w+h-2; s++ {
		hit := false
		// Cells at distance s from the corner: dx + dy = s.
		for dy := max(0, s-(w-1)); dy <= min(s, h-1); dy++ {
			dx := s - dy
			x, y := dx, dy
			if right {
				x = w - 1 - dx
			}
			if bottom {
				y = h - 1 - dy
			}
			p := image.Pt(x, y)
			if g.Region(p) == r && (!hit || better(p)) {
				found, hit = p, true
			}
		}
		if hit {
			return found
		}
	}
	panic("mapgen: region without a cell")
}
