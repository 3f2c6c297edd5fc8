package navmesh_test

import (
	"image"
	"math"
	"testing"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/navmesh"
	"github.com/go-gl/mathgl/mgl64"
)

// inPoly reports whether p lies in the closed convex polygon vs, whose
// interior is left of each edge (cross ≤ 0).
func inPoly(vs []mgl64.Vec2, p mgl64.Vec2) bool {
	for i, a := range vs {
		b := vs[(i+1)%len(vs)]
		if (b[0]-a[0])*(p[1]-a[1])-(b[1]-a[1])*(p[0]-a[0]) > 0 {
			return false
		}
	}
	return true
}

// inFree reports whether p lies in the closed square of some free cell.
func inFree(g *grid.Grid, p mgl64.Vec2) bool {
	x, y := math.Floor(p[0]), math.Floor(p[1])
	for _, d := range [4][2]float64{{0, 0}, {-1, 0}, {0, -1}, {-1, -1}} {
		if (d[0] == 0 || x == p[0]) && (d[1] == 0 || y == p[1]) && g.Passable(image.Pt(int(x+d[0]), int(y+d[1]))) {
			return true
		}
	}
	return false
}

// latticePoint draws a point of [x0, x1) × [y0, y1) on the 1/8 lattice, so
// that points on cell edges and corners are common.
func latticePoint(r interface{ IntN(int) int }, x0, y0, x1, y1 int) mgl64.Vec2 {
	return mgl64.Vec2{float64(x0) + float64(r.IntN(8*(x1-x0)))/8, float64(y0) + float64(r.IntN(8*(y1-y0)))/8}
}

// TestFromGridStructure checks the meshes of random grids, of convex
// polygons and of rectangles: polygons are convex, counter-clockwise on
// screen, cover exactly the free cells without overlap, and neighbours
// share a segment of positive length on both sides. A point near each cell
// centre, off every line through two grid corners, stands for the cell.
func TestFromGridStructure(t *testing.T) {
	for seed := int64(1); seed <= 40; seed++ {
		g := testmap.Random(seed, 30, 20, 0.1*float64(seed%4), grid.Options{})
		m, err := navmesh.FromGrid(g, navmesh.Options{Rectangles: seed > 20})
		if err != nil {
			t.Fatal(err)
		}
		checkStructure(t, g, m, seed)
	}
}

// checkStructure checks the structure of m, the mesh of g, as
// TestFromGridStructure describes; seed goes into the failure messages.
func checkStructure(t *testing.T, g *grid.Grid, m *navmesh.Mesh, seed int64) {
	t.Helper()
	covered := make([]int, g.Width()*g.Height())
	var area float64
	portals := 0
	for id := navmesh.PolyID(0); int(id) < m.NumPolys(); id++ {
		vs := m.AppendPolygon(nil, id)
		var twice float64
		for i, a := range vs {
			b := vs[(i+1)%len(vs)]
			twice += a[0]*b[1] - b[0]*a[1]
			if c := vs[(i+2)%len(vs)]; (b[0]-a[0])*(c[1]-b[1])-(b[1]-a[1])*(c[0]-b[0]) > 0 {
				t.Fatalf("seed %d: polygon %d %v turns right at %v", seed, id, vs, b)
			}
		}
		if twice >= 0 {
			t.Fatalf("seed %d: polygon %d %v: shoelace sum %v, want negative", seed, id, vs, twice)
		}
		area -= twice / 2
		for y := 0; y < g.Height(); y++ {
			for x := 0; x < g.Width(); x++ {
				if inPoly(vs, mgl64.Vec2{float64(x) + 0.51234567, float64(y) + 0.50765432}) {
					covered[y*g.Width()+x]++
				}
			}
		}
		for _, nb := range m.AppendNeighbors(nil, id) {
			portals++
			l, r := nb.Portal.Left, nb.Portal.Right
			if l == r || !inPoly(vs, l) || !inPoly(vs, r) {
				t.Fatalf("seed %d: polygon %d %v: bad portal %v", seed, id, vs, nb)
			}
			back := false
			for _, o := range m.AppendNeighbors(nil, nb.Poly) {
				back = back || (o.Poly == id && o.Portal.Left == r && o.Portal.Right == l)
			}
			if !back {
				t.Fatalf("seed %d: portal %v from %d to %d has no twin", seed, nb.Portal, id, nb.Poly)
			}
			// Walking out, the polygon is behind: left then right
			// seen from inside the polygon's centre.
			var c mgl64.Vec2
			for _, v := range vs {
				c = c.Add(v.Mul(1 / float64(len(vs))))
			}
			if (r[0]-c[0])*(l[1]-c[1])-(r[1]-c[1])*(l[0]-c[0]) >= 0 {
				t.Fatalf("seed %d: portal %v of polygon %d is not left/right for a walker leaving it", seed, nb.Portal, id)
			}
		}
	}
	free := 0
	for y := 0; y < g.Height(); y++ {
		for x := 0; x < g.Width(); x++ {
			want := 0
			if g.Passable(image.Pt(x, y)) {
				want = 1
				free++
			}
			if got := covered[y*g.Width()+x]; got != want {
				t.Fatalf("seed %d: cell (%d,%d) covered by %d polygons, want %d", seed, x, y, got, want)
			}
		}
	}
	if area != float64(free) || portals != 2*m.NumPortals() {
		t.Fatalf("seed %d: area %v for %d free cells; %d portal sides for %d portals", seed, area, free, portals, m.NumPortals())
	}
}

