package meshcheck_test

import (
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/paulmach/orb"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/meshcheck"
	"github.com/cairn-nav/cairn/navmesh"
)

// squareWithHole is the 10×10 square with the 4×4 hole [3, 7]².
func squareWithHole(t *testing.T) *navmesh.Mesh {
	t.Helper()
	ring := func(x0, y0, x1, y1 float64) orb.Ring {
		return orb.Ring{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}, {x0, y0}}
	}
	m, err := navmesh.FromPolygon(orb.Polygon{ring(0, 0, 10, 10), ring(3, 3, 7, 7)}, navmesh.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestLeave checks Leave's answers, and where a segment leaves, on
// segments whose answers are known by hand.
func TestLeave(t *testing.T) {
	c := meshcheck.New(squareWithHole(t))
	for _, tc := range []struct {
		a, b  mgl64.Vec2
		leave bool
		t     *big.Rat // where it leaves, when it does
	}{
		{mgl64.Vec2{1, 1}, mgl64.Vec2{9, 1}, false, nil},                    // below the hole
		{mgl64.Vec2{1, 3}, mgl64.Vec2{9, 3}, false, nil},                    // along the hole's lower side
		{mgl64.Vec2{3, 3}, mgl64.Vec2{7, 7}, true, new(big.Rat)},            // across the hole from its corner
		{mgl64.Vec2{1, 5}, mgl64.Vec2{9, 5}, true, big.NewRat(1, 4)},        // into the hole at x = 3
		{mgl64.Vec2{5, 1}, mgl64.Vec2{5, 12}, true, big.NewRat(2, 11)},      // into the hole at y = 3
		{mgl64.Vec2{9, 9}, mgl64.Vec2{11, 9}, true, big.NewRat(1, 2)},       // out of the square at x = 10
		{mgl64.Vec2{0, 0}, mgl64.Vec2{10, 0}, false, nil},                   // along the outer wall
		{mgl64.Vec2{5, 5}, mgl64.Vec2{9, 9}, true, new(big.Rat)},            // from inside the hole
		{mgl64.Vec2{2, 2}, mgl64.Vec2{2, 2}, false, nil},                    // a point on the mesh
		{mgl64.Vec2{2, 8}, mgl64.Vec2{8, 2}, true, big.NewRat(1, 6)},        // into the hole at (3, 7)
		{mgl64.Vec2{0, 10}, mgl64.Vec2{3, 7}, false, nil},                   // to the hole's corner
		{mgl64.Vec2{-1, 0}, mgl64.Vec2{1, 1}, true, new(big.Rat)},           // from off the mesh
		{mgl64.Vec2{1, 1}, mgl64.Vec2{math.Nextafter(3, 4), 5}, true, nil},  // just into the hole
		{mgl64.Vec2{1, 1}, mgl64.Vec2{math.Nextafter(3, 2), 5}, false, nil}, // just short of it
	} {
		leave, at := c.Leave(tc.a, tc.b)
		if leave != tc.leave || (leave && tc.t != nil && at.Cmp(tc.t) != 0) {
			t.Errorf("Leave(%v, %v) = %v at t = %v, want %v at %v", tc.a, tc.b, leave, at.RatString(), tc.leave, tc.t)
		}
		if !leave && at.Cmp(big.NewRat(1, 1)) != 0 {
			t.Errorf("Leave(%v, %v): clear, but t = %v, want 1", tc.a, tc.b, at.RatString())
		}
	}
}

// TestPath checks Path's length and its errors: a path round the hole, one
// through it, one that does not start where asked, a point off the mesh.
func TestPath(t *testing.T) {
	c := meshcheck.New(squareWithHole(t))
	from, to := mgl64.Vec2{1, 5}, mgl64.Vec2{9, 5}
	round := []mgl64.Vec2{from, {3, 7}, {7, 7}, to}
	got, err := c.Path(round, from, to)
	if want := 2*math.Hypot(2, 2) + 4; err != nil || math.Abs(got-want) > 1e-12 {
		t.Errorf("round the hole: %v, %v; want %v", got, err, want)
	}
	for _, tc := range []struct {
		path     []mgl64.Vec2
		from, to mgl64.Vec2
		err      string
	}{
		{[]mgl64.Vec2{from, to}, from, to, "leaves the mesh"},
		{round, to, from, "starts at"},
		{round[:3], from, to, "ends at"},
		{nil, from, to, "empty path"},
		{[]mgl64.Vec2{from, {math.NaN(), 1}, to}, from, to, "not finite"},
		{[]mgl64.Vec2{{5, 5}, to}, mgl64.Vec2{5, 5}, to, "on no polygon"},
	} {
		if _, err := c.Path(tc.path, tc.from, tc.to); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("Path(%v): error %v, want one saying %q", tc.path, err, tc.err)
		}
	}
}

// TestPinchedCorner checks that a segment may not pass between two
// polygons that meet only at a point: the cells (0, 0) and (1, 1) of a
// 2×2 grid whose other two cells are blocked.
func TestPinchedCorner(t *testing.T) {
	g, err := grid.FromRows([]string{".#", "#."}, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := navmesh.FromGrid(g, navmesh.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := meshcheck.New(m)
	if leave, at := c.Leave(mgl64.Vec2{0.5, 0.5}, mgl64.Vec2{1.5, 1.5}); !leave || at.Cmp(big.NewRat(1, 2)) != 0 {
		t.Errorf("through the pinched corner: leave %v at %v, want true at 1/2", leave, at.RatString())
	}
	if comp := c.Components(); len(comp) != 2 || comp[0] == comp[1] {
		t.Errorf("components %v, want two", comp)
	}
	if leave, _ := c.Leave(mgl64.Vec2{0.5, 0.5}, mgl64.Vec2{1, 1}); leave {
		t.Error("to the pinched corner: leaves, want clear")
	}
}
