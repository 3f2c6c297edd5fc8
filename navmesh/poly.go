package navmesh

import (
	"errors"
	"fmt"
	"slices"

	"github.com/cairn-nav/cairn/navmesh/internal/geom"
	"github.com/cairn-nav/cairn/navmesh/internal/tri"
	"github.com/go-gl/mathgl/mgl64"
	"github.com/paulmach/orb"
)

// PolygonError reports input that [FromPolygons] refuses: which ring of
// which polygon, and what is wrong with it.
type PolygonError struct {
	// Polygon is the index of the polygon in the MultiPolygon.
	Polygon int
	// Ring is the ring of the polygon, as orb numbers them: 0 is the outer
	// ring and k ≥ 1 is hole k. −1 means the polygon as a whole.
	Ring int
	// Problem says what is wrong, naming segments (segment i runs from
	// point i to point i+1 of the ring, the last back to point 0) and
	// points by their index in the ring as given.
	Problem string
}

func (e *PolygonError) Error() string {
	return fmt.Sprintf("navmesh: %s: %s", ringName(e.Polygon, e.Ring), e.Problem)
}

// ringName names ring k of polygon i for messages.
func ringName(i, k int) string {
	switch {
	case k < 0:
		return fmt.Sprintf("polygon %d", i)
	case k == 0:
		return fmt.Sprintf("polygon %d outer ring", i)
	}
	return fmt.Sprintf("polygon %d hole %d", i, k)
}

// Coordinates of polygon input must be 0 or of a magnitude within
// [minCoord, maxCoord]: there the orientation predicate is exact, since no
// product of two coordinates overflows or loses bits to underflow.
const (
	minCoord = 1e-100
	maxCoord = 1e100
)

// FromPolygon builds the mesh of the area inside polygon pg: its outer
// ring minus its holes. See [FromPolygons].
func FromPolygon(pg orb.Polygon, opt Options) (*Mesh, error) {
	return FromPolygons(orb.MultiPolygon{pg}, opt)
}

// FromPolygons builds the mesh of the walkable area mp: the union of its
// polygons, each the area inside its outer ring (orb's ring 0) and outside
// its holes. The boundary is wall; the mesh is closed, so a path may run
// along it. Rings may be closed (the first point repeated at the end, as
// GeoJSON and orb write them) or not, and either way round; mesh polygons
// come out in the order the package documentation gives.
//
// The input must be simple, and is checked with exact predicates: every
// coordinate finite and 0 or of a magnitude within [1e-100, 1e100]; every
// ring at least 3 distinct points, of positive area, without a repeated
// point; no two segments of the whole input meeting, except neighbours in a
// ring at their shared point (a crossing, a touch at a point, and a
// collinear overlap are all refused, also between rings); each hole inside
// its outer ring, and neither inside nor around another hole of its
// polygon; no polygon in the area of another, though one may lie in a
// hole of another (an island, which may have holes with islands in turn).
// Put another way: the ring right around a hole is its own outer ring,
// and the ring right around an outer ring, if any, is a hole. Anything
// else is a [*PolygonError] saying which ring, which segments or points,
// and where. Of several segments meeting others, it names the first in
// input order that meets an earlier one, and the first of those; of
// several rings nested wrongly, the first hole outside its outer ring or
// nested with an earlier hole of its polygon, and the first of those, or
// if there is none, the first polygon that lies in the area of an earlier
// one or holds an earlier one in its area, and the first of those.
//
// With Options.Radius r > 0 the mesh is of the area an agent of radius r
// may stand in, eroded as Recast erodes it: the area is rasterized into
// square cells (Options.CellSize, by default r/2, rounded down to a power
// of two c), a cell is kept when it lies inside the area and no wall comes
// within r of it, and the cells kept are meshed as [FromGrid] meshes a
// grid. Every point of the mesh, so every path on it, keeps at least r
// from every wall; the mesh's walls run along cell sides, so paths pass
// up to about 2c further from walls than they must, and passages up to
// about 2(r + c) wide may close. Its vertices are exact multiples of c.
// An area of more than 2²⁴ cells, cells below 1e-100 or too small for the
// coordinates to hold their corners exactly, and an area of which nothing
// is r from the walls are errors. Eroding costs about O((L/c)·(r/c) + n)
// for walls of total length L and n cells.
//
// The polygons are cut into the constrained Delaunay triangulation of
// their points (fewer, fatter convex polygons and faster queries than any
// other triangulation): the Delaunay triangulation of all the ring
// vertices by randomized incremental insertion (a spatially sorted order,
// point location by walking, exact orientation and in-circle tests), the
// ring edges forced in (Anglada's method), and the triangles outside the
// area dropped; see package navmesh/internal/tri. The triangles are then
// merged into convex polygons
// by Hertel and Mehlhorn's method, longest diagonals first: a shared edge
// is dropped whenever the union of the two polygons is still convex,
// which leaves at most four times the fewest convex pieces of a polygon
// without holes (2r−h+1 pieces for r reflex vertices and h holes, against
// at least ⌈r/2⌉−h+1 for any convex partition). Mesh vertices
// are the input's points; there are no Steiner points, and the portals are
// the diagonals that remain. A mesh vertex is a turning point of paths (a
// convex corner of the walls) when the walkable angle there exceeds 180°.
//
// The triangulation costs O(n log n) expected for n points, whatever
// their layout (regular n-gons, collinear runs and combs included), and a
// ring edge forced in costs O(k²) at worst in the k triangles it crosses.
// The input's check that no two segments meet sweeps a line across them
// (Shamos and Hoey's test, exact, with a treap of the segments the line
// crosses): O(n log n) expected whatever the layout, and O(n log² n) at
// worst to name the first fault of an input with several. The same sweep
// notes the segment right below each ring's least vertex, which tells the
// ring right around it; from those the check of nesting costs O(n) more,
// and O(r log r) for r rings, also to name a fault. On two cores a
// 100 000-point polygon with 1 000 holes takes about 0.6 s end to end
// (0.3 s of it the triangulation), a square with 24 964 holes, 100 000
// points in all, 0.6 s, one with 250 000 holes, 1 000 000 points, 5 s
// (1.4 s of it the check of segments, 0.05 s that of nesting, 2.9 s the
// triangulation), and a 1 000 000-point circle 3 s, 0.6 s of it the
// check of segments (BenchmarkFromPolygons in navmesh/internal/tri;
// BenchmarkFromPolygonsRings, BenchmarkCheckSegments and
// BenchmarkCheckNesting in navmesh).
func FromPolygons(mp orb.MultiPolygon, opt Options) (*Mesh, error) {
	return fromPolygons(mp, opt, tri.Options{})
}

