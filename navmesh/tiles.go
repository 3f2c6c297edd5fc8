package navmesh

import (
	"errors"
	"fmt"
	"image"
	"slices"
	"sync/atomic"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/parallel"
	"github.com/cairn-nav/cairn/navmesh/internal/bucket"
	"github.com/cairn-nav/cairn/navmesh/internal/geom"
	"github.com/cairn-nav/cairn/navmesh/internal/tri"
	"github.com/go-gl/mathgl/mgl64"
)

// This file builds the tiled meshes of [Options.TileSize]. The grid is cut
// into square tiles of T cells from the top left corner (those of the last
// column and row may be narrower), and each tile is meshed from its own
// cells alone, as FromGrid meshes a whole grid: rectangles, cut into
// triangles, made constrained Delaunay and merged into convex polygons.
// The tile's border is a wall to that triangulation, so no polygon
// crosses it, and a tile's polygons depend on nothing outside it. Before
// the merge, the tile drops the rectangle corners on its border that are
// in the open (see tileborder.go), so that only its own corners and the
// points where a tile line meets a wall stay on the line.
//
// Stitching then joins the tiles: along each tile line, every polygon side
// that lies on the line is split at every polygon corner of either side on
// it, so that the two sides have the same vertices there. Each piece is
// then either a portal, the same edge in one polygon of each side, or a
// wall over blocked cells: a side changes from free to blocked along the
// line only at a point that stays a corner of its polygons. The pieces are collinear vertices in a row, which the
// package allows, and the polygons stay convex.
//
// A tiled mesh keeps each tile's polygons as built, before stitching, so
// that [Mesh.Update] can build only the tiles an edit touches and stitch
// again; FromGrid and Update share the stitching, so Update's mesh is the
// one FromGrid would build, polygon for polygon and in the same order.

// tiling is what a tiled mesh keeps for [Mesh.Update]: the tile side, the
// number of tiles across and down, and each tile's polygons, row-major.
type tiling struct {
	size   int
	nx, ny int
	tiles  []tilePolys
	// Per tile row r of the mesh stitched from these tiles, where its
	// polygons (rowPoly[r]), their edges (rowEdge[r]) and the vertices
	// the row is the first to use (rowVert[r]) begin; index ny holds the
	// totals. nil for a mesh whose numbering is not the stitch's (see
	// [Mesh.Update]).
	rowPoly, rowEdge, rowVert []int32
	// The graph of groups (tileprune.go): the node of each tile's first
	// group (groupBase, plus the total), and per row of tiles the links
	// between groups across the vertical lines in it (vlinks) and the
	// horizontal line above it (hlinks).
	groupBase      []int32
	vlinks, hlinks [][]groupLink
	// rec keeps a recycled mesh's arrays for Update (Mesh.Recycle); the
	// tilings Update makes share their tiling's.
	rec *recycler
	// corr holds the corridor search's tables (corridor_tiles.go), made
	// the first time a query needs them.
	corr atomic.Pointer[corridorTables]
}

// tilePolys are the convex polygons of one tile, built from its cells
// alone: polygon i has the grid corners corner[start[i]:start[i+1]], each
// numbered y·(W+1)+x for a grid W cells wide, in the package's order.
// The edge from corner k to the next of its polygon has for twin the edge
// from corner twin[k] of another polygon of the tile, run the other way,
// or twin[k] is −1 (a wall, or a side on the tile's border). Once built
// they are never changed, so meshes share them.
type tilePolys struct {
	start  []int32
	corner []int32
	twin   []int32
	area   []uint8 // per polygon, its area type; nil when all are ground
	// bkt lists the buckets of the map's point index (tileIndex) that
	// each polygon overlaps, sorted by bucket then polygon, so that a
	// mesh's index is the merge of its tiles' lists.
	bkt []bucketRef
	// Bridge pruning and components inside the tile (tileprune.go): per
	// polygon, its number (pre), the last number of its subtree (end) and
	// its group (0 to ngroups−1); the corners whose sides are pockets and
	// other bridges, both ways, sorted; and the groups each other bridge
	// joins, once.
	pre, end, group []int32
	ngroups         int32
	pockets, others []int32
	links           [][2]int32
}

// bucketRef is one entry of a tile's bucket lists: polygon poly of the
// tile overlaps bucket bucket.
type bucketRef struct{ bucket, poly int32 }

// tileIndex returns the empty point index of the tiled meshes of a w×h
// grid: a bucket grid over the map's box, a bucket for about 4×4 cells,
// fixed by the map's size alone whatever the polygons. Each tile can then
// find its polygons' buckets once, when it is built (bucketize), and
// stitching merges the tiles' lists, which Update does without looking
// at the polygons of the tiles it keeps. A point is located in the first
// polygon of its bucket that holds it, the one of least ID, so which
// buckets a mesh has changes no answer.
func tileIndex(w, h int) *polyIndex {
	x := &polyIndex{box: geom.Box{Max: mgl64.Vec2{float64(w), float64(h)}}}
	x.Grid = bucket.New(x.box, max(1, w*h/16))
	return x
}

