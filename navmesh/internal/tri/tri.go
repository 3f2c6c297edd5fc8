// Package tri is the triangulator of package navmesh: it builds the
// constrained Delaunay triangulation of polygons with holes (the Delaunay
// triangulation of their vertices by randomized incremental insertion,
// then the ring edges forced in, in O(n log n) expected: [Triangulate]),
// or cuts them by ear clipping with the holes bridged to the outer ring
// and flips the triangles into it ([Ears], [Triangles.Delaunay]: O(n²) at
// worst, kept as the oracle of the tests), or cuts axis-aligned
// rectangles in strips and flips those ([Rectangles]), all with exact
// predicates; and it merges triangles into convex polygons (Hertel and
// Mehlhorn's method, [Merge]).
//
// Its input is positions, [mgl64.Vec2] in the textbook y-up sense, and
// rings of indices into them, each with its area on the left: an outer
// ring counter-clockwise, a hole clockwise. Its output is faces on the
// same positions, counter-clockwise, with the face across each edge; no
// new vertices are made. The input must be simple (package navmesh checks
// it first); the triangulator does not check it again.
package tri

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl64"
)

// Options tunes the triangulator. The zero value is the triangulation
// package navmesh builds with.
type Options struct {
	// BridgeByDistance makes Triangulate cut by ear clipping, as [Ears]
	// does, and the ear clipper skip Eberly's choice of the vertex a hole
	// is joined to, and try the vertices by distance from the hole at
	// once: the search that backs up Eberly's choice, which valid input
	// hardly ever needs, so that tests can check it.
	BridgeByDistance bool
}

// Polygon is a polygon with holes: its rings as vertex ids into the
// positions, the area on the left of each (y up), so the outer ring runs
// counter-clockwise and the holes clockwise.
type Polygon struct {
	Outer []int32
	Holes [][]int32
}

// Input is what [Triangulate] cuts: the positions, and polygons on them
// that are simple and do not overlap.
type Input struct {
	Pos      []mgl64.Vec2
	Polygons []Polygon
	Options  Options
}

// Triangles are counter-clockwise triangles (y up), their corners vertex
// ids into the positions, and their adjacency: for edge k of triangle t
// (from corner k to corner k+1), Adj[3t+k] is the same edge of the
// triangle across it, as a half-edge 3u+j, or −1 where there is none.
type Triangles struct {
	Tris [][3]int32
	Adj  []int32
}

// Error reports a polygon that could not be cut: on simple input a bug,
// else (for [Triangulate]) what is wrong with it, where it can tell.
type Error struct {
	// Polygon is the index of the polygon in Input.Polygons.
	Polygon int
	// Problem says what failed.
	Problem string
}

// Error returns "tri: polygon N: PROBLEM".
func (e *Error) Error() string { return fmt.Sprintf("tri: polygon %d: %s", e.Polygon, e.Problem) }

// Triangulate returns the constrained Delaunay triangulation of the
// polygons of in: the triangles of the area whose edges include every
// ring edge, and every other edge is locally Delaunay (no triangle's
// circumcircle strictly holds the far corner of a neighbour across an
// edge that is not a ring edge), on the rings' vertices alone. Its walls,
// the edges with no triangle across, are exactly the ring edges.
//
// It builds the Delaunay triangulation of all the rings' vertices by
// randomized incremental insertion in a biased randomized order along a
// Hilbert curve, forces the ring edges in (Anglada's method), and drops
// the triangles outside the area, found from the side of each ring edge
// its area is on; the predicates are exact (see package geom, and
// inCircle). That costs O(n log n) expected for n vertices, collinear and
// cocircular ones included, and O(n) memory, but for forcing in a ring
// edge that crosses k triangles, O(k log k) typically and O(k²) at worst
// (a fan of k thin triangles). Most ring edges are edges of the
// Delaunay triangulation already, and the rest cross few triangles: 13 on
// average and 163 at most on the 100,000-vertex spiky star with holes of
// the benchmarks. Each
// triangle comes out from its least vertex id, and the triangles sorted,
// so the output does not depend on the order of the rings or where they
// start but where four points are cocircular. It only reads in, so
// goroutines may triangulate one Input at once.
//
// Two ring vertices at one position, a vertex in two rings, a ring of
// fewer than 3 vertices or running the wrong way round, and rings that
// cross are an [*Error]; input that is not simple in other ways may be
// too, or may come out triangulated as it stands (a ring edge through a
// vertex of another ring is split there).
//
// With in.Options.BridgeByDistance it cuts by [Ears] and flips by
// [Triangles.Delaunay] instead, as it once did, so that the ear
// clipper's search for bridges can be tested through package navmesh.
func Triangulate(in Input) (Triangles, error) {
	if in.Options.BridgeByDistance {
		t, err := Ears(in)
		if err != nil {
			return Triangles{}, err
		}
		t.Delaunay(in.Pos)
		return t, nil
	}
	return incremental(in)
}

