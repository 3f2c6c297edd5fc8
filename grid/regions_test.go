package grid

import (
	"fmt"
	"image"
	"math/rand/v2"
	"testing"
)

// Tests of the tile-local component numbers of regions.go: tiles with the
// most components a tile can have, and grids whose sides are not
// multiples of the tile side.

// checker returns the cells of a w × h checkerboard whose free cells are
// those with x+y of the parity p: no two free cells are 4-neighbours, and
// with no corner cutting no diagonal step is legal, so every free cell is
// a region of its own under both connectivities.
func checker(w, h, p int) []bool {
	cells := make([]bool, w*h)
	for i := range cells {
		cells[i] = (i%w+i/w)%2 == p
	}
	return cells
}

// checkTiles checks that each tile of g holds as many components as the
// grid built afresh from cells, and that g matches that grid and the
// oracle in its regions, their sizes and the queries of reach.go.
func checkTiles(g *Grid, cells []bool, conn Connectivity, r *rand.Rand) error {
	f, err := New(g.w, g.h, cells, Options{Connectivity: conn})
	if err != nil {
		return err
	}
	for t := range f.rg.tiles {
		if got, want := len(g.rg.tiles[t].comps), len(f.rg.tiles[t].comps); got != want {
			return fmt.Errorf("tile %d: %d components, want %d", t, got, want)
		}
	}
	if err := samePartition(g, f); err != nil {
		return err
	}
	return checkReach(g, newReachOracle(g.w, g.h, cells, conn), r)
}

// TestRegionsFullTiles labels checkerboards of 3×2 tiles, whose tiles hold
// maxTileComps components each, the most a tile can have, numbered up to
// maxTileComps-1 within it. It then edits one tile: a row opened (its
// cells and those above and below it join), closed again, and its cells
// of the board's parity opened one at a time, which brings the tile back
// to maxTileComps components with IDs reused; after each edit the grid
// must match one built afresh and the oracle. Once warm, such an edit
// allocates nothing.
func TestRegionsFullTiles(t *testing.T) {
	const w, h, row = 3 * tileSide, 2 * tileSide, 10
	for _, conn := range []Connectivity{Eight, Four} {
		for p := range 2 {
			t.Run(fmt.Sprintf("%v/parity=%d", conn, p), func(t *testing.T) {
				r := rand.New(rand.NewPCG(uint64(p), uint64(conn)))
				cells := checker(w, h, p)
				g, err := New(w, h, cells, Options{Connectivity: conn})
				if err != nil {
					t.Fatal(err)
				}
				for tl, tr := range g.rg.tiles {
					if len(tr.comps) != maxTileComps {
						t.Fatalf("tile %d: %d components, want %d", tl, len(tr.comps), maxTileComps)
					}
				}
				if n := g.NumRegions(); n != w*h/2 {
					t.Fatalf("%d regions, want %d", n, w*h/2)
				}
				var top uint16
				for _, c := range g.rg.comp {
					if c != noComp {
						top = max(top, c)
					}
				}
				if top != maxTileComps-1 {
					t.Fatalf("largest number within a tile %d, want %d", top, maxTileComps-1)
				}
				edit := func(rect image.Rectangle, free bool) {
					t.Helper()
					g.SetCells(rect, free)
					applyEdit(cells, w, h, editCase{rect, free, "edit"})
					if err := checkTiles(g, cells, conn, r); err != nil {
						t.Fatalf("after %v free=%v: %v", rect, free, err)
					}
				}
				edit(image.Rect(0, row, tileSide, row+1), true)
				if n := len(g.rg.tiles[0].comps); n >= maxTileComps-tileSide {
					t.Fatalf("the open row left %d components in its tile: it joined nothing", n)
				}
				edit(image.Rect(0, row, tileSide, row+1), false)
				for x := (row + p) % 2; x < tileSide; x += 2 {
					edit(image.Rect(x, row, x+1, row+1), true)
				}
				if n := len(g.rg.tiles[0].comps); n != maxTileComps {
					t.Fatalf("tile 0: %d components after the edits, want %d", n, maxTileComps)
				}
				// An isolated cell closed and opened again, then the same
				// once warm: no allocation.
				cell := image.Rect(row+p%2, row, row+p%2+1, row+1)
				if !g.Passable(cell.Min) {
					t.Fatalf("cell %v is blocked: the test edits nothing", cell.Min)
				}
				toggle := func() {
					g.SetCells(cell, false)
					g.SetCells(cell, true)
				}
				toggle()
				if a := testing.AllocsPerRun(20, toggle); a != 0 {
					t.Errorf("closing and opening a cell of a full tile: %v allocations, want 0", a)
				}
				if err := checkTiles(g, cells, conn, r); err != nil {
					t.Fatalf("after toggling %v: %v", cell.Min, err)
				}
			})
		}
	}
}

// TestRegionsRaggedTiles labels checkerboards whose sides are not
// multiples of the tile side, so that the last column and row of tiles
// are narrower: each tile's components are its free cells, and the grid
// matches one built afresh and the oracle. Then the last row and column
// are opened, which joins the cells along them through the narrow tiles
// into one region, and closed again.
func TestRegionsRaggedTiles(t *testing.T) {
	for _, sz := range []image.Point{{1, 1}, {130, 67}, {65, 2}, {63, 129}, {200, 1}} {
		for _, conn := range []Connectivity{Eight, Four} {
			t.Run(fmt.Sprintf("%d×%d/%v", sz.X, sz.Y, conn), func(t *testing.T) {
				w, h := sz.X, sz.Y
				r := rand.New(rand.NewPCG(uint64(w), uint64(h)))
				cells := checker(w, h, 0)
				g, err := New(w, h, cells, Options{Connectivity: conn})
				if err != nil {
					t.Fatal(err)
				}
				if ntx, nty := (w+tileSide-1)/tileSide, (h+tileSide-1)/tileSide; len(g.rg.tiles) != ntx*nty {
					t.Fatalf("%d tiles, want %d×%d", len(g.rg.tiles), ntx, nty)
				}
				for tl, tr := range g.rg.tiles {
					// The tiles start at even x and y, so their free cells
					// are the ceiling of half their cells.
					x0, y0, x1, y1 := g.tileRect(tl)
					if want := ((x1-x0)*(y1-y0) + 1) / 2; len(tr.comps) != want {
						t.Fatalf("tile %d, [%d, %d) × [%d, %d): %d components, want %d", tl, x0, x1, y0, y1, len(tr.comps), want)
					}
				}
				if err := checkTiles(g, cells, conn, r); err != nil {
					t.Fatal(err)
				}
				edges := []image.Rectangle{image.Rect(0, h-1, w, h), image.Rect(w-1, 0, w, h)}
				for _, free := range []bool{true, false} {
					for _, e := range edges {
						g.SetCells(e, free)
						applyEdit(cells, w, h, editCase{e, free, "edge"})
						if err := checkTiles(g, cells, conn, r); err != nil {
							t.Fatalf("after %v free=%v: %v", e, free, err)
						}
					}
					a, b := image.Pt(0, h-1), image.Pt(w-1, 0)
					if got := g.Connected(a, b); got != free {
						t.Fatalf("edges free=%v: Connected(%v, %v) = %v, want %v", free, a, b, got, free)
					}
				}
			})
		}
	}
}
