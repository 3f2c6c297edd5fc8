package navmesh

import (
	"image"
	"slices"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/navmesh/internal/tri"
	"github.com/go-gl/mathgl/mgl64"
)

// This file thins the vertices a tile's triangles have on its border.
// Every rectangle of a tile that reaches a tile line puts its corners on
// it, most of them in the open, and the polygons on either side then meet
// the line in fans of slivers, each piece of the line a portal of its own:
// a search crossing a tile line splits its cones at each of them, and
// measured on Berlin_0_1024 that made queries several times slower. So
// before the merge a tile drops each vertex on a tile line that has a
// free cell of the tile on both sides of it along the line, of one area
// type (it is then neither a wall corner, nor where the line meets a wall
// or the boundary between two areas): the triangles
// round it are cut again by ear clipping without it, and all are flipped
// back to constrained Delaunay. What is left on the line are the tile's
// corners and the points where the line meets its walls, which stitching
// needs (see tiles.go).

// openBorder returns the vertices of the tile mesh m, the rectangles of
// the cells of g in b, that lie on b's border inside a tile line of g (not
// the map's edge, nor b's corners) between two free cells of b along it
// of one area type (see openAt).
func openBorder(g *grid.Grid, b image.Rectangle, m *Mesh) []int32 {
	var out []int32
	for i, v := range m.verts {
		if openAt(g, b, int(v[0]), int(v[1])) {
			out = append(out, int32(i))
		}
	}
	return out
}

// openAt reports whether the grid corner (x, y), relative to tile b of g,
// lies on b's border inside a tile line of g (not the map's edge, nor b's
// corners) between two free cells of b along the line of one area type:
// a vertex there is one a tile drops, and one that stitching adds to the
// tile's polygons when the tile across has a corner there.
func openAt(g *grid.Grid, b image.Rectangle, x, y int) bool {
	tw, th := b.Dx(), b.Dy()
	free := func(x, y int) bool { return g.Passable(b.Min.Add(image.Pt(x, y))) }
	area := func(x, y int) uint8 { return g.Area(b.Min.Add(image.Pt(x, y))) }
	switch {
	case (x == 0 || x == tw) && y > 0 && y < th:
		if (x == 0 && b.Min.X == 0) || (x == tw && b.Max.X == g.Width()) {
			return false // the map's edge
		}
		c := min(x, tw-1)
		return free(c, y-1) && free(c, y) && area(c, y-1) == area(c, y)
	case (y == 0 || y == th) && x > 0 && x < tw:
		if (y == 0 && b.Min.Y == 0) || (y == th && b.Max.Y == g.Height()) {
			return false
		}
		r := min(y, th-1)
		return free(x-1, r) && free(x, r) && area(x-1, r) == area(x, r)
	}
	return false
}

// dropVertices returns the triangles tris (counter-clockwise, y up, on the
// positions pos) with each vertex of vs, a vertex on the straight border of
// the triangulated area round which the area is a half disc, taken out: the
// fan of triangles round it is replaced by an ear clipping of the polygon
// its far sides make. A vertex whose fan is not such a polygon, or that
// the ear clipper cannot cut, stays. The result is not Delaunay.
func dropVertices(pos []mgl64.Vec2, tris [][3]int32, vs []int32) [][3]int32 {
	// Per vertex, the triangles round it, kept up to date for those to drop.
	round := make([][]int32, len(pos))
	drop := make([]bool, len(pos))
	for _, v := range vs {
		drop[v] = true
	}
	for t, tr := range tris {
		for _, v := range tr {
			if drop[v] {
				round[v] = append(round[v], int32(t))
			}
		}
	}
	dead := make([]bool, len(tris))
	var sides [][2]int32
	for _, v := range vs {
		fan := round[v]
		// Each triangle (v, a, b) gives the far side a→b; the chain starts
		// at the a that no side ends at.
		sides = sides[:0]
		for _, t := range fan {
			a, b := rotateTo(tris[t], v)
			sides = append(sides, [2]int32{a, b})
		}
		from := func(a int32) (int32, bool) {
			for _, s := range sides {
				if s[0] == a {
					return s[1], true
				}
			}
			return 0, false
		}
		var p0 int32 = -1
		for _, s := range sides {
			if !slices.ContainsFunc(sides, func(o [2]int32) bool { return o[1] == s[0] }) {
				if p0 >= 0 {
					p0 = -2 // two chains: not a half disc
					break
				}
				p0 = s[0]
			}
		}
		if p0 < 0 {
			continue
		}
		ring := []int32{p0}
		for q, ok := from(p0); ok && len(ring) <= len(fan); q, ok = from(q) {
			ring = append(ring, q)
		}
		if ring[len(ring)-1] == p0 || len(ring) != len(fan)+1 {
			continue
		}
		cut, err := tri.EarTriangles(tri.Input{Pos: pos, Polygons: []tri.Polygon{{Outer: ring}}})
		if err != nil || len(cut) != len(ring)-2 {
			continue
		}
		for _, t := range fan {
			dead[t] = true
		}
		for _, tr := range cut {
			t := int32(len(tris))
			tris = append(tris, tr)
			dead = append(dead, false)
			for _, u := range tr {
				if drop[u] {
					round[u] = append(round[u], t)
				}
			}
		}
		// The other dropped vertices' lists lose the dead triangles.
		for _, tr := range fan {
			for _, u := range tris[tr] {
				if u != v && drop[u] {
					l := round[u][:0]
					for _, t := range round[u] {
						if !dead[t] {
							l = append(l, t)
						}
					}
					round[u] = l
				}
			}
		}
	}
	out := tris[:0]
	for t, tr := range tris {
		if !dead[t] {
			out = append(out, tr)
		}
	}
	return out
}

// rotateTo returns the other two corners of triangle tr, which has corner
// v, in its order after v.
func rotateTo(tr [3]int32, v int32) (a, b int32) {
	switch v {
	case tr[0]:
		return tr[1], tr[2]
	case tr[1]:
		return tr[2], tr[0]
	}
	return tr[0], tr[1]
}
