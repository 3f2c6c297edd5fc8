package grid_test

import (
	"fmt"
	"image"
	"math"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
)

// keptBrute is the erosion oracle: a free cell is kept when no blocked cell
// (the outside included) within the radius plus one has a square-to-square
// distance below r. It looks at every cell of a window of the radius, so it
// serves only small maps and radii.
func keptBrute(g *grid.Grid, r float64) []bool {
	w, h := g.Width(), g.Height()
	reach := int(math.Ceil(r)) + 1
	gap := func(d int) float64 { return float64(max(d-1, -d-1, 0)) }
	out := make([]bool, w*h)
	for y := range h {
		for x := range w {
			if !g.Passable(image.Pt(x, y)) {
				continue
			}
			ok := true
			for dy := -reach; dy <= reach && ok; dy++ {
				for dx := -reach; dx <= reach && ok; dx++ {
					if gx, gy := gap(dx), gap(dy); gx*gx+gy*gy < r*r && !g.Passable(image.Pt(x+dx, y+dy)) {
						ok = false
					}
				}
			}
			out[y*w+x] = ok
		}
	}
	return out
}

// TestErodeMatchesBruteForce compares Erode with the brute-force oracle on
// seeded random maps and radii whose squares fall on, just below and just
// above whole numbers.
func TestErodeMatchesBruteForce(t *testing.T) {
	radii := []float64{0, 0.4, 1, math.Sqrt2, 1.5, 2, math.Sqrt(5), 2.5, 3, math.Nextafter(3, 0), math.Nextafter(3, 4), 4.2, 7}
	for seed := int64(1); seed <= 10; seed++ {
		w, h := 20+int(seed)*7, 15+int(seed)*5
		g := testmap.Random(seed, w, h, 0.02*float64(seed%4+1), grid.Options{})
		for _, r := range radii {
			got, err := g.Erode(r)
			if err != nil {
				t.Fatal(err)
			}
			want := keptBrute(g, r)
			for y := range h {
				for x := range w {
					if p := image.Pt(x, y); got.Passable(p) != want[y*w+x] {
						t.Fatalf("seed %d, radius %v: cell %v kept %v, want %v\n%s", seed, r, p, got.Passable(p), want[y*w+x], testmap.Render(g, []image.Point{p}))
					}
				}
			}
		}
	}
}

// TestErodeSketch shows erosion on a drawn map: the corridor three cells
// wide keeps its middle row for r ≤ 1 and closes above, and the room keeps
// its centre cell up to r = 3.
func TestErodeSketch(t *testing.T) {
	g, err := grid.FromRows([]string{
		"################",
		"#.......########",
		"#.......########",
		"#..............#",
		"#..............#",
		"#..............#",
		"#.......########",
		"#.......########",
		"################",
	}, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		r    float64
		want string
	}{
		{0.5, `
################
################
##.....#########
##.....#########
##............##
##.....#########
##.....#########
################
################`},
		{1, `
################
################
##.....#########
##.....#########
##............##
##.....#########
##.....#########
################
################`},
		{1.1, `
################
################
################
###...##########
###....#########
###...##########
################
################
################`},
		{2.01, `
################
################
################
################
####..##########
################
################
################
################`},
		{3, `
################
################
################
################
####.###########
################
################
################
################`},
		{math.Nextafter(3, 4), `
################
################
################
################
################
################
################
################
################`},
	}
	for _, tc := range tests {
		e, err := g.Erode(tc.r)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := testmap.Render(e, nil), strings.TrimPrefix(tc.want, "\n")+"\n"; got != want {
			t.Errorf("radius %v: got\n%s\nwant\n%s", tc.r, got, want)
		}
	}
}

