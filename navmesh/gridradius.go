package navmesh

import (
	"fmt"
	"image"
	"math"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/binfile"
	"github.com/go-gl/mathgl/mgl64"
)

// erodeGrid builds the mesh of the points of g's free cells that an agent
// of radius opt.Radius > 0 may stand on, offsetting the walls by the
// radius on a fine raster instead of dropping whole cells: each cell is cut
// into s×s square subcells of side c = 1/s (opt.CellSize, or by default
// r/4, or less where half the room k − 2r that the narrowest passage the
// agent fits through leaves is less, k the least whole number of cells
// above 2r, but not below r/16; rounded down to a power of two and at
// most ½, and coarsened until the map spans at most 2²⁴ subcells), and a
// subcell is walkable when its cell is
// free and no wall (a side between a free cell and a blocked one or the
// map's edge) comes nearer its square than the radius. Of two walkable
// subcells that touch only at a corner one is dropped, the walkable
// subcells are meshed as FromGrid meshes a grid, and the mesh is scaled
// back to cells: every vertex is a multiple of c. Every point of the mesh
// is at least the radius from every blocked cell and from the map's edge;
// a passage w cells wide stays open when w − 2r ≥ 2c, and may close when
// narrower. With the default side, a passage of k whole cells stays open
// for r up to about k/2 − r/16 (a two-cell door up to r = 0.96, where
// subcells of r/4 closed it from 0.9; it closes for r ≥ 1), unless the
// map is too large for subcells that small. Subcells of r/16 cost up to
// 16 times those of r/4, which bounds the raster at O(cells) for a given
// radius; a smaller Options.CellSize keeps such passages open nearer k/2,
// at the cost of the raster (r = 0.99 needs subcells of 1/128, 16 384 a
// cell).
//
// The raster costs O(cells·s²) time and memory, and the walls O(wall
// length · s · (r·s + 1)); a radius above half the map's smaller side
// leaves no room anywhere and is answered at once with an empty mesh.
func erodeGrid(g *grid.Grid, opt Options) (*Mesh, error) {
	r := opt.Radius
	w, h := g.Width(), g.Height()
	if r > float64(min(w, h))/2 {
		return rectangles(blockedGrid(w, h)), nil
	}
	c, err := subcell(g, opt)
	if err != nil {
		return nil, err
	}
	s := int(math.Round(1 / c))
	bind := radiusBinding(g, r, c)
	ra := raster{c: c, w: w * s, h: h * s}
	near := make([]bool, ra.w*ra.h)
	free := func(x, y int) bool { return g.Passable(image.Pt(x, y)) }
	// Horizontal walls: the side between rows y−1 and y where one cell is
	// free and the other not, in runs along x; then vertical ones.
	for y := 0; y <= h; y++ {
		for x := 0; x < w; {
			if free(x, y-1) == free(x, y) {
				x++
				continue
			}
			x0 := x
			for x < w && free(x, y-1) != free(x, y) {
				x++
			}
			ra.markNear(near, mgl64.Vec2{float64(x0), float64(y)}, mgl64.Vec2{float64(x), float64(y)}, r)
		}
	}
	for x := 0; x <= w; x++ {
		for y := 0; y < h; {
			if free(x-1, y) == free(x, y) {
				y++
				continue
			}
			y0 := y
			for y < h && free(x-1, y) != free(x, y) {
				y++
			}
			ra.markNear(near, mgl64.Vec2{float64(x), float64(y0)}, mgl64.Vec2{float64(x), float64(y)}, r)
		}
	}
	walk := make([]bool, ra.w*ra.h)
	for y := range ra.h {
		for x := range ra.w {
			i := y*ra.w + x
			walk[i] = !near[i] && free(x/s, y/s)
		}
	}
	dropCornerTouches(walk, ra.w, ra.h)
	fine, err := grid.New(ra.w, ra.h, walk, grid.Options{})
	if err != nil {
		return nil, fmt.Errorf("navmesh: %w", err)
	}
	e := rectangles(fine)
	if len(e.polys) == 0 {
		return rectangles(blockedGrid(w, h)), nil
	}
	m := ra.scale(e.convex())
	m.bound = bind
	return m, nil
}

// binding ties a file of polygons to the grid and radius it was built for:
// the grid's size, and a fingerprint of its cells, the radius and the
// subcell side. The zero binding is a mesh from polygons, bound to nothing.
type binding struct {
	w, h uint32
	fp   uint64
}

// radiusBinding returns the binding of the mesh erodeGrid builds of g for
// radius r on subcells of side c.
func radiusBinding(g *grid.Grid, r, c float64) binding {
	f := binfile.NewFNV()
	f.U64(Fingerprint(g))
	f.U64(math.Float64bits(r))
	f.U64(math.Float64bits(c))
	return binding{w: uint32(g.Width()), h: uint32(g.Height()), fp: f.Sum}
}

// passageGap returns k − 2r for the narrowest passage of whole cells that
// an agent of radius r fits through, k the least integer above 2r: the
// room it leaves. Subcells of at most half of it keep every passage of k
// cells or more open (see erodeGrid).
func passageGap(r float64) float64 {
	return math.Floor(2*r) + 1 - 2*r
}

// subcell returns the side of the subcells erodeGrid uses for g and opt
// (opt.Radius > 0), or an error when no side fits.
func subcell(g *grid.Grid, opt Options) (float64, error) {
	w, h := g.Width(), g.Height()
	c := opt.CellSize
	if c == 0 {
		r := opt.Radius
		c = math.Min(r/4, math.Max(passageGap(r)/2, r/16))
	}
	if math.IsNaN(c) || math.IsInf(c, 0) || c <= 0 {
		return 0, fmt.Errorf("navmesh: cell size %v, want a finite value > 0", opt.CellSize)
	}
	c = math.Min(math.Ldexp(1, math.Ilogb(c)), 0.5)
	for float64(w)*float64(h)/(c*c) > maxErodeCells {
		c *= 2
	}
	if c > 0.5 {
		return 0, fmt.Errorf("navmesh: a %d×%d grid is too large to offset its walls by a radius on subcells of ½ (over %d subcells)", w, h, maxErodeCells)
	}
	return c, nil
}

// blockedGrid returns a w×h grid of blocked cells, whose mesh is empty.
func blockedGrid(w, h int) *grid.Grid {
	g, err := grid.New(w, h, make([]bool, w*h), grid.Options{})
	if err != nil {
		panic("navmesh: internal error: " + err.Error()) // w×h is a valid grid's size
	}
	return g
}
