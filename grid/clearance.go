package grid

import (
	"image"
	"math/bits"
)

// Unit sizes (clearance). A unit of size k at cell (x, y) occupies the
// k × k cells x…x+k−1 × y…y+k−1, anchored at its top-left cell as in
// Harabor and Botea's clearance-based pathfinding (annotated A*). It may
// stand at (x, y) when all its cells are free, step straight to a
// neighbour where it may stand, and step diagonally where it may stand at
// the target and at both side cells, which for k = 1 is the grid's
// no-corner-cutting rule. Its moves are therefore exactly those of a size-1
// unit on the derived grid whose free cells are those of clearance ≥ k
// ([Grid.Sized]), on which every search, region label and layer above works
// unchanged; [Grid.UpdateSized] keeps a derived grid up to date after edits
// of the grid it came from.
//
// The clearance of a cell is read from the grid's row bitsets on demand
// rather than from a table: there is nothing to keep up to date after
// [Grid.SetCells], and nothing to build.

// MaxClearance is the largest clearance [Grid.Clearance] reports and the
// largest unit size [Grid.Sized] accepts. It bounds the cost of a
// Clearance call.
const MaxClearance = 255

// Clearance returns the clearance of cell p: the side of the largest square
// of free cells whose top-left cell is p, so that a unit of size k may
// stand at p exactly when k ≤ Clearance(p). Cells beyond the grid's edges
// count as blocked. It is 0 when p is blocked or outside the grid, and at
// most [MaxClearance] (a larger square reports MaxClearance).
//
// It costs O(c·(1 + c/64)) for a clearance of c: one run of free cells per
// row of the square, read 64 cells at a time from the grid's bitsets. It
// allocates nothing. Like [Grid.Passable] it is safe for concurrent use,
// but it must not overlap [Grid.SetCells] unless the caller holds
// [Grid.RLock].
func (g *Grid) Clearance(p image.Point) int {
	if !g.Passable(p) {
		return 0
	}
	return g.clearance(p.X, p.Y, MaxClearance)
}

// clearance returns min(limit, the clearance of the free cell (x, y) of
// the grid), limit ≥ 1. The square of side k at (x, y) is free exactly
// when each of its k rows has a run of at least k free cells from column
// x. The blocked border row below the grid ends the loop at the latest
// there.
func (g *Grid) clearance(x, y, limit int) int {
	m := limit // the shortest run of the rows so far, at most limit
	for k := 1; ; k++ {
		m = min(m, g.bits.runFrom(y+k, x+1, m))
		if m < k {
			return k - 1
		}
		if k == limit {
			return limit
		}
	}
}

// runFrom returns min(limit, the number of consecutive free padded cells
// of padded row py from padded column px on). The blocked border column
// ends every run inside the row's words.
func (b *bitsets) runFrom(py, px, limit int) int {
	row := b.row(py)
	k, sh := px>>6, px&63
	n := bits.TrailingZeros64(^(row[k] >> sh))
	if n < 64-sh {
		return min(n, limit)
	}
	for k++; k < len(row) && n < limit; k++ {
		ones := bits.TrailingZeros64(^row[k])
		n += ones
		if ones < 64 {
			break
		}
	}
	return min(n, limit)
}

// Sized returns the grid of the cells where a unit of size k may stand:
// its free cells are those of clearance ≥ k (see [Grid.Clearance]), so a
// path on it is a path of the unit's anchor (top-left) cell, and its
// legal moves are exactly those of the unit, diagonal ones keeping both
// side footprints free. Sized(1) is a grid equal to g.
//
// The new grid has g's connectivity; when g has terrain costs, a cell's
// multiplier is the largest of those of the k × k cells of its footprint
// (blocked cells' multipliers included, so that it stays right when edits
// free them), and a step costs what any step on a grid costs with these
// multipliers. Its version starts at 0, and it shares nothing with g.
//
// It is an error when k is below 1 or above [MaxClearance]. Sized costs
// O(width·height) whatever k (runs of free cells, then a sliding maximum
// for the costs), plus building the new grid; it allocates the new grid
// and O(width) scratch (O(width·height) with terrain costs). It holds g's
// read lock while it reads g (so the caller must not hold [Grid.RLock]),
// and is safe for concurrent use. It is [Grid.Derived](k, nil).
func (g *Grid) Sized(k int) (*Grid, error) { return g.Derived(k, nil) }

// UpdateSized brings s, a grid that [Grid.Sized](k) of src returned, up to
// date after edits of src in rectangle r (as given to src's
// [Grid.SetCells]; call it after each edit, or once with the union of
// several). Only cells of s in r grown by k−1 up and to the left can
// change; UpdateSized finds those whose value changed, row by row, merges
// runs that repeat on consecutive rows into rectangles, and applies them
// with s's own SetCells, all under one hold of s's edit lock, so a query
// on s sees it before or after the update, never a mixture. Terrain
// multipliers do not change: edits of src change none.
//
// It returns the bounding rectangle of the cells of s that changed (empty
// when none did, and then s's version stays as it is), which is what a
// graph built on s, such as an hpa.Graph, needs to update in turn.
//
// It is an error when s is src, when the grids differ in size,
// connectivity or in having terrain costs, or when k is outside [1,
// [MaxClearance]]; s is then unchanged. That s is src's sized grid for k
// is the caller's promise: UpdateSized cannot check it.
//
// Its cost is O((dx+k)·(dy+k)) to read src over the grown rectangle of
// dx × dy cells and the footprints of its cells, then what SetCells costs
// for each rectangle applied. It allocates scratch of that order. It
// holds s's edit lock and src's read lock together, so the caller must
// hold neither's [Grid.RLock]; UpdateSized calls for one s may run
// concurrently, in any order, as long as each follows its edit. It is
// [Grid.UpdateDerived](src, k, nil, r).
func (s *Grid) UpdateSized(src *Grid, k int, r image.Rectangle) (image.Rectangle, error) {
	return s.UpdateDerived(src, k, nil, r)
}
