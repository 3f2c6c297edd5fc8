// Package navmesh is Cairn's continuous-space layer: a mesh of convex
// polygons joined by shared edges, point location on it, and an exact
// any-angle path search over it that runs on core A*.
//
// # Coordinates
//
// Points are [mgl64.Vec2] in Cairn's world coordinates: cell (x, y) of a
// grid covers [x, x+1) × [y, y+1), x grows to the right and y grows down,
// so row 0 is at the top. Lengths are Euclidean, in cells. Polygons are
// closed sets: a point on a polygon's edge, a wall edge included, is on the
// mesh.
//
// Polygon vertices are listed counter-clockwise as seen on screen (with y
// down): walking from each vertex to the next, the interior lies to the
// left in the sense of package funnel, that is cross(vᵢ, vᵢ₊₁, p) ≤ 0 for
// every point p of the polygon. In the textbook y-up reading of the same
// numbers this is the clockwise order, and the shoelace sum is negative.
// Each edge of a polygon is either a wall or a portal: the whole segment two
// polygons share. Where a neighbour's corner meets the middle of a side, the
// side is split there, so a polygon may have several collinear vertices in
// a row. Polygons that touch at a single point are not neighbours.
//
// # Building from a grid
//
// [FromGrid] first cuts the free cells into axis-aligned rectangles whose
// corners are cell corners: maximal runs of free cells in each row, each
// grown downward for as long as the row below holds exactly the same run.
// Two rectangles are neighbours where they share a boundary segment of
// positive length; rectangles that meet only at a corner are not, which is
// the grid's no-corner-cutting rule. Every corner of a rectangle lies on a
// wall (the left end of a run has a blocked cell or the map's edge to its
// left), so the rectangles' corners are the traced boundary's exact corners
// plus some points along straight walls. It then cuts each rectangle into
// triangles, flips them into the constrained Delaunay triangulation of
// those corners (the walls stay), and merges the triangles into convex
// polygons (Hertel–Mehlhorn, longest diagonals first). No vertex lies in
// the open, so a polygon can span a whole street at any angle, where
// rectangles stack one row at a time: on Moving AI maps this makes searches
// several times faster. Cells that touch only at a corner stay apart, as
// the triangles never cross from one rectangle to another but through
// their shared sides. With [Options.Rectangles] FromGrid returns the
// rectangles themselves. A path on either mesh never passes through a grid
// corner between two diagonally opposite blocked cells.
//
// Cells of different area types ([grid.Grid.Area]: swamp, or a caller's
// types) never share a polygon: the rectangles are runs of one area, and
// the triangles of different areas are neither flipped nor merged into
// one another, so each polygon has the area of its cells ([Mesh.Area]) and
// the boundary between two areas is a chain of portals. A query's filter
// ([Query.Filter]) then excludes or weighs polygons by area, as Detour's
// query filter does. A map of one area gives the mesh it gave before
// area types existed; a mesh for an agent radius has no area types.
//
// # Building from polygons
//
// [FromPolygons] takes the walkable area as orb polygons with holes (from
// GeoJSON through orb's geojson package, say), refuses input that is not
// simple, cuts each polygon into triangles by ear clipping with its holes
// bridged to the outer ring, flips them into the constrained Delaunay
// triangulation, and merges the triangles into convex polygons
// (Hertel–Mehlhorn). Its mesh vertices are the input's points, and its
// walls the rings; a path turns only at ring vertices where the walkable
// angle exceeds 180°. Points are located through a bucket grid with exact
// tests, so a point on a shared edge or vertex is never lost between
// polygons.
//
// # Path search
//
// A [Searcher] finds the shortest any-angle path: the shortest polyline from
// start to goal that stays on the mesh. It is the interval search of
// Polyanya (Cui, Harabor and Grastien, IJCAI 2017) run on core A*, which
// does the work of the funnel algorithm inside the search. A node is a root
// (the start, or a wall corner where the path turns) together with what the
// root sees of one polygon: an interval of the portal it enters by (a
// cone), or the part of the polygon a corner hides from the root before (a
// fan). Expanding a cone projects its interval across the polygon onto the
// polygon's other edges. A node's cost is the exact length of the taut path
// to its root; its heuristic, the length of the shortest way from the root
// through the interval to the goal, never overestimates and never decreases
// along a path, so the first path to reach the goal is the shortest (within
// rounding: collinearity is decided with a tolerance of 10⁻¹⁰ in the sine
// of the angle). Paths turn only at convex corners of the walls, which for
// a grid are the grid corners with exactly one blocked cell around them.
// A turn at a corner may go on into any polygon round it beyond the line
// the path came in on, so the search steps round the corner from polygon
// to polygon (on a grid mesh there are at most three).
// Nodes are made during the search, so the graph core sees grows with each
// query; the search keeps, for every vertex, the cheapest cost at which it
// became a root, and drops nodes of a costlier root (root-level pruning).
// Nor does it cross a bridge, a portal whose removal would split the mesh,
// into the side that holds neither the start nor the goal: a path could only
// come back the same way (see bridges). In a maze that confines the search
// to the corridors between start and goal.
//
// A query can also be sliced for a game's frame budget:
// [Searcher.BeginSliced] starts it, [Searcher.Step] runs a bounded number
// of expansions at a time, and [Searcher.AppendSlicedPath] then gives
// AppendPath's answer.
//
// A [Mesh] is immutable and safe for concurrent use; a [Searcher] is not, and
// each goroutine uses its own.
package navmesh

