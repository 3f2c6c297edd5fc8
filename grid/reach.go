package grid

import (
	"image"
	"math/rand/v2"
)

// Region sizes, nearest free cells and random cells, for the layers above
// the searches: where to send an agent whose goal is blocked or walled off,
// and where to put a new one. They read the labelling of regions.go, which
// keeps a cell count and a first cell per component and per region.
//
// Concurrency: like [Grid.Region] and [Grid.Connected], these methods are
// safe for concurrent use, but they do not take the edit lock themselves:
// a caller whose reads may overlap [Grid.SetCells] holds [Grid.RLock]
// around them (and around whatever else must see the same version). They
// cannot take it themselves, since read locks do not nest once an edit
// waits for them.

// farOff bounds the coordinates NearestFree and NearestReachable work with:
// with |x|, |y| ≤ 2³⁰ and cells below 2²⁸, squared distances fit an int64.
const farOff = 1 << 30

// RegionSize returns the number of free cells in p's connected region, 0
// when p is blocked or outside the grid. It is O(1) and does not allocate:
// the sizes are kept with the region labels by [New] and [Grid.SetCells].
// It is safe for concurrent use, but must not overlap [Grid.SetCells]
// unless the caller holds [Grid.RLock].
func (g *Grid) RegionSize(p image.Point) int {
	l := g.Region(p)
	if l < 0 {
		return 0
	}
	return int(g.rg.rsize[l])
}

// LargestRegion returns a cell of the region with the most free cells and
// that region's size, or (image.Point{}, 0) when the grid has no free cell.
// The cell is the region's first in row-major order (smallest y, then
// smallest x), and of regions of equal size the one whose first cell comes
// first wins, so the answer depends on the cells alone, not on the edits
// that led to them. It is O(1) and does not allocate (the largest region is
// found when the regions are joined, in O(components)). It is safe for
// concurrent use, but must not overlap [Grid.SetCells] unless the caller
// holds [Grid.RLock].
func (g *Grid) LargestRegion() (cell image.Point, size int) {
	l := g.rg.largest
	if l < 0 {
		return image.Point{}, 0
	}
	return g.pxy(g.rg.rfirst[l]), int(g.rg.rsize[l])
}

// NearestFree returns the free cell whose centre is nearest to p's centre
// in Euclidean distance, and false only when the grid has no free cell. p
// may be blocked or outside the grid (its coordinates are clamped to
// ±2³⁰ first, which changes the answer only for points that far out). Of
// cells at the same distance it returns the one with the smallest y, then
// the smallest x.
//
// It reads growing square rings of cells around p, clipped to the grid,
// and stops once a ring's radius exceeds the distance found: O(d²) for d
// that distance, and never more than O(width·height), since it reads no
// cell twice. It does not allocate. It is safe for concurrent use, but
// must not overlap [Grid.SetCells] unless the caller holds [Grid.RLock].
func (g *Grid) NearestFree(p image.Point) (image.Point, bool) {
	if g.rg.free == 0 {
		return image.Point{}, false
	}
	return g.nearest(p, -1)
}

// NearestReachable is [Grid.NearestFree] among the cells of from's region:
// the cell reachable from from whose centre is nearest to p's, which is
// where to walk to get as near as one can to a goal p that cannot be
// reached. It returns false when from is blocked or outside the grid; p may
// be anything. Its cost is that of NearestFree, d being the distance to the
// cell found; it does not allocate. It is safe for concurrent use, but
// must not overlap [Grid.SetCells] unless the caller holds [Grid.RLock].
func (g *Grid) NearestReachable(p, from image.Point) (image.Point, bool) {
	l := g.Region(from)
	if l < 0 {
		return image.Point{}, false
	}
	return g.nearest(p, l)
}

// nearest is NearestFree among the cells of region l, or among all free
// cells when l < 0.
func (g *Grid) nearest(p image.Point, l int32) (image.Point, bool) {
	s := nearSearch{g: g, l: l, bd: -1,
		px: min(max(p.X, -farOff), farOff), py: min(max(p.Y, -farOff), farOff)}
	px, py, w, h := s.px, s.py, g.w, g.h
	// Rings r0..r1 hold every cell of the grid, each cell once.
	r0 := max(0, -px, px-(w-1), -py, py-(h-1))
	r1 := max(px, w-1-px, py, h-1-py)
	for r := r0; r <= r1; r++ {
		if s.bd >= 0 && int64(r)*int64(r) > s.bd {
			break // every cell left is farther than r
		}
		xa, xb := max(px-r, 0), min(px+r, w-1)
		ya, yb := max(py-r+1, 0), min(py+r-1, h-1) // the sides, without the corners
		if y := py - r; y >= 0 && y < h {
			s.row(y, xa, xb)
		}
		if y := py + r; r > 0 && y >= 0 && y < h {
			s.row(y, xa, xb)
		}
		if x := px - r; x >= 0 && x < w {
			s.col(x, ya, yb)
		}
		if x := px + r; r > 0 && x >= 0 && x < w {
			s.col(x, ya, yb)
		}
	}
	return s.best, s.bd >= 0
}

