package tri

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/go-gl/mathgl/mgl64"
)

// This file makes the inputs the tests and benchmarks share: each a
// valid Input (simple rings, area on the left, no two vertices at one
// position) built by construction, so that no checker from package
// navmesh is needed.

// shape collects positions and rings into an Input.
type shape struct {
	pos []mgl64.Vec2
	pgs []Polygon
}

// ring appends pts as a new ring's vertices and returns their ids.
func (s *shape) ring(pts []mgl64.Vec2) []int32 {
	vs := make([]int32, len(pts))
	for i, p := range pts {
		vs[i] = int32(len(s.pos))
		s.pos = append(s.pos, p)
	}
	return vs
}

// polygon adds a polygon of the outer ring (counter-clockwise) and holes
// (clockwise).
func (s *shape) polygon(outer []mgl64.Vec2, holes ...[]mgl64.Vec2) {
	pg := Polygon{Outer: s.ring(outer)}
	for _, h := range holes {
		pg.Holes = append(pg.Holes, s.ring(h))
	}
	s.pgs = append(s.pgs, pg)
}

func (s *shape) input() Input { return Input{Pos: s.pos, Polygons: s.pgs} }

// nVerts returns the number of ring vertices of in.
func nVerts(in Input) int {
	n := 0
	for _, pg := range in.Polygons {
		n += len(pg.Outer)
		for _, h := range pg.Holes {
			n += len(h)
		}
	}
	return n
}

// regular returns the n corners of a regular polygon of radius r round c,
// counter-clockwise: on one circle but for the rounding of sin and cos.
func regular(n int, r float64, c mgl64.Vec2) []mgl64.Vec2 {
	pts := make([]mgl64.Vec2, n)
	for i := range pts {
		a := 2 * math.Pi * float64(i) / float64(n)
		pts[i] = mgl64.Vec2{c[0] + r*math.Cos(a), c[1] + r*math.Sin(a)}
	}
	return pts
}

