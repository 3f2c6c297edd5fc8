package grid_test

import (
	"fmt"
	"image"
	"math"
	"testing"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/go-gl/mathgl/mgl64"
)

// touches reports, in exact integer arithmetic on coordinates in quarters
// of a cell, whether the closed segment a–b meets the closed square of cell
// c: their bounding boxes overlap and the square's corners are not all
// strictly on one side of the segment's line.
func touches(a, b, c image.Point) bool {
	x0, y0, x1, y1 := 4*c.X, 4*c.Y, 4*c.X+4, 4*c.Y+4
	if max(a.X, b.X) < x0 || min(a.X, b.X) > x1 || max(a.Y, b.Y) < y0 || min(a.Y, b.Y) > y1 {
		return false
	}
	neg, pos := false, false
	for _, q := range [4]image.Point{{x0, y0}, {x1, y0}, {x0, y1}, {x1, y1}} {
		cr := (b.X-a.X)*(q.Y-a.Y) - (b.Y-a.Y)*(q.X-a.X)
		neg = neg || cr <= 0
		pos = pos || cr >= 0
	}
	return neg && pos
}

// segmentFreeOracle is SegmentFree by brute force over every cell, with the
// points in quarters of a cell; the grid's outside counts as blocked.
func segmentFreeOracle(g *grid.Grid, a, b image.Point) bool {
	for y := -1; y <= g.Height(); y++ {
		for x := -1; x <= g.Width(); x++ {
			c := image.Pt(x, y)
			if touches(a, b, c) && !g.Passable(c) {
				return false
			}
		}
	}
	return true
}

// TestSegmentFree compares SegmentFree with the brute-force oracle on random
// maps, for segments whose ends lie on a quarter-cell lattice, so that
// segments through grid corners, along cell edges and on the map's edge are
// frequent.
func TestSegmentFree(t *testing.T) {
	quarter := func(p image.Point) mgl64.Vec2 { return mgl64.Vec2{float64(p.X) / 4, float64(p.Y) / 4} }
	for seed := int64(1); seed <= 6; seed++ {
		g := testmap.Random(seed, 13, 11, 0.1*float64(seed-1), grid.Options{})
		r := testmap.NewRand(seed)
		agree := [2]int{}
		for range 3000 {
			a := image.Pt(r.IntN(4*g.Width()+1), r.IntN(4*g.Height()+1))
			b := a
			if r.IntN(4) > 0 {
				b = image.Pt(r.IntN(4*g.Width()+1), r.IntN(4*g.Height()+1))
			}
			if r.IntN(3) == 0 { // short segments, near each other
				b = a.Add(image.Pt(r.IntN(9)-4, r.IntN(9)-4))
			}
			want := segmentFreeOracle(g, a, b)
			if got := g.SegmentFree(quarter(a), quarter(b)); got != want {
				t.Fatalf("seed %d: SegmentFree(%v, %v) = %v, want %v on\n%s", seed, quarter(a), quarter(b), got, want, testmap.Render(g, nil))
			}
			if want {
				agree[1]++
			} else {
				agree[0]++
			}
		}
		if agree[0] == 0 || agree[1] == 0 {
			t.Errorf("seed %d: %d blocked and %d free segments: the test sees one answer only", seed, agree[0], agree[1])
		}
	}
}

// TestSegmentFreeRules pins the corner and edge cases by name.
func TestSegmentFreeRules(t *testing.T) {
	g, err := grid.FromRows([]string{
		".....",
		".#...",
		"..#..",
		".....",
	}, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	v := func(x, y float64) mgl64.Vec2 { return mgl64.Vec2{x, y} }
	for _, tc := range []struct {
		name string
		a, b mgl64.Vec2
		want bool
	}{
		{"inside one free cell", v(0.2, 0.3), v(0.8, 0.9), true},
		{"into a blocked cell", v(0.5, 1.5), v(1.5, 1.5), false},
		{"between diagonal walls through their shared corner", v(1.5, 2.5), v(2.5, 1.5), false},
		{"around the walls", v(0.5, 0.5), v(4.5, 0.5), true},
		{"along the edge of a wall", v(1, 0.5), v(1, 3.5), false},
		{"along a free edge", v(4, 0.5), v(4, 3.5), true},
		{"on the map's edge", v(0, 0.5), v(0, 3.5), false},
		{"off the map", v(-0.5, 0.5), v(0.5, 0.5), false},
		{"a point", v(3.5, 3.5), v(3.5, 3.5), true},
		{"a point on a wall", v(2.5, 2.5), v(2.5, 2.5), false},
		{"not a number", v(math.NaN(), 0.5), v(0.5, 0.5), false},
		{"infinite", v(0.5, 0.5), v(math.Inf(1), 0.5), false},
	} {
		if got := g.SegmentFree(tc.a, tc.b); got != tc.want {
			t.Errorf("%s: SegmentFree(%v, %v) = %v, want %v", tc.name, tc.a, tc.b, got, tc.want)
		}
		if got := g.SegmentFree(tc.b, tc.a); got != tc.want {
			t.Errorf("%s, reversed: SegmentFree(%v, %v) = %v, want %v", tc.name, tc.b, tc.a, got, tc.want)
		}
	}
}

// TestSegmentFreeAllocs checks that SegmentFree does not allocate.
func TestSegmentFreeAllocs(t *testing.T) {
	g := testmap.Random(3, 64, 64, 0.2, grid.Options{})
	a, b := mgl64.Vec2{1.5, 2.25}, mgl64.Vec2{60.5, 41.75}
	if n := testing.AllocsPerRun(100, func() { g.SegmentFree(a, b) }); n != 0 {
		t.Errorf("SegmentFree allocates %v times a call", n)
	}
}

func ExampleGrid_SegmentFree() {
	g, _ := grid.FromRows([]string{
		"...",
		".#.",
		"...",
	}, grid.Options{})
	fmt.Println(g.SegmentFree(mgl64.Vec2{0.5, 0.5}, mgl64.Vec2{2.5, 0.5})) // along the top row
	fmt.Println(g.SegmentFree(mgl64.Vec2{0.5, 0.5}, mgl64.Vec2{2.5, 2.5})) // through the wall
	fmt.Println(g.SegmentFree(mgl64.Vec2{0.5, 1}, mgl64.Vec2{2.5, 1}))     // along the wall's top edge
	// Output:
	// true
	// false
	// false
}