func TestLocateNearest(t *testing.T) {
	for seed := int64(1); seed <= 10; seed++ {
		g := testmap.Random(seed, 20, 15, 0.3, grid.Options{})
		m := mustMesh(t, g)
		r := testmap.NewRand(seed)
		for range 2000 {
			p := latticePoint(r, -3, -3, g.Width()+3, g.Height()+3)
			id, ok := m.Locate(p)
			if ok != inFree(g, p) {
				t.Fatalf("seed %d: Locate(%v) = %d, %v; in free space: %v", seed, p, id, ok, inFree(g, p))
			}
			if ok && !inPoly(m.AppendPolygon(nil, id), p) {
				t.Fatalf("seed %d: Locate(%v) = %d, which does not hold it", seed, p, id)
			}
			nid, at := m.Nearest(p)
			want := math.Inf(1)
			for y := 0; y < g.Height(); y++ {
				for x := 0; x < g.Width(); x++ {
					if g.Passable(image.Pt(x, y)) {
						c := mgl64.Vec2{math.Min(math.Max(p[0], float64(x)), float64(x+1)), math.Min(math.Max(p[1], float64(y)), float64(y+1))}
						want = math.Min(want, c.Sub(p).Len())
					}
				}
			}
			if ok && (nid != id || at != p) {
				t.Fatalf("seed %d: Nearest(%v) = %d, %v on the mesh, want %d and the point", seed, p, nid, at, id)
			}
			if !inPoly(m.AppendPolygon(nil, nid), at) || math.Abs(at.Sub(p).Len()-want) > 1e-12 {
				t.Fatalf("seed %d: Nearest(%v) = %d, %v at %v, want distance %v", seed, p, nid, at, at.Sub(p).Len(), want)
			}
		}
	}
	empty, _ := grid.FromRows([]string{"##", "##"}, grid.Options{})
	m := mustMesh(t, empty)
	if id, at := m.Nearest(mgl64.Vec2{1, 1}); id != -1 || at != (mgl64.Vec2{1, 1}) {
		t.Errorf("Nearest on an empty mesh = %d, %v, want -1 and the point", id, at)
	}
	if _, ok := m.Locate(mgl64.Vec2{math.NaN(), 0}); ok {
		t.Error("Locate(NaN) is on the mesh")
	}
}

// TestRaycast checks Raycast against the exact legality checker on random
// segments between points of the 1/8 lattice, many of which pass exactly
// through grid corners or along cell edges.
func TestRaycast(t *testing.T) {
	hits, n := 0, 0
	for seed := int64(1); seed <= 10; seed++ {
		g := testmap.Random(seed, 20, 15, 0.1+0.05*float64(seed%4), grid.Options{})
		m := mustMesh(t, g)
		r := testmap.NewRand(seed)
		for range 3000 {
			from := latticePoint(r, 0, 0, g.Width(), g.Height())
			if r.IntN(4) == 0 {
				// Axis-aligned and diagonal rays from centres meet corners.
				from = mgl64.Vec2{math.Floor(from[0]) + 0.5, math.Floor(from[1]) + 0.5}
			}
			if _, ok := m.Locate(from); !ok {
				if hit, at := m.Raycast(from, from); !hit || at != from {
					t.Fatalf("seed %d: Raycast from %v off the mesh = %v, %v", seed, from, hit, at)
				}
				continue
			}
			to := latticePoint(r, 0, 0, g.Width(), g.Height())
			if r.IntN(2) == 0 {
				k := float64(r.IntN(12) - 6)
				to = from.Add([][2]float64{{k, 0}, {0, k}, {k, k}, {k, -k}}[r.IntN(4)])
			}
			n++
			legal := legalLeg(g, from, to) == nil
			hit, at := m.Raycast(from, to)
			if hit == legal {
				t.Fatalf("seed %d: Raycast(%v, %v) = %v, %v; legal: %v (%v)\n%s", seed, from, to, hit, at, legal, legalLeg(g, from, to), testmap.Render(g, nil))
			}
			if !hit {
				if at != to {
					t.Fatalf("seed %d: Raycast(%v, %v) missed but says %v", seed, from, to, at)
				}
				continue
			}
			hits++
			// at is on the segment, on the mesh's boundary, and the ray up
			// to just before it is legal.
			d := to.Sub(from)
			if cross := d[0]*(at[1]-from[1]) - d[1]*(at[0]-from[0]); math.Abs(cross) > 1e-9*d.LenSqr() {
				t.Fatalf("seed %d: Raycast(%v, %v) hits at %v, off the segment", seed, from, to, at)
			}
			if _, near := m.Nearest(at); near.Sub(at).Len() > 1e-9 {
				t.Fatalf("seed %d: Raycast(%v, %v) hits at %v, off the mesh", seed, from, to, at)
			}
			// Just before at, the ray is still on the mesh.
			if s := at.Sub(from).Len(); s > 1e-6 {
				if _, ok := m.Locate(from.Add(d.Mul((s - 1e-6) / d.Len()))); !ok {
					t.Fatalf("seed %d: Raycast(%v, %v) hits at %v, but left the mesh before", seed, from, to, at)
				}
			}
		}
	}
	t.Logf("%d rays, %d hits", n, hits)
}

