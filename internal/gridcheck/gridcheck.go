// Package gridcheck checks continuous paths (a navmesh's waypoints, or any
// polyline) against the grid they were found on, exactly: it is the judge
// the navmesh tests and the pathfind command apply to every answer, and it
// uses no navmesh code.
package gridcheck

import (
	"fmt"
	"image"
	"math"
	"strconv"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/cairn-nav/cairn/grid"
)

// // A straight leg is legal for a point agent on a grid when it crosses the
// interior of no blocked cell (cells outside the grid are blocked), does not
// run along the line between two blocked cells, and does not pass through a
// grid corner where two diagonally opposite cells are blocked (a pinched
// corner; its end points may lie on one). A path is legal when its points
// are in the free space, its legs are legal, and it does not turn at a
// pinched corner. Coordinates are scaled to integers, so every decision is
// exact for points on a lattice of 1/65536 of a cell (cell centres and
// corners among them; a coarser one on maps over 16382 cells a side).
//
// For an agent of radius r, every leg must also keep at least r (less
// 10⁻⁹) from every blocked cell and from the map's edge, measured as the
// Euclidean distance between the segment and the closed square of the cell.

// Checker checks continuous paths on one grid for an agent of one radius.
// It is not safe for concurrent use.
type Checker struct {
	g      *grid.Grid
	radius float64
	// scale is the fixed-point units per cell: a power of two such that
	// scaled coordinates of points within the map stay below 2³⁰, and the
	// products the leg test forms fit in an int64.
	scale int64
	kept  *grid.Grid // cells an agent of radius may stand on; made when first needed
}

// maxFix bounds the magnitude of scaled coordinates.
const maxFix = 1 << 30

// New returns a checker of paths on g for an agent of the given radius (0
// for a point agent).
func New(g *grid.Grid, radius float64) *Checker {
	side := int64(max(g.Width(), g.Height()) + 2)
	s := int64(1 << 16)
	for s > 1 && side*s > maxFix {
		s >>= 1
	}
	return &Checker{g: g, radius: radius, scale: s}
}

// Radius returns the agent radius the checker enforces.
func (c *Checker) Radius() float64 { return c.radius }

func (c *Checker) toFix(v float64) (int64, error) {
	s := v * float64(c.scale)
	if s != math.Trunc(s) || math.Abs(s) > maxFix {
		return 0, fmt.Errorf("coordinate %v is not on the 1/%d lattice of the map", v, c.scale)
	}
	return int64(s), nil
}

func (c *Checker) blocked(x, y int64) bool {
	return !c.g.Passable(image.Pt(int(x), int(y)))
}