// bucketize finds the buckets of x, the index of the grid whose corners
// are numbered with stride, that each polygon of tp overlaps.
func (tp *tilePolys) bucketize(x *polyIndex, stride int32) {
	tp.bkt = tp.bkt[:0]
	var vs []mgl64.Vec2
	for i := range len(tp.start) - 1 {
		vs = vs[:0]
		for _, c := range tp.corner[tp.start[i]:tp.start[i+1]] {
			vs = append(vs, mgl64.Vec2{float64(c % stride), float64(c / stride)})
		}
		x.visitPoly(vs, func(b int) bool {
			tp.bkt = append(tp.bkt, bucketRef{int32(b), int32(i)})
			return true
		})
	}
	slices.SortFunc(tp.bkt, func(p, q bucketRef) int {
		if p.bucket != q.bucket {
			return int(p.bucket - q.bucket)
		}
		return int(p.poly - q.poly)
	})
}

// checkTileSize returns an error for a TileSize that FromGrid refuses.
func checkTileSize(opt Options) error {
	switch {
	case opt.TileSize < 0:
		return fmt.Errorf("navmesh: tile size %d, want 0 or more", opt.TileSize)
	case opt.TileSize > 0 && opt.Radius != 0 && !opt.Rectangles:
		return errors.New("navmesh: tiles need a point agent (Radius 0), or Rectangles")
	}
	return nil
}

// tileRect returns the cells of tile (tx, ty) of a w×h grid.
func (t *tiling) tileRect(tx, ty, w, h int) image.Rectangle {
	return image.Rect(tx*t.size, ty*t.size, min((tx+1)*t.size, w), min((ty+1)*t.size, h))
}

// tiled returns FromGrid's mesh of g with opt.TileSize above 0, of convex
// polygons or, with opt.Rectangles, of rectangles.
func tiled(g *grid.Grid, opt Options) *Mesh {
	w, h := g.Width(), g.Height()
	size := opt.TileSize
	t := &tiling{size: size, nx: (w + size - 1) / size, ny: (h + size - 1) / size, rec: &recycler{}}
	if opt.Rectangles {
		var rects []rect
		for ty := range t.ny {
			for tx := range t.nx {
				b := t.tileRect(tx, ty, w, h)
				for _, r := range decompose(g, b, true) {
					x, y := int32(b.Min.X), int32(b.Min.Y)
					rects = append(rects, rect{r.x0 + x, r.y0 + y, r.x1 + x, r.y1 + y})
				}
			}
		}
		m := rectanglesOf(g, rects)
		m.area = rectAreas(g, image.Point{}, rects)
		m.finishRects()
		return m
	}
	// The tiles are meshed from their own cells alone: on GOMAXPROCS
	// goroutines, each writing its own tiles.
	t.tiles = make([]tilePolys, t.nx*t.ny)
	parallel.ForEach(len(t.tiles), func() struct{} { return struct{}{} }, func(_ struct{}, k int32) {
		t.tiles[k] = buildTile(g, t.tileRect(int(k)%t.nx, int(k)/t.nx, w, h))
	})
	walk := make([]uint64, (w*h+63)/64)
	for y := range h {
		for x := range w {
			if g.Passable(image.Pt(x, y)) {
				k := y*w + x
				walk[k/64] |= 1 << (k % 64)
			}
		}
	}
	return t.mesh(w, h, walk)
}