import (
	"math"

	"github.com/cairn-nav/cairn/funnel"
	"github.com/go-gl/mathgl/mgl64"
)

// PolyID identifies a polygon of a [Mesh]: polygons are numbered from 0 to
// [Mesh.NumPolys]−1. −1 means none.
type PolyID int32

// Neighbor is a polygon next to another and the portal between them, seen
// walking from the first polygon into Poly: Portal.Left and Portal.Right
// are the end points of the shared segment on the walker's left and right.
type Neighbor struct {
	Poly   PolyID
	Portal funnel.Portal
}

// Mesh is an immutable set of convex polygons with shared-edge adjacency.
// Its methods are safe for concurrent use.
type Mesh struct {
	kind   meshKind
	verts  []mgl64.Vec2 // distinct vertices
	reflex []bool       // per vertex: a convex corner of the walls
	polys  []poly
	// area holds each polygon's area type (see [Mesh.Area]); nil when all
	// are grid.AreaGround.
	area []uint8
	// For each vertex v where polygons of several area types meet, the
	// areas of the four cells round it, vcells[4k:4k+4] for k =
	// vcellAt[v] (−1 for the other vertices); nil when area is (see
	// areaCorners).
	vcellAt []int32
	vcells  []uint8
	// Per polygon edge, polygon p's edges at [e0, e0+ne): the edge's first
	// vertex (the next edge's first vertex ends it), the polygon across it
	// (−1 for a wall), and the index of the same edge in that polygon.
	ev    []int32
	enb   []PolyID
	etwin []int32
	nport int

	// The grid a mesh of kind rectMesh or convexGridMesh was built from:
	// its size, and its walkable cells (those the mesh covers), a bit per
	// cell in row-major order; zero and nil for a mesh from polygons.
	w, h int
	walk []uint64
	// bound, for a mesh of polygons that FromGrid built for an agent
	// radius, is the binding that ReadFor checks: the grid's size and a
	// fingerprint of its cells, the radius and the subcell side (see
	// radiusBinding); zero otherwise.
	bound binding
	// loc locates points: the cell index of a mesh of rectangles, the
	// polygon index of a mesh of convex polygons; nil for the zero Mesh.
	loc locator

	// Bridge pruning (see bridges): per edge, whether it is a bridge
	// (bridgePocket), or for a tiled mesh may be one (bridgeMaybe,
	// tileprune.go); per polygon, its depth-first number and the last
	// number of its subtree.
	bridge   []uint8
	pre, end []int32
	// tree, for a tiled mesh of convex polygons numbered as its tiles
	// stitch, numbers the groups that its polygons' comp holds
	// (tileprune.go); nil for other meshes, whose comp is the component.
	tree *dfsTree

	// tiles, for a mesh FromGrid built with Options.TileSize, is what
	// Update needs to mesh some tiles again; nil otherwise.
	tiles *tiling
	// own says that the mesh's arrays are its own, shared with no other
	// mesh, so that Recycle may give them to an Update: those of a tiled
	// mesh of convex polygons that FromGrid stitched or Update spliced.
	own bool
	// lmHeld says that Recycle gives back m's holds on the blocks of its
	// landmark distances (landmarks_update.go) though its other arrays
	// are not its own: a mesh ReadFor read in tiles, or one whose arrays
	// WithLandmarks handed on with landmarks of its own.
	lmHeld bool
	// lin, for a mesh that Update spliced, says what it shares with the
	// mesh it was spliced from (recycle.go); zero otherwise.
	lin lineage

	// lm, when not nil, holds the landmarks of the exact search's
	// heuristic (landmarks.go).
	lm *landmarks
}

