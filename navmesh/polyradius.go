package navmesh

import (
	"fmt"
	"math"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/navmesh/internal/geom"
	"github.com/go-gl/mathgl/mgl64"
)

// maxErodeCells bounds the cells FromPolygons rasterizes an area into for an
// agent radius, and so the time and memory of the erosion.
const maxErodeCells = 1 << 24

// erodePolygons builds the mesh of the part of the area in that keeps an
// agent of radius opt.Radius > 0 clear of its walls, as Recast does: on a
// grid of square cells of side c (opt.CellSize rounded down to a power of
// two, or Radius/2 rounded so), whose corners are multiples of c, a cell is
// walkable when it lies inside the area (m, the point agent's mesh, holds
// its centre) and no wall segment comes nearer its square than the radius;
// of two walkable cells that touch only at a corner, one is dropped, so the
// walls form simple rings. The walkable cells are then meshed as FromGrid
// meshes a grid, and scaled back: every vertex is exact, an integer times
// c. Every point of the mesh is at least the radius from every wall;
// passages up to 2·(radius + c) wide may close. Cells below 1e-100, or
// too fine for the coordinates to hold their corners exactly, are an
// error.
func erodePolygons(in *polyIn, m *Mesh, opt Options) (*Mesh, error) {
	r := opt.Radius // checked by FromPolygons
	ra, err := newRaster(in, opt)
	if err != nil {
		return nil, err
	}
	near := make([]bool, ra.w*ra.h)
	for _, ring := range in.rings {
		vs := in.verts[ring.first : ring.first+ring.n]
		for j, p := range vs {
			ra.markNear(near, p, vs[(j+1)%len(vs)], r)
		}
	}
	free := ra.inside(m)
	for i := range free {
		free[i] = free[i] && !near[i]
	}
	dropCornerTouches(free, ra.w, ra.h)
	g, err := grid.New(ra.w, ra.h, free, grid.Options{})
	if err != nil {
		return nil, fmt.Errorf("navmesh: %w", err)
	}
	e := rectangles(g)
	if len(e.polys) == 0 {
		return nil, fmt.Errorf("navmesh: no part of the area is %v or more from its walls (in cells of %g)", r, ra.c)
	}
	return ra.scale(e.convex()), nil
}

// raster is the grid of square cells an area is eroded on: w×h cells of
// side c, a power of two, from the origin o, a multiple of c.
type raster struct {
	c    float64
	o    mgl64.Vec2
	w, h int
}

// newRaster returns the cells that erodePolygons rasterizes the area in
// into (see there), or an error when they are too many or too small.
func newRaster(in *polyIn, opt Options) (raster, error) {
	r, c := opt.Radius, opt.CellSize
	if c == 0 {
		if c = r / 2; c < minCoord {
			return raster{}, fmt.Errorf("navmesh: agent radius %v makes default cells of %g (Radius/2), below the smallest cell size %g: set Options.CellSize", r, c, minCoord)
		}
	}
	if math.IsNaN(c) || math.IsInf(c, 0) || c <= 0 {
		return raster{}, fmt.Errorf("navmesh: cell size %v, want a finite value > 0", opt.CellSize)
	}
	c = math.Ldexp(1, math.Ilogb(c)) // a power of two, so c·k is exact
	b := geom.Box{Min: in.verts[0], Max: in.verts[0]}
	for _, v := range in.verts {
		b = b.Grow(v)
	}
	o := mgl64.Vec2{math.Floor(b.Min[0]/c) * c, math.Floor(b.Min[1]/c) * c}
	wf, hf := math.Ceil((b.Max[0]-o[0])/c), math.Ceil((b.Max[1]-o[1])/c)
	if wf*hf > maxErodeCells || wf*hf < 1 {
		return raster{}, fmt.Errorf("navmesh: the area spans %g×%g cells of %g, more than %d: raise Options.CellSize", wf, hf, c, maxErodeCells)
	}
	// The cell corners, o + k·c for k up to w and h, must be floats
	// (exact, so distinct), and 0 or at least 1e-100 in magnitude, as
	// Read takes them; and coarse enough that rounding the coordinates
	// moves them by far less than a cell.
	if c < minCoord || math.Abs(o[0])/c+wf > 1<<50 || math.Abs(o[1])/c+hf > 1<<50 {
		return raster{}, fmt.Errorf("navmesh: cells of %g are too small for the area's coordinates (up to %g): raise Options.CellSize", c, b.Mag())
	}
	return raster{c: c, o: o, w: int(wf), h: int(hf)}, nil
}