// buildTile returns the convex polygons of the free cells of g in b, made
// as FromGrid makes those of a whole grid, with b's border for a wall.
func buildTile(g *grid.Grid, b image.Rectangle) tilePolys {
	rects := decompose(g, b, true)
	if len(rects) == 0 {
		return tilePolys{}
	}
	area := rectAreas(g, b.Min, rects)
	tw, th := b.Dx(), b.Dy()
	cells := newCellIndex(tw, th)
	m := &Mesh{w: tw, h: th, loc: cells}
	for i, r := range rects {
		for y := r.y0; y < r.y1; y++ {
			for x := r.x0; x < r.x1; x++ {
				cells.cell[int(y)*tw+int(x)] = PolyID(i)
			}
		}
	}
	bd := builder{m: m, cells: cells, vid: make([]int32, (tw+1)*(th+1))}
	for i := range bd.vid {
		bd.vid[i] = -1
	}
	m.polys = make([]poly, len(rects))
	m.verts = make([]mgl64.Vec2, 0, 4*len(rects)+4)
	m.ev = make([]int32, 0, 6*len(rects))
	m.enb = make([]PolyID, 0, 6*len(rects))
	for i, r := range rects {
		bd.rectangle(PolyID(i), r)
	}
	// With areas, the triangles of different areas are kept apart (see
	// convex), each triangle's area being that of the rectangle under its
	// centroid.
	var ts tri.Triangles
	triArea := func(t [3]int32) uint8 {
		c := mean(m.verts, t[:])
		return area[cells.poly(int(c[0]), int(c[1]))]
	}
	if area == nil {
		ts = m.delaunay()
	} else {
		group := make([]int32, len(area))
		for i, a := range area {
			group[i] = int32(a)
		}
		ts = tri.RectanglesApart(m.verts, m.rings(), group)
	}
	if vs := openBorder(g, b, m); len(vs) > 0 {
		tris := dropVertices(m.verts, ts.Tris, vs)
		ts = tri.Triangles{Tris: tris, Adj: tri.Neighbors(len(m.verts), tris)}
		if area != nil {
			ts.Apart(func(i int) int32 { return int32(triArea(tris[i])) })
		}
		ts.Delaunay(m.verts)
	}
	f := tri.Merge(m.verts, ts)
	stride := int32(g.Width() + 1)
	ox, oy := int32(b.Min.X), int32(b.Min.Y)
	tp := tilePolys{start: make([]int32, 0, f.Len()+1), corner: make([]int32, 0, len(f.Verts))}
	local := make([]int32, 0, len(f.Verts)) // tp.corner as vertices of m
	of := make([]int32, 0, len(f.Verts))    // the polygon of each corner
	for id := range f.Len() {
		tp.start = append(tp.start, int32(len(tp.corner)))
		// Faces run counter-clockwise (y up); the package's order is the
		// reverse (see faceMesh).
		vs := f.Ring(id)
		k := len(vs)
		for j := range k {
			u := vs[(k-j)%k]
			v := m.verts[u]
			tp.corner = append(tp.corner, (int32(v[1])+oy)*stride+int32(v[0])+ox)
			local = append(local, u)
			of = append(of, int32(id))
		}
	}
	tp.start = append(tp.start, int32(len(tp.corner)))
	if area != nil {
		tp.area = make([]uint8, f.Len())
		for id := range f.Len() {
			c := mean(m.verts, f.Ring(id))
			tp.area[id] = area[cells.poly(int(c[0]), int(c[1]))]
		}
	}
	tp.twin = tri.PairEdges(len(m.verts), int32(len(local)), func(k int32) (int32, int32) {
		next := k + 1
		if next == tp.start[of[k]+1] {
			next = tp.start[of[k]]
		}
		return local[k], local[next]
	})
	tp.bucketize(tileIndex(g.Width(), g.Height()), stride)
	tp.prune(b, g.Width(), g.Height())
	return tp
}

// lineEdge is a piece of a polygon side on a tile line: edge e of the
// mesh, from vertex a to vertex b.
type lineEdge struct{ e, a, b int32 }

// pairLine sets twin[e−off] for the pieces on the tile lines: two pieces
// are twins when they join the same vertices, run opposite ways, as
// tri.PairEdges would pair them. Pieces of different tiles on a line are
// the only ones that can be.
func pairLine(line []lineEdge, twin []int32, off int32) {
	key := func(l lineEdge) (int32, int32) { return min(l.a, l.b), max(l.a, l.b) }
	slices.SortFunc(line, func(p, q lineEdge) int {
		p0, p1 := key(p)
		q0, q1 := key(q)
		if p0 != q0 {
			return int(p0 - q0)
		}
		if p1 != q1 {
			return int(p1 - q1)
		}
		return int(p.e - q.e)
	})
	for i := 0; i+1 < len(line); i++ {
		p, q := line[i], line[i+1]
		if p.a == q.b && p.b == q.a {
			twin[p.e-off], twin[q.e-off] = q.e, p.e
			i++
		}
	}
}

// link finds the polygon across each edge of m, whose polygons are set,
// and that edge's index in it (etwin), and counts the portals: two
// polygons are neighbours across an edge they both have, run the other
// way round.
func (m *Mesh) link() {
	m.setTwins(tri.PairEdges(len(m.verts), int32(len(m.ev)), func(e int32) (int32, int32) {
		p := m.polys[m.polyOfEdge(e)]
		return m.edgeIDs(p, e-p.e0)
	}))
}

// polyOfEdge returns the polygon of edge e, by binary search.
func (m *Mesh) polyOfEdge(e int32) PolyID {
	i, _ := slices.BinarySearchFunc(m.polys, e, func(p poly, e int32) int {
		switch {
		case e < p.e0:
			return 1
		case e >= p.e0+p.ne:
			return -1
		}
		return 0
	})
	return PolyID(i)
}

// setTwins sets m's neighbours across edges (enb, etwin) and its number of
// portals from the twin of each edge (−1 for a wall).
func (m *Mesh) setTwins(tw []int32) {
	of := make([]PolyID, len(m.ev))
	for id, p := range m.polys {
		for i := range p.ne {
			of[p.e0+i] = PolyID(id)
		}
	}
	m.enb = make([]PolyID, len(m.ev))
	m.etwin = make([]int32, len(m.ev))
	m.nport = 0
	for e, t := range tw {
		m.enb[e], m.etwin[e] = -1, -1
		if t >= 0 {
			nb := of[t]
			m.enb[e], m.etwin[e] = nb, t-m.polys[nb].e0
			m.nport++
		}
	}
	m.nport /= 2
}
