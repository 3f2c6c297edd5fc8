package navmesh

import (
	"errors"
	"fmt"
	"image"
	"slices"

	"github.com/cairn-nav/cairn/grid"
)

// Update returns the mesh that [FromGrid] builds from g with m's options,
// for a mesh m that FromGrid built with [Options.TileSize] above 0 (and
// not Rectangles) from an earlier state of g, where changed holds every
// cell whose passability or area type changed since. The new mesh has the same
// polygons, in the same order, and answers every query as FromGrid's
// would; m is not changed, so queries running on it may go on.
//
// Update builds again only the tiles that changed overlaps, as their
// polygons depend on their own cells alone, and shares the other tiles'
// polygons with m; then it stitches the tiles again and rebuilds the
// mesh's adjacency (each tile keeps the pairs of its own edges, so only
// the sides on tile lines are paired again), components, bridges and point
// index (merged from the bucket lists each tile keeps), which is linear in
// the size of the mesh (see BenchmarkUpdate for figures). A cell outside
// changed that did change is not seen, and the mesh is then wrong for it.
// When changed holds no cell of g, Update returns m itself.
//
// It returns an error for a mesh that is not tiled (or that [ReadFor]
// read without Options.TileSize), a nil grid, or one of another size.
// It is safe for concurrent use, as it only reads m, but g must not change
// during the call.
func (m *Mesh) Update(g *grid.Grid, changed image.Rectangle) (*Mesh, error) {
	t := m.tiles
	switch {
	case t == nil:
		return nil, errors.New("navmesh: Update needs a mesh built by FromGrid with a TileSize, or read by ReadFor with one")
	case g == nil:
		return nil, errors.New("navmesh: nil grid")
	case g.Width() != m.w || g.Height() != m.h:
		return nil, fmt.Errorf("navmesh: grid of %d×%d cells for a mesh of %d×%d", g.Width(), g.Height(), m.w, m.h)
	}
	changed = changed.Intersect(g.Bounds())
	if changed.Empty() {
		return m, nil
	}
	walk := slices.Clone(m.walk)
	for y := changed.Min.Y; y < changed.Max.Y; y++ {
		for x := changed.Min.X; x < changed.Max.X; x++ {
			k := y*m.w + x
			walk[k/64] &^= 1 << (k % 64)
			if g.Passable(image.Pt(x, y)) {
				walk[k/64] |= 1 << (k % 64)
			}
		}
	}
	nt := &tiling{size: t.size, nx: t.nx, ny: t.ny, tiles: slices.Clone(t.tiles)}
	for ty := changed.Min.Y / t.size; ty <= (changed.Max.Y-1)/t.size; ty++ {
		for tx := changed.Min.X / t.size; tx <= (changed.Max.X-1)/t.size; tx++ {
			nt.tiles[ty*t.nx+tx] = buildTile(g, t.tileRect(tx, ty, m.w, m.h))
		}
	}
	return nt.mesh(m.w, m.h, walk), nil
}