// TestRaycastInfinite casts rays toward points with infinite coordinates
// across an open room, on both kinds of grid mesh. They once hit at NaN;
// now they hit where they leave the room.
func TestRaycastInfinite(t *testing.T) {
	g := testmap.Random(1, 10, 8, 0, grid.Options{})
	inf := math.Inf(1)
	from := mgl64.Vec2{2.5, 3.5}
	tests := []struct {
		to, want mgl64.Vec2
	}{
		{mgl64.Vec2{inf, 3.5}, mgl64.Vec2{10, 3.5}},
		{mgl64.Vec2{-inf, 1e9}, mgl64.Vec2{0, 3.5}},
		{mgl64.Vec2{7, inf}, mgl64.Vec2{2.5, 8}},
		{mgl64.Vec2{inf, -inf}, mgl64.Vec2{6, 0}},
		{mgl64.Vec2{math.NaN(), 3}, from},
	}
	for _, rects := range []bool{false, true} {
		m, err := navmesh.FromGrid(g, navmesh.Options{Rectangles: rects})
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range tests {
			hit, at := m.Raycast(from, tc.to)
			if !hit || at.Sub(tc.want).Len() > 1e-9 {
				t.Errorf("rectangles %v: Raycast(%v, %v) = %v, %v; want a hit at %v", rects, from, tc.to, hit, at, tc.want)
			}
		}
		if hit, at := m.Raycast(mgl64.Vec2{inf, 1}, from); !hit || at[0] != inf {
			t.Errorf("rectangles %v: Raycast from an infinite point = %v, %v; want a hit there", rects, hit, at)
		}
	}
}

func TestRaycastDrawn(t *testing.T) {
	g, _, _ := fromDrawing(t, `
		....#
		.#...
		..#..`)
	m := mustMesh(t, g)
	v := func(x, y float64) mgl64.Vec2 { return mgl64.Vec2{x, y} }
	for _, tc := range []struct {
		from, to, at mgl64.Vec2
		hit          bool
	}{
		{v(0.5, 0.5), v(3.5, 0.5), v(3.5, 0.5), false},
		{v(0.5, 0.5), v(4.5, 0.5), v(4, 0.5), true},    // into the wall at x = 4
		{v(0.5, 0.5), v(2.5, 2.5), v(1, 1), true},      // touches the block's corner, then enters it
		{v(0.5, 1.5), v(0.5, -1), v(0.5, 0), true},     // out of the grid
		{v(1, 0.5), v(1, 1.5), v(1, 1.5), false},       // along the block's west side
		{v(0, 1), v(2, 1), v(2, 1), false},             // along its north side
		{v(1.5, 0.5), v(1.5, 2.5), v(1.5, 1), true},    // into it
		{v(1.5, 2.5), v(2.5, 1.5), v(2, 2), true},      // through the pinched corner (2,2)
		{v(2, 2.5), v(2, 1.5), v(2, 2), true},          // along the line through it
		{v(3.5, 2.5), v(4.5, 0.5), v(4.25, 1), true},   // into the wall at (4,0)
		{v(3.5, 1.5), v(4.5, 2.5), v(4.5, 2.5), false}, // diagonal through a free corner
	} {
		hit, at := m.Raycast(tc.from, tc.to)
		if hit != tc.hit || at.Sub(tc.at).Len() > 1e-12 {
			t.Errorf("Raycast(%v, %v) = %v, %v, want %v, %v", tc.from, tc.to, hit, at, tc.hit, tc.at)
		}
	}
}