// pinch reports whether grid corner (i, j) has two diagonally opposite
// blocked cells around it.
func (c *Checker) pinch(i, j int64) bool {
	tl, tr := c.blocked(i-1, j-1), c.blocked(i, j-1)
	bl, br := c.blocked(i-1, j), c.blocked(i, j)
	return (tl && br) || (tr && bl)
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// frac is n/d with d > 0.
type frac struct{ n, d int64 }

func fless(a, b frac) bool { return a.n*b.d < b.n*a.d }

// segHitsSquare reports whether the open segment a–b meets the open square
// (x0, x1) × (y0, y1), all scaled.
func segHitsSquare(ax, ay, bx, by, x0, y0, x1, y1 int64) bool {
	lo, hi := frac{0, 1}, frac{1, 1}
	axis := func(a, d, s0, s1 int64) bool {
		if d == 0 {
			return s0 < a && a < s1
		}
		l, h := frac{s0 - a, d}, frac{s1 - a, d}
		if d < 0 {
			l, h = frac{a - s1, -d}, frac{a - s0, -d}
		}
		if fless(lo, l) {
			lo = l
		}
		if fless(h, hi) {
			hi = h
		}
		return true
	}
	return axis(ax, bx-ax, x0, x1) && axis(ay, by-ay, y0, y1) && fless(lo, hi)
}

// Leg returns nil when the segment a–b is legal for a point agent, else
// what is wrong. Its cost is proportional to the leg's length in cells.
func (c *Checker) Leg(a, b mgl64.Vec2) error {
	var v [4]int64
	for i, f := range [4]float64{a[0], a[1], b[0], b[1]} {
		var err error
		if v[i], err = c.toFix(f); err != nil {
			return err
		}
	}
	S := c.scale
	ax, ay, bx, by := v[0], v[1], v[2], v[3]
	dx, dy := bx-ax, by-ay
	if dx == 0 && dy == 0 {
		return c.Point(a, false)
	}
	minX, maxX, minY, maxY := min(ax, bx), max(ax, bx), min(ay, by), max(ay, by)
	// Blocked cells whose interior the open segment crosses.
	for cx := floorDiv(minX, S) - 1; cx <= floorDiv(maxX, S); cx++ {
		cy0, cy1 := floorDiv(minY, S)-1, floorDiv(maxY, S)
		if dx != 0 {
			xl, xr := max(cx*S, minX), min((cx+1)*S, maxX)
			if xl > xr {
				continue
			}
			yl, yr := ay+(xl-ax)*dy/dx, ay+(xr-ax)*dy/dx
			cy0, cy1 = floorDiv(min(yl, yr), S)-1, floorDiv(max(yl, yr), S)+1
		}
		for cy := cy0; cy <= cy1; cy++ {
			if c.blocked(cx, cy) && segHitsSquare(ax, ay, bx, by, cx*S, cy*S, (cx+1)*S, (cy+1)*S) {
				return fmt.Errorf("crosses blocked cell %d,%d", cx, cy)
			}
		}
	}
	// Runs along a grid line between two blocked cells.
	if dx == 0 && ax%S == 0 {
		k := ax / S
		for j := floorDiv(minY, S); j*S < maxY; j++ {
			if c.blocked(k-1, j) && c.blocked(k, j) {
				return fmt.Errorf("runs between blocked cells %d,%d and %d,%d", k-1, j, k, j)
			}
		}
	}
	if dy == 0 && ay%S == 0 {
		k := ay / S
		for i := floorDiv(minX, S); i*S < maxX; i++ {
			if c.blocked(i, k-1) && c.blocked(i, k) {
				return fmt.Errorf("runs between blocked cells %d,%d and %d,%d", i, k-1, i, k)
			}
		}
	}
	// Grid corners inside the segment (an end point only touches).
	end := func(i, j int64) bool { return (i*S == ax && j*S == ay) || (i*S == bx && j*S == by) }
	for i := floorDiv(minX+S-1, S); i*S <= maxX; i++ {
		if dx == 0 {
			for j := floorDiv(minY+S-1, S); j*S <= maxY; j++ {
				if !end(i, j) && c.pinch(i, j) {
					return fmt.Errorf("passes through pinched corner %d,%d", i, j)
				}
			}
			continue
		}
		num, den := ay*dx+(i*S-ax)*dy, dx*S // y = num/dx, in cells num/den
		if num%den == 0 && !end(i, num/den) && c.pinch(i, num/den) {
			return fmt.Errorf("passes through pinched corner %d,%d", i, num/den)
		}
	}
	return nil
}

// Point reports whether p is in the closed free space and, when the path
// passes through it (through is set), not on a pinched corner.
func (c *Checker) Point(p mgl64.Vec2, through bool) error {
	x, y := math.Floor(p[0]), math.Floor(p[1])
	if !(math.Abs(x) < maxFix && math.Abs(y) < maxFix) {
		return fmt.Errorf("point %s is far outside the map", vecString(p))
	}
	free := false
	for _, d := range [4][2]float64{{0, 0}, {-1, 0}, {0, -1}, {-1, -1}} {
		if (d[0] == 0 || x == p[0]) && (d[1] == 0 || y == p[1]) && !c.blocked(int64(x+d[0]), int64(y+d[1])) {
			free = true
		}
	}
	if !free {
		return fmt.Errorf("point %s is not in the free space", vecString(p))
	}
	if through && x == p[0] && y == p[1] && c.pinch(int64(x), int64(y)) {
		return fmt.Errorf("point %s is a pinched corner", vecString(p))
	}
	return nil
}

// Clearance returns nil when the segment a–b keeps at least the checker's
// radius (less 10⁻⁹) from every blocked cell and from the map's edge. It
// looks only at the cells within the radius of the segment, so it costs
// O(length·(radius+1)).
func (c *Checker) Clearance(a, b mgl64.Vec2) error {
	r := c.radius
	if r == 0 {
		return nil
	}
	w, h := c.g.Width(), c.g.Height()
	minX, maxX := math.Min(a[0], b[0]), math.Max(a[0], b[0])
	minY, maxY := math.Min(a[1], b[1]), math.Max(a[1], b[1])
	// The ring of cells around the map stands for its edge: the rest of
	// the outside is farther from any point of the map. The bounds are
	// clipped to that ring as floats, before a huge radius could overflow
	// an int.
	span := func(lo, hi float64, n int) (int, int) {
		return int(math.Max(-1, math.Floor(lo-r)-1)), int(math.Min(float64(n), math.Floor(hi+r)+1))
	}
	cx0, cx1 := span(minX, maxX, w)
	for cx := cx0; cx <= cx1; cx++ {
		// The part of the segment within r of column cx, in x.
		xl, xr := math.Max(minX, float64(cx)-r), math.Min(maxX, float64(cx+1)+r)
		if xl > xr {
			continue
		}
		yl, yr := minY, maxY
		if a[0] != b[0] {
			at := func(x float64) float64 { return a[1] + (x-a[0])*(b[1]-a[1])/(b[0]-a[0]) }
			yl, yr = math.Min(at(xl), at(xr)), math.Max(at(xl), at(xr))
		}
		cy0, cy1 := span(yl, yr, h)
		for cy := cy0; cy <= cy1; cy++ {
			if c.g.Passable(image.Pt(cx, cy)) {
				continue
			}
			if d := SegSquareDist(a, b, float64(cx), float64(cy)); d < r-1e-9 {
				what := "blocked cell"
				if !c.g.In(image.Pt(cx, cy)) {
					what = "the map's edge at"
				}
				return fmt.Errorf("passes %.6f from %s %d,%d, nearer than radius %v", d, what, cx, cy, r)
			}
		}
	}
	return nil
}

// SegSquareDist returns the Euclidean distance between the segment a–b and
// the closed square [x, x+1] × [y, y+1].
func SegSquareDist(a, b mgl64.Vec2, x, y float64) float64 {
	inside := func(p mgl64.Vec2) bool { return p[0] >= x && p[0] <= x+1 && p[1] >= y && p[1] <= y+1 }
	if inside(a) || inside(b) {
		return 0
	}
	corners := [4]mgl64.Vec2{{x, y}, {x + 1, y}, {x + 1, y + 1}, {x, y + 1}}
	best := math.Inf(1)
	for i, p := range corners {
		q := corners[(i+1)%4]
		if segsCross(a, b, p, q) {
			return 0
		}
		best = math.Min(best, pointSegDist(p, a, b))
		best = math.Min(best, pointSegDist(a, p, q))
		best = math.Min(best, pointSegDist(b, p, q))
	}
	return best
}

// pointSegDist returns the distance from p to the segment s0–s1.
func pointSegDist(p, s0, s1 mgl64.Vec2) float64 {
	d := s1.Sub(s0)
	t := 0.0
	if l := d.Dot(d); l > 0 {
		t = math.Max(0, math.Min(1, p.Sub(s0).Dot(d)/l))
	}
	return p.Sub(s0.Add(d.Mul(t))).Len()
}

// segsCross reports whether segments p1–p2 and q1–q2 cross at a point
// inside both.
func segsCross(p1, p2, q1, q2 mgl64.Vec2) bool {
	cr := func(o, a, b mgl64.Vec2) float64 { return (a[0]-o[0])*(b[1]-o[1]) - (a[1]-o[1])*(b[0]-o[0]) }
	d1, d2 := cr(q1, q2, p1), cr(q1, q2, p2)
	d3, d4 := cr(p1, p2, q1), cr(p1, p2, q2)
	return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))
}

