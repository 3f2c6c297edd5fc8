package gridcheck

import (
	"image"
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/cairn-nav/cairn/grid"
)

func gridOf(t *testing.T, drawing string) *grid.Grid {
	t.Helper()
	g, err := grid.FromRows(strings.Split(strings.TrimSpace(drawing), "\n"), grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// legalMap has a wall of two cells, 1,1 and 2,1, and a cell 3,2 diagonal to
// the wall's end, so that grid corner 3,2 is pinched: its top-left and
// bottom-right cells are blocked.
//
//	  0 1 2 3 4 5
//	0 . . . . . .
//	1 . @ @ . . .
//	2 . . . @ . .
//	3 . . . . . .
const legalMap = `
......
.@@...
...@..
......`

func TestLeg(t *testing.T) {
	g := gridOf(t, legalMap)
	c := New(g, 0)
	v := func(x, y float64) mgl64.Vec2 { return mgl64.Vec2{x, y} }
	tests := []struct {
		name string
		a, b mgl64.Vec2
		want string // "" for a legal leg, else part of the error
	}{
		{"open row", v(0.5, 0.5), v(5.5, 0.5), ""},
		{"open diagonal", v(0.5, 3.5), v(2.5, 2.5), ""},
		{"crosses a wall", v(0.5, 1.5), v(5.5, 1.5), "crosses blocked cell 1,1"},
		{"crosses a wall's corner", v(0.5, 0.5), v(2.5, 2.5), "crosses blocked cell 1,1"},
		{"along the wall's top", v(0.5, 1), v(4, 1), ""},
		{"along the wall's bottom to its end", v(0, 2), v(3, 2), ""},
		{"grazes a wall's corner", v(0.5, 2.5), v(1.5, 0.5), "crosses blocked cell 1,1"},
		{"touches a wall's corner", v(0, 0), v(2, 4), ""},
		{"between two blocked cells", v(2, 0.5), v(2, 2.5), "runs between blocked cells 1,1 and 2,1"},
		{"through the pinched corner", v(3.5, 1.5), v(2.5, 2.5), "passes through pinched corner 3,2"},
		{"through the pinched corner, long", v(4.5, 0.5), v(1.5, 3.5), "passes through pinched corner 3,2"},
		{"to the pinched corner", v(3.5, 1.5), v(3, 2), ""},
		{"from the pinched corner", v(3, 2), v(1.5, 3.5), ""},
		{"beside the pinched corner", v(3.5, 1.5), v(2.5, 2.375), "crosses blocked cell 2,1"},
		{"along the map's edge", v(0, 0.5), v(0, 3.5), ""},
		{"along the map's top", v(0.5, 0), v(5.5, 0), ""},
		{"out of the map", v(0.5, 0.5), v(-0.5, 0.5), "crosses blocked cell -1,0"},
		{"a point", v(4.5, 2.5), v(4.5, 2.5), ""},
		{"a point in a wall", v(1.5, 1.5), v(1.5, 1.5), "not in the free space"},
		{"off the lattice", v(0.1, 0.5), v(3.5, 0.5), "not on the 1/65536 lattice"},
		{"NaN", v(math.NaN(), 0.5), v(3.5, 0.5), "lattice"},
		{"far away", v(1e12, 0.5), v(3.5, 0.5), "lattice"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, ends := range [][2]mgl64.Vec2{{tc.a, tc.b}, {tc.b, tc.a}} {
				err := c.Leg(ends[0], ends[1])
				if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
					t.Errorf("leg %v–%v: got %v, want %q\n%s", ends[0], ends[1], err, tc.want, strings.TrimSpace(legalMap))
				}
			}
		})
	}
}

func TestCheckPath(t *testing.T) {
	g := gridOf(t, legalMap)
	c := New(g, 0)
	from, to := mgl64.Vec2{3.5, 1.5}, mgl64.Vec2{1.5, 3.5}
	tests := []struct {
		name     string
		path     []mgl64.Vec2
		from, to mgl64.Vec2
		want     string
	}{
		{"round the wall's end", []mgl64.Vec2{from, {4, 2}, {4, 3}, to}, from, to, ""},
		{"turns at the pinched corner", []mgl64.Vec2{from, {3, 2}, to}, from, to, "point 1: point 3.000000,2.000000 is a pinched corner"},
		{"ends at the pinched corner", []mgl64.Vec2{from, {3, 2}}, from, mgl64.Vec2{3, 2}, ""},
		{"empty", nil, from, to, "empty path"},
		{"wrong end", []mgl64.Vec2{from, {4, 2}, {4, 3}}, from, to, "path runs from 3.500000,1.500000 to 4.000000,3.000000"},
		{"one point for two", []mgl64.Vec2{from}, from, from.Add(mgl64.Vec2{1, 0}), "path runs from"},
		{"one point", []mgl64.Vec2{from}, from, from, ""},
		{"repeated point", []mgl64.Vec2{from, {4, 2}, {4, 2}, {4, 3}, to}, from, to, "point 2 repeats 4.000000,2.000000"},
		{"a leg through a wall", []mgl64.Vec2{from, {4, 2}, {0.5, 1.5}}, from, mgl64.Vec2{0.5, 1.5}, "leg 2 from 4.000000,2.000000 to 0.500000,1.500000 crosses blocked cell"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			length, err := c.Path(tc.path, tc.from, tc.to)
			if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
			if err == nil {
				var want float64
				for i := 1; i < len(tc.path); i++ {
					want += tc.path[i].Sub(tc.path[i-1]).Len()
				}
				if length != want {
					t.Errorf("length %v, want %v", length, want)
				}
			}
		})
	}
}

