package grid_test

import (
	"fmt"
	"image"
	"testing"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
)

// TestWithCellsMatchesFreshGrid edits random rectangles of random grids and
// checks the edited grid answers exactly as one built from scratch.
func TestWithCellsMatchesFreshGrid(t *testing.T) {
	for seed := int64(1); seed <= 12; seed++ {
		for _, conn := range []grid.Connectivity{grid.Eight, grid.Four} {
			t.Run(fmt.Sprintf("seed=%d/%v", seed, conn), func(t *testing.T) {
				const w, h = 70, 45 // past one 64-bit word per row
				g := testmap.Random(seed, w, h, 0.25, grid.Options{Connectivity: conn})
				r := testmap.NewRand(seed)
				x0, y0 := r.IntN(w+4)-2, r.IntN(h+4)-2
				rect := image.Rect(x0, y0, x0+r.IntN(20), y0+r.IntN(20))
				free := r.IntN(2) == 0
				edited := g.WithCells(rect, free)

				cells := make([]bool, w*h)
				for y := range h {
					for x := range w {
						p := image.Pt(x, y)
						cells[y*w+x] = g.Passable(p)
						if p.In(rect) {
							cells[y*w+x] = free
						}
					}
				}
				fresh, err := grid.New(w, h, cells, grid.Options{Connectivity: conn})
				if err != nil {
					t.Fatal(err)
				}
				if edited.NumRegions() != fresh.NumRegions() {
					t.Fatalf("seed %d: %d regions after the edit, want %d", seed, edited.NumRegions(), fresh.NumRegions())
				}
				for y := range h {
					for x := range w {
						p := image.Pt(x, y)
						if edited.Passable(p) != fresh.Passable(p) {
							t.Fatalf("seed %d: Passable(%v) = %v, want %v", seed, p, edited.Passable(p), fresh.Passable(p))
						}
						for dy := -1; dy <= 1; dy++ {
							for dx := -1; dx <= 1; dx++ {
								q := p.Add(image.Pt(dx, dy))
								if edited.CanStep(p, q) != fresh.CanStep(p, q) {
									t.Fatalf("seed %d: CanStep(%v, %v) = %v, want %v", seed, p, q, edited.CanStep(p, q), fresh.CanStep(p, q))
								}
							}
						}
					}
				}
				es, fs := grid.NewSearcher(edited), grid.NewSearcher(fresh)
				for _, pr := range testmap.RandomPairs(r, fresh, 60) {
					a, b := pr[0], pr[1]
					if edited.Connected(a, b) != fresh.Connected(a, b) {
						t.Fatalf("seed %d: Connected(%v, %v) = %v, want %v", seed, a, b, edited.Connected(a, b), fresh.Connected(a, b))
					}
					if edited.LineOfSight(a, b) != fresh.LineOfSight(a, b) {
						t.Fatalf("seed %d: LineOfSight(%v, %v) differs", seed, a, b)
					}
					_, er, err1 := es.AppendPath(nil, a, b, grid.Query{})
					_, fr, err2 := fs.AppendPath(nil, a, b, grid.Query{})
					if (err1 == nil) != (err2 == nil) || er.Status != fr.Status || er.Cost != fr.Cost {
						t.Fatalf("seed %d: %v→%v on the edited grid: %+v %v, want %+v %v", seed, a, b, er, err1, fr, err2)
					}
				}
				// The original is untouched.
				if g.NumRegions() == 0 && edited.NumRegions() == 0 {
					t.Fatal("no regions at all")
				}
			})
		}
	}
}

func TestWithCellsLeavesOriginal(t *testing.T) {
	g, err := grid.FromRows([]string{"....", "....", "...."}, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	e := g.WithCells(image.Rect(1, 0, 2, 3), false)
	if !g.Passable(image.Pt(1, 1)) || e.Passable(image.Pt(1, 1)) {
		t.Fatal("edit changed the original or missed the copy")
	}
	if g.NumRegions() != 1 || e.NumRegions() != 2 {
		t.Fatalf("regions %d and %d, want 1 and 2", g.NumRegions(), e.NumRegions())
	}
}
