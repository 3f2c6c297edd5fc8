package grid_test

import (
	"fmt"
	"image"
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
)

func TestTransformToCell(t *testing.T) {
	v := func(x, y float64) mgl64.Vec2 { return mgl64.Vec2{x, y} }
	tests := []struct {
		name string
		tr   grid.Transform
		p    mgl64.Vec2
		want image.Point
	}{
		{"zero value is the identity", grid.Transform{}, v(2.5, 3.99), image.Pt(2, 3)},
		{"cell corner belongs to the cell", grid.Transform{}, v(2, 3), image.Pt(2, 3)},
		{"negative coordinates floor down", grid.Transform{}, v(-0.5, -1), image.Pt(-1, -1)},
		{"just below zero", grid.Transform{}, v(-1e-12, 1e-12), image.Pt(-1, 0)},
		{"cell size 32", grid.Transform{CellSize: 32}, v(63.9, 64), image.Pt(1, 2)},
		{"cell size 0.5", grid.Transform{CellSize: 0.5}, v(1.25, -0.25), image.Pt(2, -1)},
		{"origin shifts", grid.Transform{CellSize: 2, Origin: v(-10, 4)}, v(-10, 4), image.Pt(0, 0)},
		{"left of the origin", grid.Transform{CellSize: 2, Origin: v(-10, 4)}, v(-10.5, 3.9), image.Pt(-1, -1)},
		{"non-integer size", grid.Transform{CellSize: 0.3, Origin: v(0.1, 0.1)}, v(1, 1), image.Pt(3, 3)},
		{"NaN saturates low", grid.Transform{}, v(math.NaN(), 1), image.Pt(math.MinInt, 1)},
		{"+Inf saturates high", grid.Transform{}, v(math.Inf(1), math.Inf(-1)), image.Pt(math.MaxInt, math.MinInt)},
		{"beyond int saturates", grid.Transform{}, v(1e300, -1e300), image.Pt(math.MaxInt, math.MinInt)},
		{"2^63 saturates", grid.Transform{}, v(0x1p63, -0x1p63), image.Pt(math.MaxInt, math.MinInt)},
		{"just below 2^63", grid.Transform{}, v(0x1p62, -0x1p62), image.Pt(1<<62, -1<<62)},
		{"NaN origin", grid.Transform{Origin: v(math.NaN(), 0)}, v(1, 1), image.Pt(math.MinInt, 1)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.tr.ToCell(tc.p); got != tc.want {
				t.Errorf("%+v.ToCell(%v) = %v, want %v", tc.tr, tc.p, got, tc.want)
			}
		})
	}
}

// TestTransformRoundTrip checks on many sizes and origins that ToGrid and
// ToWorld are inverse up to rounding, that a cell's centre lies in the cell,
// and that ToGrid of a cell's corner is the cell's integer coordinates.
func TestTransformRoundTrip(t *testing.T) {
	r := testmap.NewRand(7)
	sizes := []float64{0, 1, 0.5, 2, 32, 0.1, 0.3, 1.7, 1e-3, 1e4, math.Pi}
	for _, s := range sizes {
		for k := range 20 {
			o := mgl64.Vec2{(r.Float64() - 0.5) * 1e4, (r.Float64() - 0.5) * 1e4}
			if k == 0 {
				o = mgl64.Vec2{}
			}
			tr := grid.Transform{CellSize: s, Origin: o}
			if err := tr.Check(); err != nil {
				t.Fatalf("%+v.Check() = %v, want nil", tr, err)
			}
			size := s
			if size == 0 {
				size = 1
			}
			for range 50 {
				c := image.Pt(r.IntN(20001)-10000, r.IntN(20001)-10000)
				centre := tr.CellCentre(c)
				if got := tr.ToCell(centre); got != c {
					t.Fatalf("%+v: ToCell(CellCentre(%v) = %v) = %v", tr, c, centre, got)
				}
				q := mgl64.Vec2{float64(c.X) + r.Float64(), float64(c.Y) + r.Float64()}
				back := tr.ToGrid(tr.ToWorld(q))
				// The error is a few ulps of the world coordinates, in cells.
				tol := 8 * 0x1p-52 * (max(math.Abs(o[0]), math.Abs(o[1])) + 2e4*size) / size
				if math.Abs(back[0]-q[0]) > tol || math.Abs(back[1]-q[1]) > tol {
					t.Fatalf("%+v: ToGrid(ToWorld(%v)) = %v, off by more than %g", tr, q, back, tol)
				}
				w := tr.ToWorld(q)
				want := mgl64.Vec2{o[0] + q[0]*size, o[1] + q[1]*size}
				if w != want {
					t.Fatalf("%+v: ToWorld(%v) = %v, want %v", tr, q, w, want)
				}
			}
		}
	}
}

