package grid

import (
	"image"
	"slices"
)

// Edits. A grid changes in place with SetCells, which costs what the edit
// touches; WithCells leaves the grid as it is and returns an edited copy.
//
// Concurrency: SetCells waits until no query of a [Searcher] or [Sliced]
// step on the grid is running, and holds off new ones while it runs, so a
// query sees the grid as it was before the edit or as it is after it, never
// a mixture. Other readers (Passable, Region, the search layers above) do
// the same by calling RLock and RUnlock around what must see one version;
// reading the grid otherwise while SetCells runs is a data race.

// SetCells makes every cell of r free (free true) or blocked, in place:
// freed cells become [AreaGround] and blocked ones [AreaSolid], so that no
// [Filter] opens them.
// Cells of r outside the grid are ignored, so any rectangle is safe; so is
// an edit that changes nothing, which leaves the version as it is.
//
// Its cost is what the edit touches: the move masks around r, the region
// labels of the 64×64 tiles r overlaps (and a join of all tiles' few
// components, O(tiles)), and, when the grid has its jump table, the
// table's rows and columns through r and the diagonal entries that change.
// Searchers stay valid; their scratch does not change size.
func (g *Grid) SetCells(r image.Rectangle, free bool) {
	r = r.Intersect(g.Bounds())
	if r.Empty() {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.setCells(r, free) {
		g.version.Add(1)
	}
}

// Version counts the edits of g by SetCells that changed a cell: a graph
// or mesh built from g can tell whether g has changed since.
func (g *Grid) Version() uint64 { return g.version.Load() }

// RLock holds off SetCells until the matching RUnlock, so that what the
// caller reads in between sees one version of the grid. Queries of a
// [Searcher] (and of the layers above) do it themselves. RLock may be
// called from many goroutines at once; a goroutine must not call SetCells,
// or run a query, while it holds it: read locks do not nest once an edit
// waits for them.
func (g *Grid) RLock() { g.mu.RLock() }

// RUnlock ends what RLock began.
func (g *Grid) RUnlock() { g.mu.RUnlock() }

// WithCells returns a copy of g in which every cell of r is free (free true)
// or blocked (free false); g itself is unchanged. Cells of r outside the
// grid are ignored. Terrain costs and connectivity carry over; the copy's
// version starts at 0.
//
// The copy costs O(width·height) for copying the cell arrays, then what
// [Grid.SetCells] costs.
func (g *Grid) WithCells(r image.Rectangle, free bool) *Grid {
	g.mu.RLock()
	n := g.clone()
	g.mu.RUnlock()
	if r = r.Intersect(g.Bounds()); !r.Empty() {
		n.setCells(r, free)
	}
	return n
}

// clone returns a copy of g that shares nothing with it but the read-only
// offsets, the jump table included when g has built it.
func (g *Grid) clone() *Grid {
	n := &Grid{w: g.w, h: g.h, pw: g.pw, conn: g.conn, off: g.off}
	n.free = slices.Clone(g.free)
	n.moves = slices.Clone(g.moves)
	n.cost = slices.Clone(g.cost)
	n.area = slices.Clone(g.area)
	n.bits = g.bits
	n.bits.rows, n.bits.cols = slices.Clone(g.bits.rows), slices.Clone(g.bits.cols)
	n.bits.blkRows, n.bits.blkCols = slices.Clone(g.bits.blkRows), slices.Clone(g.bits.blkCols)
	n.rg = g.rg.clone()
	if g.jumpsBuilt.Load() {
		n.jumps = slices.Clone(g.jumps)
		if g.jumps != nil {
			n.diag = g.diag.clone()
		}
		n.jumpOnce.Do(func() {})
		n.jumpsBuilt.Store(true)
	}
	return n
}

// setCells is SetCells on a rectangle inside the grid, with the edit lock
// held (or on a copy no one else sees yet). It reports whether a cell
// changed.
func (g *Grid) setCells(r image.Rectangle, free bool) bool {
	// Shrink r to the cells that change. Blocking a blocked cell of an
	// area a filter may open (water, trees) makes it solid: that changes
	// no move, but a filtered query sees it.
	ch := image.Rectangle{}
	solidified := false
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			i := g.pidx(x, y)
			switch {
			case g.free[i] != free:
				g.setFree(x, y, free)
				ch = ch.Union(image.Rect(x, y, x+1, y+1))
			case !free && g.area != nil && g.area[i] != AreaSolid:
				g.area[i] = AreaSolid
				solidified = true
			}
		}
	}
	if ch.Empty() {
		return solidified
	}
	// A cell's moves depend on its 8 neighbours.
	m := ch.Inset(-1).Intersect(g.Bounds())
	g.computeMoveRows(m.Min.X, m.Min.Y, m.Max.X, m.Max.Y)
	g.relabelRegions(ch.Min.X, ch.Min.Y, ch.Max.X, ch.Max.Y)
	if g.jumpsBuilt.Load() && g.jumps != nil {
		g.updateJumps(ch.Min.X+1, ch.Min.Y+1, ch.Max.X+1, ch.Max.Y+1)
	}
	return true
}

// setFree sets one cell's passability in the cell array and the bitsets.
func (g *Grid) setFree(x, y int, free bool) {
	i := g.pidx(x, y)
	g.free[i] = free
	if g.area != nil { // a freed cell is ground, a blocked one solid
		g.area[i] = AreaSolid
		if free {
			g.area[i] = AreaGround
		}
	}
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
	g.bits.setBlock(px/blockSide, py/blockSide, len(g.free)/g.pw)
}
