package navmesh

import (
	"math"
	"slices"
	"sort"

	"github.com/cairn-nav/cairn/navmesh/internal/tri"
	"github.com/go-gl/mathgl/mgl64"
)

// gridRaster is the raster erodeGrid offsets a grid's walls on: each cell
// cut by the same lines along x and along y, at offs from its top left
// corner. They are the multiples of the subcell side c below 1, and the
// two places where a wall's offset by the radius falls inside a cell: a
// and 1 − a, a being frac(r) rounded up to a multiple of the lattice q
// (lineLattice), with radiusSlack twice to spare. So the straight parts
// of the walkable area's outline lie on lines, within q outside the exact
// offset, and only the arcs round the walls' corners are approximated, to
// a subcell. Every line is a multiple of q, which keeps the mesh's
// vertices, and the distances the raster is built from, exact. The
// subcells are rectangles, w×h in all.
type gridRaster struct {
	offs []float64 // increasing, from 0, below 1
	w, h int       // subcells along x and y
}

// lineLattice returns the grain of the lines along the walls' offsets on
// a w×h grid: 2⁻¹⁶, or coarser on maps over 16 382 cells a side, the
// lattice on which the oracle of paths on grids (internal/gridcheck)
// decides exactly: a power of two q with (max(w, h) + 2)/q ≤ 2³⁰.
func lineLattice(w, h int) float64 {
	side := int64(max(w, h) + 2)
	s := int64(1 << 16)
	for s > 1 && side*s > 1<<30 {
		s >>= 1
	}
	return 1 / float64(s)
}

// radiusSlack is the rounding erodeGrid allows in a distance from a wall:
// a subcell nearer than r plus this to a wall is not walkable. The gaps
// between lattice points are exact, so it need only cover the rounding
// of their squares' sum and of r's square, a few parts in 10¹⁶.
func radiusSlack(r float64) float64 { return 1e-15 * math.Max(1, r) }

// newGridRaster returns the raster of a w×h grid for radius r on subcells
// of side c (1/c a whole number, c a multiple of lineLattice(w, h)).
func newGridRaster(w, h int, r, c float64) gridRaster {
	s := int(math.Round(1 / c))
	offs := make([]float64, 0, s+2)
	_, f := math.Modf(r)
	q := lineLattice(w, h)
	a := math.Ceil((f+2*radiusSlack(r))/q) * q
	if a < 1 {
		offs = append(offs, a, 1-a)
	}
	for j := range s {
		// Multiples of c within c/2 of a line along an offset would
		// only add steps to the arcs' staircases (each a turning point
		// for the search); the cell's side stays.
		x := float64(j) * c
		if j == 0 || a >= 1 || math.Abs(x-a) >= c/2 && math.Abs(x-(1-a)) >= c/2 {
			offs = append(offs, x)
		}
	}
	slices.Sort(offs)
	offs = slices.Compact(offs)
	n := len(offs)
	return gridRaster{offs: offs, w: w * n, h: h * n}
}

// perCell returns the subcells along one side of a cell.
func (ra gridRaster) perCell() int { return len(ra.offs) }

// pos returns the coordinate of raster line i (0 to w or h).
func (ra gridRaster) pos(i int) float64 {
	n := len(ra.offs)
	return float64(i/n) + ra.offs[i%n]
}

// index returns the subcell whose span along an axis of n subcells holds
// coordinate t, clamped to 0 and n − 1.
func (ra gridRaster) index(t float64, n int) int {
	if t < 0 {
		return 0
	}
	cell := math.Floor(t)
	if cell*float64(len(ra.offs)) >= float64(n) {
		return n - 1
	}
	u := t - cell
	j := sort.Search(len(ra.offs), func(k int) bool { return ra.offs[k] > u }) - 1 // the last line ≤ t
	return min(int(cell)*len(ra.offs)+max(j, 0), n-1)
}

// markWall marks in near the subcells that the axis-aligned wall from p to
// q (p ≤ q along both axes, corners of cells) comes nearer than r, with
// radiusSlack to spare: the gaps along x and along y between the
// subcell's rectangle and the segment give the distance exactly, but for
// the rounding of a coordinate's difference.
func (ra gridRaster) markWall(near []bool, p, q mgl64.Vec2, r float64) {
	d := r + radiusSlack(r)
	// One subcell more on either side: p − d and q + d round, and may
	// land on the line past the subcell that ends there.
	x0, x1 := max(ra.index(p[0]-d, ra.w)-1, 0), min(ra.index(q[0]+d, ra.w)+1, ra.w-1)
	y0, y1 := max(ra.index(p[1]-d, ra.h)-1, 0), min(ra.index(q[1]+d, ra.h)+1, ra.h-1)
	for y := y0; y <= y1; y++ {
		lo, hi := ra.pos(y), ra.pos(y+1)
		dy := math.Max(0, math.Max(lo-q[1], p[1]-hi))
		if dy >= d {
			continue
		}
		for x := x0; x <= x1; x++ {
			if i := y*ra.w + x; !near[i] {
				dx := math.Max(0, math.Max(ra.pos(x)-q[0], p[0]-ra.pos(x+1)))
				near[i] = dx*dx+dy*dy < d*d
			}
		}
	}
}

// polygons makes e, the rectangles mesh of the raster's walkable subcells
// in subcell coordinates, the mesh of convex polygons of the same area in
// cells: its vertices move to the lines' places, and the rectangles are
// cut into triangles, flipped toward Delaunay's and merged there, where
// the subcells are rectangles of unequal sides. A vertex that is a
// convex corner of the walls in subcells is one in cells: the lines keep
// their order.
func (ra gridRaster) polygons(e *Mesh) *Mesh {
	reflex := make([]bool, len(e.verts))
	for i, v := range e.verts {
		reflex[i] = e.gridCorner(v)
	}
	for i, v := range e.verts {
		e.verts[i] = mgl64.Vec2{ra.pos(int(v[0])), ra.pos(int(v[1]))}
	}
	f := tri.Merge(e.verts, tri.Rectangles(e.verts, e.rings()))
	return faceMeshOf(e.verts, f, reflex)
}