// TestTransformExactEdges checks that with power-of-two cell sizes and an
// origin on the lattice, corners map to exact grid coordinates and belong
// to the cell they are the top-left corner of.
func TestTransformExactEdges(t *testing.T) {
	for _, s := range []float64{0.25, 0.5, 1, 2, 16, 32} {
		tr := grid.Transform{CellSize: s, Origin: mgl64.Vec2{-3 * s, 5 * s}}
		for y := -4; y <= 4; y++ {
			for x := -4; x <= 4; x++ {
				corner := tr.ToWorld(mgl64.Vec2{float64(x), float64(y)})
				if got := tr.ToGrid(corner); got != (mgl64.Vec2{float64(x), float64(y)}) {
					t.Fatalf("size %v: ToGrid(%v) = %v, want (%d,%d)", s, corner, got, x, y)
				}
				if got := tr.ToCell(corner); got != image.Pt(x, y) {
					t.Fatalf("size %v: ToCell(corner %v) = %v, want (%d,%d)", s, corner, got, x, y)
				}
			}
		}
	}
}

func TestTransformCheck(t *testing.T) {
	tests := []struct {
		tr   grid.Transform
		want string // "" when valid
	}{
		{grid.Transform{}, ""},
		{grid.Transform{CellSize: 0.25, Origin: mgl64.Vec2{-1e9, 3}}, ""},
		{grid.Transform{CellSize: -1}, "cell size -1"},
		{grid.Transform{CellSize: math.NaN()}, "cell size NaN"},
		{grid.Transform{CellSize: math.Inf(1)}, "cell size +Inf"},
		{grid.Transform{Origin: mgl64.Vec2{0, math.Inf(-1)}}, "origin (0, -Inf)"},
		{grid.Transform{Origin: mgl64.Vec2{math.NaN(), 0}}, "origin (NaN, 0)"},
	}
	for _, tc := range tests {
		err := tc.tr.Check()
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "grid: ")) {
			t.Errorf("%+v.Check() = %v, want %q", tc.tr, err, tc.want)
		}
	}
	// A bad transform gives harmless values, never a panic.
	for _, tr := range []grid.Transform{{CellSize: -2}, {CellSize: math.NaN()}, {CellSize: math.Inf(1)}} {
		_ = tr.ToCell(mgl64.Vec2{1, 1})
		_ = tr.CellCentre(image.Pt(1, 1))
	}
}

// TestTransformSegmentFree uses a transform with the grid's own line of
// sight: world points go through ToGrid into SegmentFree.
func TestTransformSegmentFree(t *testing.T) {
	g, err := grid.FromRows([]string{
		"....",
		".##.",
		"....",
	}, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tr := grid.Transform{CellSize: 0.5, Origin: mgl64.Vec2{10, 20}}
	a, b := tr.CellCentre(image.Pt(0, 0)), tr.CellCentre(image.Pt(3, 0))
	if !g.SegmentFree(tr.ToGrid(a), tr.ToGrid(b)) {
		t.Errorf("top row %v→%v blocked, want free", a, b)
	}
	a, b = tr.CellCentre(image.Pt(0, 1)), tr.CellCentre(image.Pt(3, 1))
	if g.SegmentFree(tr.ToGrid(a), tr.ToGrid(b)) {
		t.Errorf("middle row %v→%v free, want blocked", a, b)
	}
}

func ExampleTransform() {
	// A game whose cells are 0.5 m squares, with the grid's corner at
	// (-8 m, 2 m).
	tr := grid.Transform{CellSize: 0.5, Origin: mgl64.Vec2{-8, 2}}
	c := tr.ToCell(mgl64.Vec2{-6.9, 2.2})
	q := tr.ToGrid(mgl64.Vec2{-6.9, 2.2})
	fmt.Printf("cell %v, centre %v, grid (%.2f, %.2f)\n", c, tr.CellCentre(c), q.X(), q.Y())
	fmt.Println("left of and above the grid:", tr.ToCell(mgl64.Vec2{-8.1, 1.9}))
	// Output:
	// cell (2,0), centre [-6.75 2.25], grid (2.20, 0.40)
	// left of and above the grid: (-1,-1)
}