// meshKind says how a mesh was built, which decides how it is written and
// checked when read (see file.go) and how it locates points (loc).
type meshKind uint8

const (
	// The zero kind is the zero Mesh's: no polygons, and it cannot be
	// written.
	_ meshKind = iota
	// rectMesh is the rectangles of a grid's cells ([FromGrid] with
	// Options.Rectangles, or a grid without free cells), located by a
	// cell index: file source 1.
	rectMesh
	// convexGridMesh is the convex polygons FromGrid makes of a grid's
	// rectangles, located by a polygon index: file source 3.
	convexGridMesh
	// polygonMesh is the convex polygons [FromPolygons] makes, eroded or
	// not, with no grid, located by a polygon index: file source 2.
	polygonMesh
)

type poly struct {
	e0, ne int32
	comp   int32 // connected component; for a tiled mesh, its group (Mesh.tree)
}

// Origin is what a mesh was built from, as its file keeps it.
type Origin uint8

const (
	// OriginNone is the zero Mesh's.
	OriginNone Origin = iota
	// OriginRectangles is the rectangles of a grid's cells (FromGrid with
	// Options.Rectangles).
	OriginRectangles
	// OriginGrid is the convex polygons FromGrid makes of a grid.
	OriginGrid
	// OriginGridRadius is FromGrid's mesh for an agent radius: polygons
	// offset from the grid's walls.
	OriginGridRadius
	// OriginPolygons is FromPolygons' mesh, of no grid.
	OriginPolygons
)

// Origin returns what m was built from and, for a mesh of a grid, the
// grid's size (0, 0 otherwise), for tools that show it; a mesh read from a
// file says what the file says. ReadFor, not this, checks a mesh against a
// grid.
func (m *Mesh) Origin() (o Origin, w, h int) {
	switch {
	case m.kind == rectMesh:
		return OriginRectangles, m.w, m.h
	case m.kind == convexGridMesh:
		return OriginGrid, m.w, m.h
	case m.kind == polygonMesh && m.bound != binding{}:
		return OriginGridRadius, int(m.bound.w), int(m.bound.h)
	case m.kind == polygonMesh:
		return OriginPolygons, 0, 0
	}
	return OriginNone, 0, 0
}

// Area returns the area type of polygon id, which queries' filters weigh
// or exclude ([Query.Filter]): on a mesh [FromGrid] built for a point
// agent, tiled or not, the area type of every cell the polygon covers (see
// [grid.Grid.Area]), as a polygon never spans two; [grid.AreaGround] on a
// mesh for an agent radius and on one from polygons. It panics if id is
// not a polygon of m.
func (m *Mesh) Area(id PolyID) uint8 {
	_ = m.polys[id]
	if m.area == nil {
		return 0
	}
	return m.area[id]
}

// NumPolys returns the number of polygons.
func (m *Mesh) NumPolys() int { return len(m.polys) }