// Ears cuts the polygons of in into triangles by ear clipping, polygon by
// polygon (see clip for the method and its cost), and pairs their edges.
// A failure is an [*Error] naming the polygon.
func Ears(in Input) (Triangles, error) {
	tris, err := EarTriangles(in)
	if err != nil {
		return Triangles{}, err
	}
	return Triangles{Tris: tris, Adj: Neighbors(len(in.Pos), tris)}, nil
}

// EarTriangles is [Ears] without the pairing of the edges: the triangles
// alone. Pairing costs O(len(in.Pos)) however small the polygons, so a
// caller that cuts many small rings among many positions, and needs no
// adjacency, saves that.
func EarTriangles(in Input) ([][3]int32, error) {
	var tris [][3]int32
	for i, pg := range in.Polygons {
		var err error
		if tris, err = clip(tris, in.Pos, pg, in.Options); err != nil {
			return nil, &Error{Polygon: i, Problem: err.Error()}
		}
	}
	return tris, nil
}

// Delaunay flips t, on the positions pos, into the constrained Delaunay
// triangulation of the same polygons, in place (Lawson's flips with exact
// orientation and in-circle tests, see delaunay).
func (t Triangles) Delaunay(pos []mgl64.Vec2) { delaunay(pos, t.Tris, t.Adj) }

// Rectangles cuts axis-aligned rectangles into triangles and flips them
// into the constrained Delaunay triangulation of their corners. Each ring
// of rects is a rectangle's corners and the points along its sides,
// counter-clockwise (y up); the flips' tests are exact, in int64 on
// integer coordinates and in floating point else (see delaunayInt).
// Rectangles cost O(k) each for k points (see
// stripRect), and the flips few.
func Rectangles(pos []mgl64.Vec2, rects Rings) Triangles {
	ntri := 0
	for i := range rects.Len() {
		ntri += len(rects.Ring(i)) - 2
	}
	tris := make([][3]int32, 0, ntri)
	for i := range rects.Len() {
		tris = stripRect(pos, rects.Ring(i), tris)
	}
	adj := Neighbors(len(pos), tris)
	delaunayInt(pos, tris, adj)
	return Triangles{Tris: tris, Adj: adj}
}

// RectanglesApart is [Rectangles] for rectangles in groups, group[i] being
// ring i's: the triangles of different groups are never flipped into one
// another, and their Adj is −1 across the sides where groups meet, as at a
// wall, so that [Merge] keeps the groups apart too and each face it makes
// lies in one group. [Rejoin] then joins the faces across those sides. On
// a grid the groups are the cells' area types, which a polygon must not
// mix. The cost is Rectangles' and one pass over the triangles' edges.
func RectanglesApart(pos []mgl64.Vec2, rects Rings, group []int32) Triangles {
	tris := make([][3]int32, 0, len(rects.Verts))
	of := make([]int32, 0, len(rects.Verts)) // per triangle, its ring's group
	for i := range rects.Len() {
		tris = stripRect(pos, rects.Ring(i), tris)
		for len(of) < len(tris) {
			of = append(of, group[i])
		}
	}
	ts := Triangles{Tris: tris, Adj: Neighbors(len(pos), tris)}
	ts.Apart(func(t int) int32 { return of[t] })
	delaunayInt(pos, tris, ts.Adj)
	return ts
}

// Apart cuts the adjacency of t between triangles of different groups, as
// group(i) gives triangle i's: Adj becomes −1 across, as at a wall, so
// that neither flips nor [Merge] join them.
func (t Triangles) Apart(group func(i int) int32) {
	for h, o := range t.Adj {
		if o >= 0 && group(h/3) != group(int(o)/3) {
			t.Adj[h] = -1
		}
	}
}

// Rejoin sets, for every edge of f with no face across it (NB −1) whose
// reverse is an edge of another face, NB to that face: the sides
// [RectanglesApart] kept apart become shared edges again, while walls,
// which no face has the other way round, stay −1. nv bounds the vertex
// ids. It costs O(e + nv) for e edges.
func Rejoin(f Faces, nv int) {
	of := make([]int32, len(f.Verts)) // per edge, its face
	for i := range f.Len() {
		for j := f.Start[i]; j < f.Start[i+1]; j++ {
			of[j] = int32(i)
		}
	}
	tw := PairEdges(nv, int32(len(f.Verts)), func(h int32) (int32, int32) {
		i := of[h]
		next := h + 1
		if next == f.Start[i+1] {
			next = f.Start[i]
		}
		return f.Verts[h], f.Verts[next]
	})
	for h, nb := range f.NB {
		if nb < 0 && tw[h] >= 0 {
			f.NB[h] = of[tw[h]]
		}
	}
}