// TestClearance checks the distance test of -radius on a room with one
// blocked cell, 3,2.
func TestClearance(t *testing.T) {
	g := gridOf(t, `
........
........
...@....
........
........`)
	v := func(x, y float64) mgl64.Vec2 { return mgl64.Vec2{x, y} }
	tests := []struct {
		name string
		r    float64
		a, b mgl64.Vec2
		want string
	}{
		{"point agent by the wall", 0, v(0.5, 1.9), v(7.5, 1.9), ""},
		{"above the cell by 0.5", 0.5, v(0.5, 1.5), v(7.5, 1.5), ""},
		{"above the cell by 0.4", 0.5, v(0.5, 1.6), v(7.5, 1.6), "passes 0.400000 from blocked cell 3,2"},
		{"past its corner by 0.5", 0.5, v(4.5, 0.5), v(4.5, 4.5), ""},
		{"past its corner diagonally", 0.5, v(1.5, 4.5), v(4.5, 1.5), "from blocked cell 3,2"},
		{"by the map's top", 0.5, v(0.5, 0.4), v(7.5, 0.4), "passes 0.400000 from the map's edge at"},
		{"by the map's left", 0.5, v(0.3, 0.5), v(0.3, 4.5), "from the map's edge at -1,"},
		{"by the map's corner", 0.5, v(7.6, 4.6), v(7.6, 4.6), "the map's edge"},
		{"beside the cell", 1, v(2.5, 1.5), v(2.5, 3.5), "passes 0.500000 from blocked cell 3,2"},
		{"just inside the radius", 1, v(5, 1), v(5, 4), ""},
		{"a point", 1.5, v(6, 2.5), v(6, 2.5), ""},
		{"a point too near", 1.5, v(5.4, 2.5), v(5.4, 2.5), "passes 1.400000 from blocked cell 3,2"},
		// Radii of 2⁶³ and more once overflowed the cell range to an empty
		// one, so that nothing was checked.
		{"radius 2^63", 1 << 63, v(0.5, 0.5), v(7.5, 0.5), "from the map's edge at -1,"},
		{"radius 1e19", 1e19, v(0.5, 1.5), v(0.5, 3.5), "from the map's edge at -1,"},
		{"the largest radius", math.MaxFloat64, v(4.5, 3.5), v(4.5, 3.5), "from"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := New(g, tc.r).Clearance(tc.a, tc.b)
			if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
				t.Errorf("got %v, want %q", err, tc.want)
			}
		})
	}
}

// TestKeptGrid checks which cells an agent of each radius may stand on: a
// cell whose every point keeps the radius from the blocked cell 5,4 and the
// map's edge.
func TestKeptGrid(t *testing.T) {
	open := `
...........
...........
...........
...........
.....@.....
...........
...........
...........
...........`
	g := gridOf(t, open)
	tests := []struct {
		r    float64
		want string // kept cells as '.'
	}{
		{0, open},
		{0.5, `
@@@@@@@@@@@
@.........@
@.........@
@...@@@...@
@...@@@...@
@...@@@...@
@.........@
@.........@
@@@@@@@@@@@`},
		// Cells exactly 1 from a wall stay.
		{1, `
@@@@@@@@@@@
@.........@
@.........@
@...@@@...@
@...@@@...@
@...@@@...@
@.........@
@.........@
@@@@@@@@@@@`},
		// Cells two away diagonally are √2 from the wall: kept for 1.4, not 1.5.
		{1.5, `
@@@@@@@@@@@
@@@@@@@@@@@
@@.@@@@@.@@
@@.@@@@@.@@
@@.@@@@@.@@
@@.@@@@@.@@
@@.@@@@@.@@
@@@@@@@@@@@
@@@@@@@@@@@`},
		{1.4, `
@@@@@@@@@@@
@@@@@@@@@@@
@@..@@@..@@
@@.@@@@@.@@
@@.@@@@@.@@
@@.@@@@@.@@
@@..@@@..@@
@@@@@@@@@@@
@@@@@@@@@@@`},
	}
	for _, tc := range tests {
		kept, err := New(g, tc.r).Kept()
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for y := range kept.Height() {
			b.WriteByte('\n')
			for x := range kept.Width() {
				if kept.Passable(image.Pt(x, y)) {
					b.WriteByte('.')
				} else {
					b.WriteByte('@')
				}
			}
		}
		if got := b.String(); got != strings.TrimRight(tc.want, "\n") {
			t.Errorf("radius %v: got%s\nwant%s", tc.r, got, tc.want)
		}
	}
}

// TestCheckerScale checks that the lattice coarsens on maps too wide for
// exact products at 1/65536 of a cell.
func TestCheckerScale(t *testing.T) {
	for _, tc := range []struct{ w, scale int64 }{{64, 1 << 16}, {16000, 1 << 16}, {16382, 1 << 16}, {16383, 1 << 15}, {40000, 1 << 14}} {
		free := make([]bool, tc.w)
		for i := range free {
			free[i] = true
		}
		g, err := grid.New(int(tc.w), 1, free, grid.Options{})
		if err != nil {
			t.Fatal(err)
		}
		c := New(g, 0)
		if c.scale != tc.scale {
			t.Errorf("width %d: scale %d, want %d", tc.w, c.scale, tc.scale)
		}
		end := mgl64.Vec2{float64(tc.w) - 0.5, 0.5}
		if err := c.Leg(mgl64.Vec2{0.5, 0.5}, end); err != nil {
			t.Errorf("width %d: %v", tc.w, err)
		}
	}
}