// NumPortals returns the number of portals, one per pair of neighbours.
func (m *Mesh) NumPortals() int { return m.nport }

// NumVertices returns the number of distinct polygon vertices.
func (m *Mesh) NumVertices() int { return len(m.verts) }

// AppendPolygon appends the vertices of polygon id, in the order the
// package documentation gives, to dst and returns the extended slice. It
// panics if id is not a polygon of m.
func (m *Mesh) AppendPolygon(dst []mgl64.Vec2, id PolyID) []mgl64.Vec2 {
	p := m.polys[id]
	for _, v := range m.ev[p.e0 : p.e0+p.ne] {
		dst = append(dst, m.verts[v])
	}
	return dst
}

// AppendNeighbors appends the neighbours of polygon id to dst, with the
// portals oriented for a walker leaving id, and returns the extended slice.
// It panics if id is not a polygon of m.
func (m *Mesh) AppendNeighbors(dst []Neighbor, id PolyID) []Neighbor {
	p := m.polys[id]
	for i := range p.ne {
		if nb := m.enb[p.e0+i]; nb >= 0 {
			a, b := m.edge(p, i)
			dst = append(dst, Neighbor{Poly: nb, Portal: funnel.Portal{Left: b, Right: a}})
		}
	}
	return dst
}

// edge returns the end points of edge i of p, in p's order.
func (m *Mesh) edge(p poly, i int32) (a, b mgl64.Vec2) {
	j := i + 1
	if j == p.ne {
		j = 0
	}
	return m.verts[m.ev[p.e0+i]], m.verts[m.ev[p.e0+j]]
}

// Connected reports in O(1) whether polygons a and b are joined by a chain
// of neighbours. It is false when either is not a polygon of m.
func (m *Mesh) Connected(a, b PolyID) bool {
	n := PolyID(len(m.polys))
	return a >= 0 && b >= 0 && a < n && b < n && m.component(a) == m.component(b)
}

// component returns the component of polygon p.
func (m *Mesh) component(p PolyID) int32 {
	if m.tree != nil {
		return m.tree.comp[m.polys[p].comp]
	}
	return m.polys[p].comp
}

// Locate returns a polygon that contains p and true, or −1 and false when p
// is not on the mesh. A point on an edge or vertex shared by several
// polygons may be reported in any of them. It costs O(1) and does not
// allocate: on a mesh of rectangles it looks up the cell under p; on a
// mesh of convex polygons it tests p exactly against the few polygons of
// its bucket.
func (m *Mesh) Locate(p mgl64.Vec2) (PolyID, bool) {
	if m.loc == nil {
		return -1, false // the zero Mesh
	}
	id, _ := m.loc.around(m, p, 0)
	return id, id >= 0
}

// appendAround appends the distinct polygons that contain p to dst.
func (m *Mesh) appendAround(dst []PolyID, p mgl64.Vec2) []PolyID {
	if m.loc == nil {
		return dst
	}
	for id, next := m.loc.around(m, p, 0); id >= 0; id, next = m.loc.around(m, p, next) {
		dst = append(dst, id)
	}
	return dst
}

// Nearest returns the polygon closest to p and the point of it closest to p:
// p itself when p is on the mesh. On an empty mesh, or for a p with a NaN
// coordinate, it returns −1 and p. It searches rings of cells (on a mesh
// of convex polygons, of buckets) around p, so it costs O(1) on the mesh
// and O(d²) for a point d cells or buckets away from it; it does not
// allocate. On a mesh of convex polygons the point off the mesh is
// computed in floating point, so it may lie off its polygon by rounding.
func (m *Mesh) Nearest(p mgl64.Vec2) (PolyID, mgl64.Vec2) {
	if id, ok := m.Locate(p); ok {
		return id, p
	}
	if len(m.polys) == 0 || math.IsNaN(p[0]) || math.IsNaN(p[1]) {
		return -1, p
	}
	return m.loc.nearest(m, p)
}