// latticeCircle returns the points with integer coordinates on the circle
// of radius r round the origin, counter-clockwise: exactly cocircular
// (r = 5525 = 5²·13·17 has 180 of them).
func latticeCircle(r int64) []mgl64.Vec2 {
	var pts []mgl64.Vec2
	for x := -r; x <= r; x++ {
		y2 := r*r - x*x
		y := int64(math.Sqrt(float64(y2)))
		for y*y > y2 {
			y--
		}
		for (y+1)*(y+1) <= y2 {
			y++
		}
		if y*y == y2 {
			pts = append(pts, mgl64.Vec2{float64(x), float64(y)})
			if y != 0 {
				pts = append(pts, mgl64.Vec2{float64(x), float64(-y)})
			}
		}
	}
	slices.SortFunc(pts, func(a, b mgl64.Vec2) int {
		return cmpFloat(math.Atan2(a[1], a[0]), math.Atan2(b[1], b[0]))
	})
	return pts
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// squareEdges returns the square [0, k]² with every integer point of its
// sides, counter-clockwise: k+1 collinear points a side (k−1 between the
// corners), and many cocircular quadruples across it.
func squareEdges(k int) []mgl64.Vec2 {
	pts := make([]mgl64.Vec2, 0, 4*k)
	for i := range k {
		pts = append(pts, mgl64.Vec2{float64(i), 0})
	}
	for i := range k {
		pts = append(pts, mgl64.Vec2{float64(k), float64(i)})
	}
	for i := range k {
		pts = append(pts, mgl64.Vec2{float64(k - i), float64(k)})
	}
	for i := range k {
		pts = append(pts, mgl64.Vec2{0, float64(k - i)})
	}
	return pts
}

// comb returns a comb of n teeth, each 1 wide and long, 1 apart, on a
// spine 1 high, counter-clockwise.
func comb(n int, long float64) []mgl64.Vec2 {
	pts := []mgl64.Vec2{{0, 0}, {float64(2*n - 1), 0}}
	for i := n - 1; i >= 0; i-- {
		x := float64(2 * i)
		pts = append(pts, mgl64.Vec2{x + 1, 1 + long}, mgl64.Vec2{x, 1 + long})
		if i > 0 {
			pts = append(pts, mgl64.Vec2{x, 1}, mgl64.Vec2{x - 1, 1})
		}
	}
	return pts
}

// square returns the square of side s at (x, y), counter-clockwise, or
// clockwise for a hole.
func square(x, y, s float64, hole bool) []mgl64.Vec2 {
	pts := []mgl64.Vec2{{x, y}, {x + s, y}, {x + s, y + s}, {x, y + s}}
	if hole {
		slices.Reverse(pts)
	}
	return pts
}

// spiral returns a band winding turns times round the origin, about w
// wide, as one ring of n points a side, counter-clockwise: long thin
// triangles the Delaunay triangulation of its points cuts across.
func spiral(turns float64, n int, w float64) []mgl64.Vec2 {
	pts := make([]mgl64.Vec2, 0, 2*n)
	at := func(a, r float64) mgl64.Vec2 { return mgl64.Vec2{r * math.Cos(a), r * math.Sin(a)} }
	for i := range n { // the inner side, outwards
		a := 2 * math.Pi * turns * float64(i) / float64(n-1)
		pts = append(pts, at(a, w+2*w*a/(2*math.Pi)))
	}
	for i := n - 1; i >= 0; i-- { // the outer side, back in
		a := 2 * math.Pi * turns * float64(i) / float64(n-1)
		pts = append(pts, at(a, 2*w+2*w*a/(2*math.Pi)))
	}
	slices.Reverse(pts) // outer side out-and-back runs clockwise; turn it
	return pts
}

// star returns a star-shaped ring of n ≥ 5 points round c, at random
// angles at least a third of the even spacing apart (so every gap is
// below π), between r/2 and r away, counter-clockwise, and the radius of
// a disc round c inside it.
func star(rnd *rand.Rand, n int, r float64, c mgl64.Vec2) ([]mgl64.Vec2, float64) {
	gaps := make([]float64, n)
	sum := 0.0
	for i := range gaps {
		gaps[i] = 0.5 + rnd.Float64()
		sum += gaps[i]
	}
	a := rnd.Float64() * 2 * math.Pi
	pts := make([]mgl64.Vec2, n)
	maxGap := 0.0
	for i := range pts {
		d := r * (0.5 + 0.5*rnd.Float64())
		pts[i] = mgl64.Vec2{c[0] + d*math.Cos(a), c[1] + d*math.Sin(a)}
		g := gaps[i] / sum * 2 * math.Pi
		maxGap = math.Max(maxGap, g)
		a += g
	}
	// Each edge spans less than maxGap < π as seen from c, and its ends
	// are at least r/2 away, so it keeps r/2·cos(maxGap/2) from c.
	return pts, 0.5 * r * math.Cos(maxGap/2)
}

// starWithHoles returns a star-shaped polygon of n points with about h
// small holes (squares and triangles of random size, turned at random)
// in a grid of cells inside the star's kernel disc, at random places in
// their cells, so that none meet.
func starWithHoles(rnd *rand.Rand, n, h int) Input {
	var s shape
	c := mgl64.Vec2{rnd.Float64() * 10, rnd.Float64() * 10}
	outer, kernel := star(rnd, n, 100, c)
	var holes [][]mgl64.Vec2
	if h > 0 {
		// A square of side kernel·√2 fits in the disc; cut it into
		// m×m cells.
		m := int(math.Ceil(math.Sqrt(float64(h))))
		side := kernel * math.Sqrt2 * 0.98
		cell := side / float64(m)
		for i := range m * m {
			if len(holes) == h {
				break
			}
			x0 := c[0] - side/2 + float64(i%m)*cell
			y0 := c[1] - side/2 + float64(i/m)*cell
			mid := mgl64.Vec2{x0 + cell/2, y0 + cell/2}
			rad := cell * (0.1 + 0.3*rnd.Float64()) // < cell/2
			k := 3 + rnd.IntN(2)
			ph := rnd.Float64() * 2 * math.Pi
			ring := make([]mgl64.Vec2, k)
			for j := range ring { // clockwise
				a := ph - 2*math.Pi*float64(j)/float64(k)
				ring[j] = mgl64.Vec2{mid[0] + rad*math.Cos(a), mid[1] + rad*math.Sin(a)}
			}
			holes = append(holes, ring)
		}
	}
	s.polygon(outer, holes...)
	return s.input()
}