// fromPolygons is FromPolygons with the triangulator's options, which
// tests set.
func fromPolygons(mp orb.MultiPolygon, opt Options, topt tri.Options) (*Mesh, error) {
	if err := checkRadius(opt.Radius); err != nil {
		return nil, err
	}
	in, err := readPolygons(mp)
	if err != nil {
		return nil, err
	}
	ts, err := tri.Triangulate(in.input(topt))
	if err != nil {
		e, ok := errors.AsType[*tri.Error](err)
		if !ok {
			return nil, fmt.Errorf("navmesh: %w", err) // cannot happen
		}
		return nil, &PolygonError{Polygon: e.Polygon, Ring: -1, Problem: e.Problem}
	}
	m := in.mesh(tri.Merge(in.verts, ts))
	if opt.Radius > 0 {
		return erodePolygons(in, m, opt)
	}
	return m, nil
}

// ringIn is a validated ring: its points are verts[first:first+n], in the
// order given; ccw says whether that order is counter-clockwise in the
// textbook y-up sense (positive shoelace sum).
type ringIn struct {
	first, n int32
	ccw      bool
	hole     bool
}

// polyIn is validated input: distinct vertices and rings. The rings of
// polygon i are rings[first[i]:first[i+1]], the outer ring first.
type polyIn struct {
	verts []mgl64.Vec2
	rings []ringIn
	first []int
	ids   [][2]int // per ring: polygon and ring index, for messages
}

// walk returns the vertices of r with the walkable area on the left in the
// y-up sense: counter-clockwise for an outer ring, clockwise for a hole.
func (in *polyIn) walk(r ringIn) []int32 {
	vs := make([]int32, r.n)
	for j := range vs {
		vs[j] = r.first + int32(j)
	}
	if r.ccw == r.hole {
		slices.Reverse(vs)
	}
	return vs
}

// input returns what the triangulator cuts: for each polygon of in, its
// rings with the walkable area on the left (see walk).
func (in *polyIn) input(opt tri.Options) tri.Input {
	t := tri.Input{Pos: in.verts, Polygons: make([]tri.Polygon, len(in.first)-1), Options: opt}
	for i := range t.Polygons {
		rs := in.rings[in.first[i]:in.first[i+1]]
		pg := tri.Polygon{Outer: in.walk(rs[0]), Holes: make([][]int32, len(rs)-1)}
		for k := range pg.Holes {
			pg.Holes[k] = in.walk(rs[k+1])
		}
		t.Polygons[i] = pg
	}
	return t
}

// mesh assembles the mesh of the convex faces f.
func (in *polyIn) mesh(f tri.Faces) *Mesh {
	rings := make([][]int32, len(in.rings))
	for i, r := range in.rings {
		rings[i] = in.walk(r)
	}
	return faceMesh(in.verts, f, rings)
}

// faceMesh assembles the mesh of polygons of the convex faces f on the
// vertices verts, whose walls are rings: vertex ids with the walkable area
// on the left (y up).
func faceMesh(verts []mgl64.Vec2, f tri.Faces, rings [][]int32) *Mesh {
	reflex := make([]bool, len(verts))
	for _, ws := range rings {
		for j, v := range ws {
			a, b := ws[(j+len(ws)-1)%len(ws)], ws[(j+1)%len(ws)]
			reflex[v] = geom.Orient(verts[a], verts[v], verts[b]) < 0
		}
	}
	return faceMeshOf(verts, f, reflex)
}

// faceMeshOf is faceMesh with the vertices' convex-corner flags given.
func faceMeshOf(verts []mgl64.Vec2, f tri.Faces, reflex []bool) *Mesh {
	m := &Mesh{kind: polygonMesh, verts: verts}
	nf := f.Len()
	m.polys = make([]poly, nf)
	m.ev = make([]int32, 0, len(f.Verts))
	m.enb = make([]PolyID, 0, len(f.Verts))
	for id := range nf {
		// Faces run counter-clockwise (y up); the package's order is
		// the reverse, whose edge j is face edge k−1−j taken backwards.
		vs, nb := f.Ring(id), f.NB[f.Start[id]:f.Start[id+1]]
		k := len(vs)
		e0 := int32(len(m.ev))
		for j := range k {
			m.ev = append(m.ev, vs[(k-j)%k])
			m.enb = append(m.enb, PolyID(nb[(2*k-j-1)%k]))
		}
		m.polys[id] = poly{e0: e0, ne: int32(k)}
	}
	m.reflex = reflex
	m.spatialOrder()
	m.twins()
	m.label()
	m.loc = newPolyIndex(m)
	return m
}