// nearSearch is the state of a ring search of nearest.
type nearSearch struct {
	g      *Grid
	l      int32 // the region searched, or -1 for all free cells
	px, py int   // the point, clamped
	best   image.Point
	bd     int64 // squared distance from (px, py) to best, -1 before one is found
}

// row considers the cells (x, y) of the grid for x in [xa, xb].
func (s *nearSearch) row(y, xa, xb int) {
	dy := int64(y - s.py)
	if s.bd >= 0 && dy*dy > s.bd {
		return
	}
	i := s.g.pidx(0, y)
	for x := xa; x <= xb; x++ {
		s.try(i+x, x, y)
	}
}

// col considers the cells (x, y) of the grid for y in [ya, yb].
func (s *nearSearch) col(x, ya, yb int) {
	dx := int64(x - s.px)
	if s.bd >= 0 && dx*dx > s.bd {
		return
	}
	for y := ya; y <= yb; y++ {
		s.try(s.g.pidx(x, y), x, y)
	}
}

// try considers cell (x, y) at padded index i.
func (s *nearSearch) try(i, x, y int) {
	g := s.g
	if !g.free[i] || s.l >= 0 && g.Region(image.Pt(x, y)) != s.l {
		return
	}
	dx, dy := int64(x-s.px), int64(y-s.py)
	d := dx*dx + dy*dy
	if s.bd < 0 || d < s.bd || d == s.bd && (y < s.best.Y || y == s.best.Y && x < s.best.X) {
		s.best, s.bd = image.Pt(x, y), d
	}
}

// RandomFree returns a cell drawn uniformly from the free cells of from's
// region, using r, and false when from is blocked or outside the grid.
//
// It costs O(components) to find the component of the cell drawn (the
// grid's 64×64 tiles hold a few each) and O(64²) to find the cell in it;
// it does not allocate. It is safe for concurrent use with distinct r (a
// [rand.Rand] is not), but must not overlap [Grid.SetCells] unless the
// caller holds [Grid.RLock].
func (g *Grid) RandomFree(r *rand.Rand, from image.Point) (image.Point, bool) {
	l := g.Region(from)
	if l < 0 {
		return image.Point{}, false
	}
	return g.pick(l, r.IntN(int(g.rg.rsize[l]))), true
}

// RandomCell returns a cell drawn uniformly from all free cells of the
// grid, using r, and false when there is none. Its cost, allocations and
// concurrency are those of [Grid.RandomFree].
func (g *Grid) RandomCell(r *rand.Rand) (image.Point, bool) {
	if g.rg.free == 0 {
		return image.Point{}, false
	}
	return g.pick(-1, r.IntN(g.rg.free)), true
}

// pick returns the k-th free cell of region l, or of the grid when l < 0,
// counting component by component in the order of the tiles and of the
// components within a tile, and row by row within a component; k must be
// below the size of what it counts.
func (g *Grid) pick(l int32, k int) image.Point {
	rg := &g.rg
	for t := range rg.tiles {
		for lc, c := range rg.tiles[t].comps {
			if l >= 0 && rg.label[c] != l {
				continue
			}
			if n := int(rg.size[c]); k >= n {
				k -= n
				continue
			}
			// The k-th cell of c, from its first one on.
			x0, _, x1, y1 := g.tileRect(t)
			f := g.pxy(rg.first[c])
			for y, xa := f.Y, f.X; y < y1; y, xa = y+1, x0 {
				row := rg.comp[g.pidx(xa, y):g.pidx(x1, y)]
				for i, n := range row {
					if n != uint16(lc) {
						continue
					}
					if k == 0 {
						return image.Pt(xa+i, y)
					}
					k--
				}
			}
		}
	}
	panic("grid: internal error: a region's size exceeds its cells")
}
