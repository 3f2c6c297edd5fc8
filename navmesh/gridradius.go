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
// radius on a fine raster instead of dropping whole cells (gridRaster):
// each cell is cut by lines at the multiples of the subcell side c = 1/s
// (opt.CellSize, or by default r/4, rounded down to a power of two and at
// most ½, and coarsened until the map spans at most 2²⁴ square
// subcells), and by two more lines along each axis, where the walls'
// offsets by r fall, rounded up to a multiple of q = 2⁻¹⁶ (a coarser
// power of two on maps over 16 382 cells a side: lineLattice), up to
// (1 + 2c)² times the subcells in all. A subcell is walkable when its
// cell is free and no wall (a side between a free cell and a blocked one
// or the map's edge) comes nearer its rectangle than the radius. Of two
// walkable subcells that touch only at a corner one is dropped, and the
// walkable subcells are meshed as FromGrid meshes a grid, in cells: every
// vertex is a multiple of q.
//
// Every point of the mesh is at least the radius from every blocked cell
// and from the map's edge. Along straight walls the mesh reaches within q
// of the exact offset, so a passage between straight walls w cells
// apart, a door w cells wide among them, stays open for r < w/2 − q − ε
// and closes from w/2 − q − ε, whatever the subcells, ε being the
// raster's rounding margin, 2·10⁻¹⁵·max(1, r): a two-cell door is open
// up to r = 0.99998. Round a wall's convex corner the mesh keeps off the
// arc by up to a subcell's diagonal, which is at most 1.5c·√2 (the
// multiples of c within c/2 of the offsets' lines are left out), so a
// passage between two corners, as on a diagonal, stays open when it is
// 2r + 4.3c wide and may close when narrower.
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
	bind := radiusBinding(g, r, c)
	ra := newGridRaster(w, h, r, c)
	n := ra.perCell()
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
			ra.markWall(near, mgl64.Vec2{float64(x0), float64(y)}, mgl64.Vec2{float64(x), float64(y)}, r)
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
			ra.markWall(near, mgl64.Vec2{float64(x), float64(y0)}, mgl64.Vec2{float64(x), float64(y)}, r)
		}
	}
	walk := make([]bool, ra.w*ra.h)
	for y := range ra.h {
		for x := range ra.w {
			i := y*ra.w + x
			walk[i] = !near[i] && free(x/n, y/n)
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
	m := ra.polygons(e)
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

// rasterLines marks, in a binding, the raster with lines along the walls'
// offsets: a file built on the raster before them, for the same grid,
// radius and subcells, holds another mesh and is refused.
const rasterLines = 2

// radiusBinding returns the binding of the mesh erodeGrid builds of g for
// radius r on subcells of side c.
func radiusBinding(g *grid.Grid, r, c float64) binding {
	f := binfile.NewFNV()
	f.U64(Fingerprint(g))
	f.U64(math.Float64bits(r))
	f.U64(math.Float64bits(c))
	f.U64(rasterLines)
	return binding{w: uint32(g.Width()), h: uint32(g.Height()), fp: f.Sum}
}

// subcell returns the side of the subcells erodeGrid uses for g and opt
// (opt.Radius > 0), or an error when no side fits.
func subcell(g *grid.Grid, opt Options) (float64, error) {
	w, h := g.Width(), g.Height()
	c := opt.CellSize
	if c == 0 {
		c = opt.Radius / 4
	}
	if math.IsNaN(c) || math.IsInf(c, 0) || c <= 0 {
		return 0, fmt.Errorf("navmesh: cell size %v, want a finite value > 0", opt.CellSize)
	}
	c = math.Min(math.Max(math.Ldexp(1, math.Ilogb(c)), lineLattice(w, h)), 0.5)
	// The bound is on the square subcells; the offsets' lines add at most
	// two a side, (1 + 2c)² times as many subcells in all.
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