// Path checks that path runs legally from from to to (and keeps the
// radius from walls) and returns its length.
func (c *Checker) Path(path []mgl64.Vec2, from, to mgl64.Vec2) (float64, error) {
	if len(path) == 0 {
		return 0, fmt.Errorf("empty path")
	}
	if path[0] != from || path[len(path)-1] != to {
		return 0, fmt.Errorf("path runs from %s to %s, want %s to %s",
			vecString(path[0]), vecString(path[len(path)-1]), vecString(from), vecString(to))
	}
	if len(path) == 1 && from != to {
		return 0, fmt.Errorf("single-point path between different points")
	}
	var length float64
	for i, p := range path {
		if err := c.Point(p, i > 0 && i < len(path)-1); err != nil {
			return 0, fmt.Errorf("point %d: %w", i, err)
		}
		a := p
		if i > 0 {
			a = path[i-1]
			if a == p {
				return 0, fmt.Errorf("point %d repeats %s", i, vecString(p))
			}
			if err := c.Leg(a, p); err != nil {
				return 0, fmt.Errorf("leg %d from %s to %s %w", i, vecString(a), vecString(p), err)
			}
			length += p.Sub(a).Len()
		}
		if i > 0 || len(path) == 1 {
			if err := c.Clearance(a, p); err != nil {
				return 0, fmt.Errorf("leg %d from %s to %s %w", max(i, 1), vecString(a), vecString(p), err)
			}
		}
	}
	return length, nil
}

// Kept returns the grid of the cells an agent of the checker's radius
// may stand on anywhere, [grid.Grid.Erode]: a free cell is kept when every
// point of it is at least the radius from every blocked cell and from the
// map's edge. It costs O(width·height) the first time, nothing after.
func (c *Checker) Kept() (*grid.Grid, error) {
	if c.radius == 0 {
		return c.g, nil
	}
	if c.kept != nil {
		return c.kept, nil
	}
	kept, err := c.g.Erode(c.radius)
	if err != nil {
		return nil, fmt.Errorf("gridcheck: %w", err)
	}
	c.kept = kept
	return kept, nil
}

// vecString formats a point for error messages as the pathfind command
// writes waypoints: x,y with 6 decimals.
func vecString(p mgl64.Vec2) string {
	return strconv.FormatFloat(p[0], 'f', 6, 64) + "," + strconv.FormatFloat(p[1], 'f', 6, 64)
}