// markNear marks in near the cells that the wall segment from p to q
// comes nearer than r. The segment is cut into pieces no longer than
// max(r, c), and the cells tested are those of each piece's box widened
// by r: the box of a long slanting segment is mostly far from it.
func (ra raster) markNear(near []bool, p, q mgl64.Vec2, r float64) {
	c, o, w, h := ra.c, ra.o, ra.w, ra.h
	// A margin for rounding, on the safe side: squareSegDist, run in the
	// coordinates of the cell's corner, rounds at the scale of the
	// segment, the radius and the cell.
	slack := r*1e-9 + 1e-12*(geom.Dist(p, q)+r+c)
	// span returns the cells, of the n from o, whose range may come
	// within r of [lo, hi]: one more on either side for rounding, clamped
	// to the grid in floating point, as a large r may put the ends beyond
	// what an int holds.
	span := func(lo, hi, o float64, n int) (int, int) {
		i0 := math.Floor((lo-r-slack-o)/c) - 1
		i1 := math.Floor((hi+r+slack-o)/c) + 1
		return int(math.Min(math.Max(i0, 0), float64(n))), int(math.Max(math.Min(i1, float64(n-1)), -1))
	}
	k := max(int(math.Ceil(geom.Dist(p, q)/math.Max(r, c))), 1)
	from := p
	for piece := 1; piece <= k; piece++ {
		to := q
		if piece < k {
			to = p.Add(q.Sub(p).Mul(float64(piece) / float64(k)))
		}
		x0, x1 := span(math.Min(from[0], to[0]), math.Max(from[0], to[0]), o[0], w)
		y0, y1 := span(math.Min(from[1], to[1]), math.Max(from[1], to[1]), o[1], h)
		for y := y0; y <= y1; y++ {
			for x := x0; x <= x1; x++ {
				if i := y*w + x; !near[i] {
					lo := mgl64.Vec2{o[0] + float64(x)*c, o[1] + float64(y)*c}
					near[i] = squareSegDist(mgl64.Vec2{}, c, p.Sub(lo), q.Sub(lo)) < r+slack
				}
			}
		}
		from = to
	}
}

// inside returns, per cell, whether m, the point agent's mesh, holds its
// centre.
func (ra raster) inside(m *Mesh) []bool {
	in := make([]bool, ra.w*ra.h)
	for y := range ra.h {
		for x := range ra.w {
			_, in[y*ra.w+x] = m.Locate(mgl64.Vec2{ra.o[0] + (float64(x)+0.5)*ra.c, ra.o[1] + (float64(y)+0.5)*ra.c})
		}
	}
	return in
}

// dropCornerTouches drops, of two free cells of the w×h grid free that
// touch only at a corner, the lower right one, until none are left.
func dropCornerTouches(free []bool, w, h int) {
	for changed := true; changed; {
		changed = false
		for y := range h - 1 {
			for x := range w - 1 {
				a, b, cc, d := y*w+x, y*w+x+1, (y+1)*w+x, (y+1)*w+x+1
				if free[a] && free[d] && !free[b] && !free[cc] {
					free[d], changed = false, true
				}
				if free[b] && free[cc] && !free[a] && !free[d] {
					free[cc], changed = false, true
				}
			}
		}
	}
}

// scale moves the vertices of e, a mesh of the raster's cells, from cell
// corners to the area's coordinates, and makes it a mesh of polygons.
func (ra raster) scale(e *Mesh) *Mesh {
	for i, v := range e.verts {
		e.verts[i] = mgl64.Vec2{ra.o[0] + v[0]*ra.c, ra.o[1] + v[1]*ra.c}
	}
	e.kind = polygonMesh
	e.w, e.h, e.walk = 0, 0, nil
	e.loc = newPolyIndex(e)
	return e
}

// squareSegDist returns the distance between the square [lo, lo+s]² and
// the segment from p to q: 0 where they meet, else the least distance
// between a corner of one and the other, where it is attained for two
// disjoint convex shapes.
func squareSegDist(lo mgl64.Vec2, s float64, p, q mgl64.Vec2) float64 {
	hi := lo.Add(mgl64.Vec2{s, s})
	// Clip the segment to the square (Liang–Barsky): a part left means
	// they meet.
	t0, t1 := 0.0, 1.0
	d := q.Sub(p)
	meet := true
	for k := range 2 {
		for _, e := range [2]struct{ num, den float64 }{{lo[k] - p[k], d[k]}, {p[k] - hi[k], -d[k]}} {
			switch {
			case e.den == 0:
				if e.num > 0 {
					meet = false
				}
			case e.den > 0:
				t0 = math.Max(t0, e.num/e.den)
			default:
				t1 = math.Min(t1, e.num/e.den)
			}
		}
	}
	if meet && t0 <= t1 {
		return 0
	}
	best := math.Inf(1)
	for _, v := range [4]mgl64.Vec2{lo, {hi[0], lo[1]}, hi, {lo[0], hi[1]}} {
		c, _, _ := nearestOn(p, q, v)
		best = math.Min(best, geom.Dist(c, v))
	}
	for _, v := range [2]mgl64.Vec2{p, q} {
		c := mgl64.Vec2{math.Min(math.Max(v[0], lo[0]), hi[0]), math.Min(math.Max(v[1], lo[1]), hi[1])}
		best = math.Min(best, geom.Dist(c, v))
	}
	return best
}