// TestErodeHugeRadius checks radii far beyond the map, up to the largest
// float64: nothing is kept (a radius of 2⁶³ and more once wrapped to a
// negative reach and kept every free cell), and the answer comes in one
// pass over the cells.
func TestErodeHugeRadius(t *testing.T) {
	g := testmap.Random(3, 300, 200, 0.01, grid.Options{})
	for _, r := range []float64{150, 1e5, 1e6, 1 << 62, 1 << 63, 1e19, 1e200, math.MaxFloat64} {
		e, err := g.Erode(r)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(testmap.FreeCells(e)); n != 0 {
			t.Errorf("radius %v keeps %d cells of a 300×200 map, want 0", r, n)
		}
	}
	for _, r := range []float64{-1, math.NaN(), math.Inf(1), math.Inf(-1)} {
		if _, err := g.Erode(r); err == nil || !strings.HasPrefix(err.Error(), "grid: ") {
			t.Errorf("radius %v: error %v, want a grid error", r, err)
		}
	}
}

// TestErodeKeepsOptions checks that connectivity and terrain costs carry
// over to the eroded grid.
func TestErodeKeepsOptions(t *testing.T) {
	g := testmap.RandomCosts(5, 40, 30, 0.02, 5, grid.Four)
	e, err := g.Erode(1)
	if err != nil {
		t.Fatal(err)
	}
	if e.Connectivity() != grid.Four || !e.HasCosts() {
		t.Fatalf("eroded grid is %v with costs %v, want 4-connected with costs", e.Connectivity(), e.HasCosts())
	}
	kept := 0
	for _, p := range testmap.FreeCells(e) {
		kept++
		if e.Cost(p) != g.Cost(p) {
			t.Fatalf("cell %v costs %v, want %v", p, e.Cost(p), g.Cost(p))
		}
	}
	if kept == 0 {
		t.Fatal("nothing kept: the test checks nothing")
	}
}

func ExampleGrid_Erode() {
	g, _ := grid.FromRows([]string{
		"########",
		"#......#",
		"#......#",
		"#......#",
		"#......#",
		"########",
	}, grid.Options{})
	e, _ := g.Erode(1)
	fmt.Print(testmap.Render(e, nil))
	// Output:
	// ########
	// ########
	// ##....##
	// ##....##
	// ########
	// ########
}

// FuzzErode compares Erode with the brute-force oracle on small grids made
// from the fuzzer's bytes (one bit a cell) and any radius it finds.
func FuzzErode(f *testing.F) {
	f.Add(uint8(9), []byte{0xff, 0x0f, 0xf0, 0x81, 0x7e, 0xff, 0xff, 0xff, 0xff, 0xff}, 1.5)
	f.Add(uint8(3), []byte{0xff}, 0.0)
	f.Add(uint8(16), []byte{0xff, 0xff, 0xff, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xdf, 0xff, 0xff, 0xff, 0xff}, math.Sqrt(8))
	f.Fuzz(func(t *testing.T, width uint8, bits []byte, r float64) {
		w := int(width%24) + 1
		if len(bits) == 0 || len(bits) > 72 {
			return
		}
		h := (len(bits)*8 + w - 1) / w
		free := make([]bool, w*h)
		for i := range free {
			free[i] = i/8 < len(bits) && bits[i/8]&(1<<(i%8)) != 0
		}
		g, err := grid.New(w, h, free, grid.Options{})
		if err != nil {
			t.Fatal(err)
		}
		e, err := g.Erode(r)
		if math.IsNaN(r) || math.IsInf(r, 0) || r < 0 {
			if err == nil {
				t.Fatalf("radius %v: no error", r)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		want := keptBrute(g, math.Min(r, 64)) // beyond the map, 64 keeps nothing either
		for y := range h {
			for x := range w {
				if p := image.Pt(x, y); e.Passable(p) != want[y*w+x] {
					t.Fatalf("radius %v: cell %v kept %v, want %v\n%s", r, p, e.Passable(p), want[y*w+x], testmap.Render(g, []image.Point{p}))
				}
			}
		}
	})
}
