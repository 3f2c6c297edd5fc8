package navmesh_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/navmesh"
	"github.com/go-gl/mathgl/mgl64"
	"github.com/paulmach/orb"
	"github.com/paulmach/orb/geojson"
)

// rg makes a ring from x, y pairs.
func rg(xy ...float64) orb.Ring {
	r := make(orb.Ring, len(xy)/2)
	for i := range r {
		r[i] = orb.Point{xy[2*i], xy[2*i+1]}
	}
	return r
}

// rect is the ring of the rectangle [x0, x1] × [y0, y1].
func rect(x0, y0, x1, y1 float64) orb.Ring { return rg(x0, y0, x1, y0, x1, y1, x0, y1) }

// polyCase is a walkable area for the tests, its mesh and its oracle.
type polyCase struct {
	name string
	mp   orb.MultiPolygon
	m    *navmesh.Mesh
	r    *region
	o    *visGraph
}

func newPolyCase(tb testing.TB, name string, mp orb.MultiPolygon) *polyCase {
	tb.Helper()
	return newPolyCaseFrom(tb, name, mp, navmesh.FromPolygons)
}

// newPolyCaseFrom is newPolyCase with the mesh that build makes.
func newPolyCaseFrom(tb testing.TB, name string, mp orb.MultiPolygon, build func(orb.MultiPolygon, navmesh.Options) (*navmesh.Mesh, error)) *polyCase {
	tb.Helper()
	m, err := build(mp, navmesh.Options{})
	if err != nil {
		tb.Fatalf("%s: %v", name, err)
	}
	r, err := newRegion(mp)
	if err != nil {
		tb.Fatalf("%s: %v", name, err)
	}
	return &polyCase{name: name, mp: mp, m: m, r: r, o: newVisGraph(r)}
}

// checkStructure checks the mesh of c: polygons convex, in the package's
// order, of positive area and adding up to the region's; portals twinned
// and lying on both polygons.
func (c *polyCase) checkStructure(t *testing.T) {
	t.Helper()
	m := c.m
	var twice int64
	portals := 0
	for id := navmesh.PolyID(0); int(id) < m.NumPolys(); id++ {
		vs := m.AppendPolygon(nil, id)
		ps := make([]ipt, len(vs))
		for i, v := range vs {
			var err error
			if ps[i], err = toLattice(v); err != nil {
				t.Fatalf("%s: polygon %d: %v", c.name, id, err)
			}
		}
		var area int64
		for i, a := range ps {
			b, d := ps[(i+1)%len(ps)], ps[(i+2)%len(ps)]
			area += icross(a, b)
			if iorient(a, b, d) > 0 {
				t.Fatalf("%s: polygon %d %v is not convex in the package's order at %v", c.name, id, vs, vs[(i+1)%len(vs)])
			}
		}
		if area >= 0 {
			t.Fatalf("%s: polygon %d %v: shoelace sum %d, want negative", c.name, id, vs, area)
		}
		twice -= area
		for _, nb := range m.AppendNeighbors(nil, id) {
			portals++
			back := false
			for _, o := range m.AppendNeighbors(nil, nb.Poly) {
				back = back || (o.Poly == id && o.Portal.Left == nb.Portal.Right && o.Portal.Right == nb.Portal.Left)
			}
			if !back || !slices.Contains(vs, nb.Portal.Left) || !slices.Contains(vs, nb.Portal.Right) {
				t.Fatalf("%s: polygon %d %v: portal %v to %d has no twin or is not an edge", c.name, id, vs, nb.Portal, nb.Poly)
			}
		}
	}
	if want := c.r.twiceArea(); twice != want {
		t.Fatalf("%s: polygons add up to area %v, want %v", c.name, float64(twice)/2/latScale/latScale, float64(want)/2/latScale/latScale)
	}
	if portals != 2*m.NumPortals() {
		t.Fatalf("%s: %d portal sides for %d portals", c.name, portals, m.NumPortals())
	}
}

// points returns n points of the region on the 1/4 lattice, a third of
// them vertices of its rings.
func (c *polyCase) points(rnd *rand.Rand, n int) []mgl64.Vec2 {
	var lo, hi ipt
	lo, hi = c.r.rings[0][0], c.r.rings[0][0]
	var verts []ipt
	for _, ring := range c.r.rings {
		for _, p := range ring {
			lo = ipt{min(lo.x, p.x), min(lo.y, p.y)}
			hi = ipt{max(hi.x, p.x), max(hi.y, p.y)}
			verts = append(verts, p)
		}
	}
	const q = latScale / 4
	var out []mgl64.Vec2
	for len(out) < n {
		if rnd.IntN(3) == 0 {
			out = append(out, verts[rnd.IntN(len(verts))].vec())
			continue
		}
		p := ipt{lo.x + q*rnd.Int64N((hi.x-lo.x)/q+1), lo.y + q*rnd.Int64N((hi.y-lo.y)/q+1)}
		if c.r.contains(p) {
			out = append(out, p.vec())
		}
	}
	return out
}

// checkQuery checks one query against the oracle.
func (c *polyCase) checkQuery(q *navmesh.Searcher, from, to mgl64.Vec2) error {
	path, res, err := q.AppendPath(nil, from, to, navmesh.Query{})
	if err != nil {
		return err
	}
	fi, _ := toLattice(from)
	ti, _ := toLattice(to)
	best := c.o.dist(fi, ti)
	if res.Status != core.Found {
		if !math.IsInf(best, 1) {
			return fmt.Errorf("%v, but the oracle has a path of length %v", res.Status, best)
		}
		return nil
	}
	length, err := c.r.checkPath(path, from, to)
	if err != nil {
		return fmt.Errorf("%v\npath %v", err, path)
	}
	if math.Abs(length-res.Length) > 1e-9*max(1, length) {
		return fmt.Errorf("Result.Length %v, path is %v long", res.Length, length)
	}
	if length < best-1e-9*max(1, best) {
		return fmt.Errorf("length %v below the exact optimum %v: oracle or checker is wrong\npath %v", length, best, path)
	}
	if length > best+1e-9*max(1, best) {
		return fmt.Errorf("length %v, shortest %v\npath %v", length, best, path)
	}
	return nil
}

// checkQueries runs n random queries, and Locate and Nearest on the same
// points and on points round them.
func (c *polyCase) checkQueries(t *testing.T, seed int64, n int) {
	t.Helper()
	rnd := testmap.NewRand(seed)
	q := navmesh.NewSearcher(c.m)
	pts := c.points(rnd, 2*n)
	for i := 0; i < len(pts); i += 2 {
		if err := c.checkQuery(q, pts[i], pts[i+1]); err != nil {
			t.Fatalf("%s seed %d %v→%v: %v", c.name, seed, pts[i], pts[i+1], err)
		}
	}
}

func square(x, y, s float64) orb.Ring { return rect(x, y, x+s, y+s) }

// handPolygons are the hand-made areas the tests share. Coordinates are
// y up; the comments draw them that way.
func handPolygons() []struct {
	name string
	mp   orb.MultiPolygon
} {
	var many orb.Polygon
	many = append(many, rect(0, 0, 24, 24))
	for i := range 5 {
		for j := range 5 {
			x, y := 2.5+4.5*float64(i), 2.5+4.5*float64(j)
			if (i+j)%2 == 0 { // a diamond
				many = append(many, rg(x+1, y, x+2, y+1, x+1, y+2, x, y+1))
			} else { // a triangle
				many = append(many, rg(x, y, x+2, y+0.5, x+0.5, y+2))
			}
		}
	}
	// A comb: a spine along the bottom with teeth up.
	comb := rg(0, 0, 19, 0)
	for x := 19.0; x > 0; x -= 3 {
		comb = append(comb, orb.Point{x, 8}, orb.Point{x - 1, 8}, orb.Point{x - 1, 2}, orb.Point{x - 3, 2})
	}
	comb = comb[:len(comb)-2]
	return []struct {
		name string
		mp   orb.MultiPolygon
	}{
		{"square with a square hole", orb.MultiPolygon{{square(0, 0, 10), square(3, 3, 4)}}},
		{"L-shape", orb.MultiPolygon{{rg(0, 0, 6, 0, 6, 2, 2, 2, 2, 6, 0, 6)}}},
		{"comb", orb.MultiPolygon{{comb}}},
		{"many holes", orb.MultiPolygon{many}},
		{"triangle with a tilted hole", orb.MultiPolygon{{rg(0, 0, 20, 1, 7, 15), rg(6, 4, 9, 5, 7.5, 7)}}},
		{"collinear points and a hole touching nothing", orb.MultiPolygon{{
			rg(0, 0, 2, 0, 4, 0, 6, 0, 6, 3, 6, 6, 3, 6, 0, 6, 0, 3),
			rg(2, 2, 2, 3, 2, 4, 4, 4, 4, 2, 3, 2)}}},
		{"islands", orb.MultiPolygon{
			{square(0, 0, 10), square(2, 2, 6)},
			{square(4, 4, 2)},
			{rg(12, 0, 16, 0, 16, 4, 14, 1, 12, 4)},
		}},
	}
}

func TestFromPolygonsHandMade(t *testing.T) {
	for i, tc := range handPolygons() {
		t.Run(tc.name, func(t *testing.T) {
			c := newPolyCase(t, tc.name, tc.mp)
			c.checkStructure(t)
			c.checkQueries(t, int64(i+1), 300)
			t.Logf("%d polygons, %d portals, %d vertices", c.m.NumPolys(), c.m.NumPortals(), c.m.NumVertices())
		})
	}
}

func TestFromPolygonsPaths(t *testing.T) {
	v := func(x, y float64) mgl64.Vec2 { return mgl64.Vec2{x, y} }
	hand := handPolygons()
	for _, tc := range []struct {
		name     string
		mp       orb.MultiPolygon
		from, to mgl64.Vec2
		want     []mgl64.Vec2 // nil: unreachable
	}{
		{"around the hole, below", hand[0].mp, v(1, 4), v(9, 4), []mgl64.Vec2{v(1, 4), v(3, 3), v(7, 3), v(9, 4)}},
		{"around the hole, above", hand[0].mp, v(1, 6), v(9, 6.5), []mgl64.Vec2{v(1, 6), v(3, 7), v(7, 7), v(9, 6.5)}},
		{"along the hole's side", hand[0].mp, v(3, 3), v(3, 7), []mgl64.Vec2{v(3, 3), v(3, 7)}},
		{"round the L's corner", hand[1].mp, v(5, 1), v(1, 5), []mgl64.Vec2{v(5, 1), v(2, 2), v(1, 5)}},
		{"up and down the comb", hand[2].mp, v(18.5, 7), v(15.5, 7), []mgl64.Vec2{v(18.5, 7), v(18, 2), v(16, 2), v(15.5, 7)}},
		{"to an island in a hole", hand[6].mp, v(1, 1), v(5, 5), nil},
		{"between islands", hand[6].mp, v(1, 1), v(13, 1), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newPolyCase(t, tc.name, tc.mp)
			q := navmesh.NewSearcher(c.m)
			got, res, err := q.AppendPath(nil, tc.from, tc.to, navmesh.Query{})
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == nil {
				if res.Status != core.Unreachable || len(got) != 0 {
					t.Fatalf("got %v, %+v, want unreachable", got, res)
				}
				return
			}
			if len(tc.want) > 0 && !slices.Equal(got, tc.want) {
				t.Fatalf("got %v\nwant %v", got, tc.want)
			}
			if err := c.checkQuery(q, tc.from, tc.to); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestFromPolygonsOrientation builds the same area from rings given either
// way round, closed or not: the meshes answer alike.
func TestFromPolygonsOrientation(t *testing.T) {
	base := handPolygons()[3].mp
	variants := map[string]func(orb.Ring) orb.Ring{
		"reversed": func(r orb.Ring) orb.Ring { r = slices.Clone(r); slices.Reverse(r); return r },
		"closed":   func(r orb.Ring) orb.Ring { return append(slices.Clone(r), r[0]) },
		"rotated":  func(r orb.Ring) orb.Ring { return append(slices.Clone(r[1:]), r[0]) },
	}
	want := newPolyCase(t, "base", base)
	pts := want.points(testmap.NewRand(5), 100)
	for name, f := range variants {
		var mp orb.MultiPolygon
		for _, pg := range base {
			var np orb.Polygon
			for _, r := range pg {
				np = append(np, f(r))
			}
			mp = append(mp, np)
		}
		c := newPolyCase(t, name, mp)
		c.checkStructure(t)
		qa, qb := navmesh.NewSearcher(want.m), navmesh.NewSearcher(c.m)
		for i := 0; i < len(pts); i += 2 {
			_, ra, _ := qa.AppendPath(nil, pts[i], pts[i+1], navmesh.Query{})
			_, rb, _ := qb.AppendPath(nil, pts[i], pts[i+1], navmesh.Query{})
			if math.Abs(ra.Length-rb.Length) > 1e-9*max(1, ra.Length) {
				t.Fatalf("%s: %v→%v: length %v, as given %v", name, pts[i], pts[i+1], rb.Length, ra.Length)
			}
		}
	}
}

// randomPolygon returns a seeded random area: a star-shaped outer ring of
// 8 to 60 integer points round (50, 50) and up to 15 random rectangular or
// triangular holes, kept where the oracle finds them valid. Every other
// one is sheared by an integer matrix and scaled by k/1024, so that its
// edges run at all angles and its coordinates are fractions.
func randomPolygon(rnd *rand.Rand) orb.Polygon {
	pg := randomPolygonInt(rnd)
	if rnd.IntN(2) == 0 {
		return pg
	}
	a, b := float64(rnd.IntN(5)-2), float64(rnd.IntN(5)-2)
	k := float64(64+rnd.IntN(1024)) / 1024
	out := make(orb.Polygon, len(pg))
	for i, r := range pg {
		out[i] = make(orb.Ring, len(r))
		for j, p := range r {
			x := p[0] + a*p[1]
			out[i][j] = orb.Point{k * x, k * (p[1] + b*x)}
		}
	}
	return out
}

func randomPolygonInt(rnd *rand.Rand) orb.Polygon {
	for {
		pg := orb.Polygon{navmesh.StarRing(rnd, func(x, y float64) orb.Point { return orb.Point{x, y} })}
		if validPolygons(orb.MultiPolygon{pg}) != nil {
			continue
		}
		for range rnd.IntN(16) + rnd.IntN(2)*rnd.IntN(30) {
			x, y := float64(25+rnd.IntN(50)), float64(25+rnd.IntN(50))
			w, h := float64(1+rnd.IntN(8)), float64(1+rnd.IntN(8))
			hole := rect(x, y, x+w, y+h)
			if rnd.IntN(2) == 0 {
				hole = rg(x+float64(rnd.IntN(int(w)+1)), y, x+w, y+float64(rnd.IntN(int(h)+1)), x, y+h)
			}
			if validPolygons(orb.MultiPolygon{append(pg, hole)}) == nil {
				pg = append(pg, hole)
			}
		}
		return pg
	}
}

func TestFromPolygonsRandom(t *testing.T) {
	polys, portals := 0, 0
	for seed := int64(1); seed <= 60; seed++ {
		rnd := testmap.NewRand(seed)
		pg := randomPolygon(rnd)
		c := newPolyCase(t, fmt.Sprintf("seed %d", seed), orb.MultiPolygon{pg})
		c.checkStructure(t)
		c.checkQueries(t, seed, 60)
		polys += c.m.NumPolys()
		portals += c.m.NumPortals()
	}
	t.Logf("60 random polygons: %d convex pieces, %d portals", polys, portals)
}

// TestFromPolygonsBridgeByDistance builds meshes with holes joined by the
// search by distance that backs up Eberly's choice, which valid input
// hardly ever needs, and checks them as the other tests do.
func TestFromPolygonsBridgeByDistance(t *testing.T) {
	for i, tc := range handPolygons() {
		c := newPolyCaseFrom(t, tc.name, tc.mp, navmesh.FromPolygonsByDistance)
		c.checkStructure(t)
		c.checkQueries(t, int64(i+1), 50)
	}
	for seed := int64(1); seed <= 20; seed++ {
		c := newPolyCaseFrom(t, fmt.Sprintf("seed %d", seed), orb.MultiPolygon{randomPolygon(testmap.NewRand(seed))}, navmesh.FromPolygonsByDistance)
		c.checkStructure(t)
		c.checkQueries(t, seed, 30)
	}
}

// TestPolygonLocateNearest checks Locate and Nearest against the oracle at
// lattice points in and round the area, many on edges and vertices.
func TestPolygonLocateNearest(t *testing.T) {
	cases := handPolygons()
	for seed := int64(1); seed <= 8; seed++ {
		cases = append(cases, struct {
			name string
			mp   orb.MultiPolygon
		}{fmt.Sprintf("random %d", seed), orb.MultiPolygon{randomPolygon(testmap.NewRand(seed))}})
	}
	for _, tc := range cases {
		c := newPolyCase(t, tc.name, tc.mp)
		rnd := testmap.NewRand(int64(len(tc.name)))
		lo, hi := c.r.rings[0][0], c.r.rings[0][0]
		for _, ring := range c.r.rings {
			for _, p := range ring {
				lo, hi = ipt{min(lo.x, p.x), min(lo.y, p.y)}, ipt{max(hi.x, p.x), max(hi.y, p.y)}
			}
		}
		for _, p := range []mgl64.Vec2{{math.Inf(1), 0}, {0, math.Inf(-1)}, {math.Inf(1), math.Inf(1)}} {
			if id, at := c.m.Nearest(p); id < 0 || math.IsNaN(at[0]) || math.IsNaN(at[1]) {
				t.Fatalf("%s: Nearest(%v) = %d, %v", c.name, p, id, at)
			}
		}
		if id, _ := c.m.Nearest(mgl64.Vec2{math.NaN(), 0}); id != -1 {
			t.Fatalf("%s: Nearest(NaN) = %d, want -1", c.name, id)
		}
		const q = latScale / 8
		for range 3000 {
			p := ipt{lo.x - 3*latScale + q*rnd.Int64N((hi.x-lo.x+6*latScale)/q), lo.y - 3*latScale + q*rnd.Int64N((hi.y-lo.y+6*latScale)/q)}
			pv := p.vec()
			id, ok := c.m.Locate(pv)
			if ok != c.r.contains(p) {
				t.Fatalf("%s: Locate(%v) = %d, %v; in the region: %v", c.name, pv, id, ok, !ok)
			}
			if ok && !holds(c.m.AppendPolygon(nil, id), p) {
				t.Fatalf("%s: Locate(%v) = %d, which does not hold it", c.name, pv, id)
			}
			nid, at := c.m.Nearest(pv)
			if ok {
				if nid != id || at != pv {
					t.Fatalf("%s: Nearest(%v) = %d, %v on the mesh, want %d and the point", c.name, pv, nid, at, id)
				}
				continue
			}
			want := math.Inf(1)
			for _, ring := range c.r.rings {
				for i, a := range ring {
					want = math.Min(want, segDist(a.vec(), ring[(i+1)%len(ring)].vec(), pv))
				}
			}
			if nid < 0 || math.Abs(at.Sub(pv).Len()-want) > 1e-9 || nearPoly(c.m.AppendPolygon(nil, nid), at) > 1e-9 {
				t.Fatalf("%s: Nearest(%v) = %d, %v at %v, want distance %v", c.name, pv, nid, at, at.Sub(pv).Len(), want)
			}
		}
	}
}

// holds reports, exactly, whether the closed convex polygon vs (in the
// package's order) holds p.
func holds(vs []mgl64.Vec2, p ipt) bool {
	for i, a := range vs {
		ai, _ := toLattice(a)
		bi, _ := toLattice(vs[(i+1)%len(vs)])
		if iorient(ai, bi, p) > 0 {
			return false
		}
	}
	return true
}

// segDist returns the distance from p to the segment a–b.
func segDist(a, b, p mgl64.Vec2) float64 {
	d := b.Sub(a)
	t := math.Min(math.Max(p.Sub(a).Dot(d)/d.Dot(d), 0), 1)
	return a.Add(d.Mul(t)).Sub(p).Len()
}

// nearPoly returns how far p lies outside the convex polygon vs.
func nearPoly(vs []mgl64.Vec2, p mgl64.Vec2) float64 {
	if inPoly(vs, p) {
		return 0
	}
	d := math.Inf(1)
	for i, a := range vs {
		d = math.Min(d, segDist(a, vs[(i+1)%len(vs)], p))
	}
	return d
}

// TestPolygonRaycast checks Raycast on meshes from polygons against the
// oracle's exact leg test.
func TestPolygonRaycast(t *testing.T) {
	hits, n := 0, 0
	for i, tc := range handPolygons() {
		c := newPolyCase(t, tc.name, tc.mp)
		rnd := testmap.NewRand(int64(i))
		pts := c.points(rnd, 1000)
		for j := 0; j < len(pts); j += 2 {
			from, to := pts[j], pts[j+1]
			fi, _ := toLattice(from)
			ti, _ := toLattice(to)
			legal := c.r.legalLeg(fi, ti) == nil
			hit, at := c.m.Raycast(from, to)
			n++
			if hit == legal {
				t.Fatalf("%s: Raycast(%v, %v) = %v, %v; legal: %v (%v)", c.name, from, to, hit, at, legal, c.r.legalLeg(fi, ti))
			}
			if hit {
				hits++
			}
		}
	}
	t.Logf("%d rays, %d hits", n, hits)
}

func TestFromPolygonsErrors(t *testing.T) {
	sq := square(0, 0, 10)
	nan := math.NaN()
	for _, tc := range []struct {
		name string
		mp   orb.MultiPolygon
		want string
	}{
		{"bow-tie", orb.MultiPolygon{{rg(0, 0, 2, 2, 2, 0, 0, 2)}},
			"navmesh: polygon 0 outer ring: segments 0 and 2 cross at (1, 1)"},
		{"hole outside", orb.MultiPolygon{{sq, square(20, 20, 2)}},
			"navmesh: polygon 0 hole 1: not inside the outer ring"},
		{"hole round the outer ring", orb.MultiPolygon{{square(4, 4, 2), sq}},
			"navmesh: polygon 0 hole 1: not inside the outer ring"},
		{"overlapping holes", orb.MultiPolygon{{sq, square(2, 2, 3), square(4, 4, 3)}},
			"navmesh: polygon 0 hole 2: segment 0 crosses hole 1 segment 1 at (5, 4)"},
		{"hole in a hole", orb.MultiPolygon{{sq, square(2, 2, 6), square(4, 4, 1)}},
			"navmesh: polygon 0 hole 2: inside hole 1"},
		{"hole round a hole", orb.MultiPolygon{{sq, square(4, 4, 1), square(2, 2, 6)}},
			"navmesh: polygon 0 hole 2: encloses hole 1"},
		{"hole touching the outer ring", orb.MultiPolygon{{sq, rg(0, 5, 3, 4, 3, 6)}},
			"navmesh: polygon 0 hole 1: segment 0 touches outer ring segment 3 at (0, 5)"},
		{"hole sharing an edge with another", orb.MultiPolygon{{sq, square(2, 2, 2), square(4, 2, 2)}},
			"navmesh: polygon 0 hole 2: segment 0 touches hole 1 segment 0 at (4, 2)"},
		{"duplicate points", orb.MultiPolygon{{rg(0, 0, 4, 0, 4, 0, 4, 4, 0, 4)}},
			"navmesh: polygon 0 outer ring: points 1 and 2 are both (4, 0)"},
		{"ring touching itself", orb.MultiPolygon{{rg(0, 0, 4, 0, 2, 2, 4, 4, 0, 4, 2, 2)}},
			"navmesh: polygon 0 outer ring: points 2 and 5 are both (2, 2)"},
		{"NaN", orb.MultiPolygon{{rg(0, 0, 4, 0, nan, 4, 0, 4)}},
			"navmesh: polygon 0 outer ring: point 2 (NaN, 4) is not finite"},
		{"infinity", orb.MultiPolygon{{sq, rg(1, 1, 2, 1, math.Inf(-1), 2)}},
			"navmesh: polygon 0 hole 1: point 2 (-Inf, 2) is not finite"},
		{"huge", orb.MultiPolygon{{rg(0, 0, 1e200, 0, 0, 1)}},
			"navmesh: polygon 0 outer ring: point 1 (1e+200, 0): coordinate out of range (0, or magnitude 1e-100 to 1e100)"},
		{"two points", orb.MultiPolygon{{rg(0, 0, 4, 0, 0, 0)}},
			"navmesh: polygon 0 outer ring: 2 points, want at least 3"},
		{"zero area", orb.MultiPolygon{{rg(0, 0, 1, 1, 3, 3)}},
			"navmesh: polygon 0 outer ring: zero area: all points on one line"},
		{"spike", orb.MultiPolygon{{rg(0, 0, 4, 0, 4, 4, 4, 2)}},
			"navmesh: polygon 0 outer ring: segments 1 and 2 overlap along (4, 4)–(4, 2)"},
		{"overlapping polygons", orb.MultiPolygon{{sq}, {square(5, 5, 10)}},
			"navmesh: polygon 1 outer ring: segment 0 crosses polygon 0 outer ring segment 1 at (10, 5)"},
		{"polygon inside another", orb.MultiPolygon{{sq}, {square(2, 2, 2)}},
			"navmesh: polygon 1: lies inside polygon 0"},
		{"polygon round another", orb.MultiPolygon{{square(2, 2, 2)}, {sq}},
			"navmesh: polygon 1: encloses polygon 0"},
		{"polygons sharing an edge", orb.MultiPolygon{{sq}, {square(10, 0, 10)}},
			"navmesh: polygon 1 outer ring: segment 0 touches polygon 0 outer ring segment 0 at (10, 0)"},
		{"polygons sharing a corner", orb.MultiPolygon{{sq}, {square(10, 10, 10)}},
			"navmesh: polygon 1 outer ring: segment 0 touches polygon 0 outer ring segment 1 at (10, 10)"},
		{"no polygons", orb.MultiPolygon{}, "navmesh: no polygons"},
		{"no rings", orb.MultiPolygon{{sq}, {}}, "navmesh: polygon 1: no outer ring"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := navmesh.FromPolygons(tc.mp, navmesh.Options{})
			if err == nil || err.Error() != tc.want {
				t.Fatalf("got %v, %v\nwant error %q", m, err, tc.want)
			}
			if tc.name != "no polygons" {
				var pe *navmesh.PolygonError
				if !errors.As(err, &pe) {
					t.Fatalf("error %v is not a *PolygonError", err)
				}
			}
			if verr := validPolygons(tc.mp); verr == nil {
				t.Fatalf("the oracle finds the input valid")
			}
		})
	}
	for _, opt := range []navmesh.Options{
		{Radius: -1}, {Radius: math.NaN()}, {Radius: math.Inf(1)},
		{Radius: 1, CellSize: -1}, {Radius: 1, CellSize: math.NaN()},
		{Radius: 1, CellSize: 1e-6}, // too many cells
		{Radius: 100},               // nothing left
	} {
		if _, err := navmesh.FromPolygon(orb.Polygon{sq}, opt); err == nil || !strings.HasPrefix(err.Error(), "navmesh: ") {
			t.Errorf("FromPolygon with %+v: error %v", opt, err)
		}
	}
}

// TestPolygonQueryAllocs checks that queries on a mesh from polygons
// allocate nothing once their buffers have grown.
func TestPolygonQueryAllocs(t *testing.T) {
	c := newPolyCase(t, "many holes", handPolygons()[3].mp)
	q := navmesh.NewSearcher(c.m)
	pts := c.points(testmap.NewRand(9), 100)
	dst := make([]mgl64.Vec2, 0, 256)
	run := func() {
		for i := 0; i < len(pts); i += 2 {
			dst, _, _ = q.AppendPath(dst[:0], pts[i], pts[i+1], navmesh.Query{})
			c.m.Raycast(pts[i], pts[i+1])
			c.m.Nearest(pts[i].Add(mgl64.Vec2{-30, 0}))
		}
	}
	run()
	if n := testing.AllocsPerRun(20, run); n != 0 {
		t.Errorf("queries allocate %v times per run, want 0", n)
	}
}

// decodePolygons turns fuzz bytes into a small MultiPolygon: up to two
// polygons of up to three rings of 3 to 8 points, on a 16 × 16 grid of
// half units.
func decodePolygons(data []byte) orb.MultiPolygon {
	next := func() int {
		if len(data) == 0 {
			return 0
		}
		b := int(data[0])
		data = data[1:]
		return b
	}
	var mp orb.MultiPolygon
	np := 1 + next()%2
	for range np {
		var pg orb.Polygon
		nr := 1 + next()%3
		for range nr {
			n := 3 + next()%6
			var r orb.Ring
			for range n {
				b := next()
				r = append(r, orb.Point{float64(b&15) / 2, float64(b>>4) / 2})
			}
			pg = append(pg, r)
		}
		mp = append(mp, pg)
	}
	return mp
}

// checkFuzz checks FromPolygons on mp: it must agree with the oracle on
// validity, and every query on its mesh must be legal and shortest.
func checkFuzz(t *testing.T, mp orb.MultiPolygon, seed int64) {
	m, err := navmesh.FromPolygons(mp, navmesh.Options{})
	verr := validPolygons(mp)
	if (err == nil) != (verr == nil) {
		t.Fatalf("%v: FromPolygons says %v, the oracle %v", mp, err, verr)
	}
	if err != nil {
		if !strings.HasPrefix(err.Error(), "navmesh: ") {
			t.Fatalf("%v: error %q", mp, err)
		}
		return
	}
	c := &polyCase{name: fmt.Sprint(mp), mp: mp, m: m}
	if c.r, err = newRegion(mp); err != nil {
		t.Fatal(err)
	}
	c.o = newVisGraph(c.r)
	c.checkStructure(t)
	c.checkQueries(t, seed, 10)
	// An agent of radius 1 on the same input: a mesh or a clear error.
	if e, err := navmesh.FromPolygons(mp, navmesh.Options{Radius: 1}); err != nil {
		if !strings.HasPrefix(err.Error(), "navmesh: ") {
			t.Fatalf("%v radius 1: error %q", mp, err)
		}
	} else if e.NumPolys() == 0 {
		t.Fatalf("%v radius 1: an empty mesh and no error", mp)
	}
}

func FuzzFromPolygons(f *testing.F) {
	f.Add([]byte{0, 0, 1, 0x00, 0x0e, 0xee, 0xe0}) // a square
	f.Add([]byte{0, 1, 1, 0x00, 0x0f, 0xff, 0xf0, 1, 0x44, 0x48, 0x88, 0x84})
	f.Add([]byte{1, 0, 0, 0x00, 0x06, 0x60, 0, 0, 0x99, 0x9f, 0xf9})
	f.Add([]byte{0, 0, 0, 0x00, 0x22, 0x02, 0x20}) // a bow-tie
	f.Add([]byte{0, 0, 5, 0x00, 0x0c, 0xcc, 0x66, 0xc6, 0xc0, 0x60, 0x36})
	f.Fuzz(func(t *testing.T, data []byte) {
		checkFuzz(t, decodePolygons(data), int64(len(data)))
	})
}

// TestFromPolygonsSmallRandom runs the fuzz check on seeded random bytes,
// so that plain go test covers many small, often degenerate inputs.
func TestFromPolygonsSmallRandom(t *testing.T) {
	valid := 0
	rnd := testmap.NewRand(11)
	for i := range 3000 {
		data := make([]byte, 3+rnd.IntN(40))
		for j := range data {
			data[j] = byte(rnd.IntN(256))
		}
		if i%2 == 0 {
			// Rings near a circle are more often simple.
			for j := 3; j < len(data); j++ {
				a := 2 * math.Pi * float64(j%8) / 8
				x, y := 7.5+6*math.Cos(a)+float64(rnd.IntN(3)-1), 7.5+6*math.Sin(a)+float64(rnd.IntN(3)-1)
				data[j] = byte(min(max(int(x), 0), 15) | min(max(int(y), 0), 15)<<4)
			}
		}
		mp := decodePolygons(data)
		checkFuzz(t, mp, int64(i))
		if validPolygons(mp) == nil {
			valid++
		}
	}
	t.Logf("3000 inputs, %d valid", valid)
}

func ExampleFromPolygon() {
	// A 10 × 6 room with a 4 × 2 pillar in its middle, in GeoJSON:
	//
	//	6 +-------------------+
	//	  |                   |
	//	4 |     +-------+     |
	//	  |  S  |       |  G  |
	//	2 |     +-------+     |
	//	  |                   |
	//	0 +-------------------+
	//	  0     3       7     10
	//
	// From S = (1, 3) to G = (9, 3.5) the path passes over the pillar, by
	// its corners at y = 4.
	const room = `{"type": "Polygon", "coordinates": [
		[[0, 0], [10, 0], [10, 6], [0, 6], [0, 0]],
		[[3, 2], [3, 4], [7, 4], [7, 2], [3, 2]]]}`
	g, err := geojson.UnmarshalGeometry([]byte(room))
	if err != nil {
		fmt.Println(err)
		return
	}
	pg, ok := g.Geometry().(orb.Polygon)
	if !ok {
		fmt.Println("not a polygon")
		return
	}
	m, err := navmesh.FromPolygon(pg, navmesh.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	s := navmesh.NewSearcher(m)
	path, res, err := s.AppendPath(nil, mgl64.Vec2{1, 3}, mgl64.Vec2{9, 3.5}, navmesh.Query{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range path {
		fmt.Printf("(%g, %g)\n", p[0], p[1])
	}
	fmt.Printf("%v, length %.4f, %d convex polygons\n", res.Status, res.Length, m.NumPolys())
	// Output:
	// (1, 3)
	// (3, 4)
	// (7, 4)
	// (9, 3.5)
	// found, length 8.2976, 4 convex polygons
}

// star returns a star-shaped ring of n points round c, at radii drawn
// from [r0, r1], y up and counter-clockwise.
func star(rnd *rand.Rand, c orb.Point, n int, r0, r1 float64) orb.Ring {
	ring := make(orb.Ring, n)
	for i := range ring {
		a := 2 * math.Pi * float64(i) / float64(n)
		r := r0 + (r1-r0)*rnd.Float64()
		ring[i] = orb.Point{c[0] + r*math.Cos(a), c[1] + r*math.Sin(a)}
	}
	return ring
}

// bigPolygons are the inputs of about 5,000 points the benchmarks build:
// a spiky star, and a star of 1,000 points with 1,000 small square and
// diamond holes.
func bigPolygons() []struct {
	name string
	pg   orb.Polygon
} {
	rnd := testmap.NewRand(1)
	spiky := orb.Polygon{star(rnd, orb.Point{0, 0}, 5000, 2000, 5000)}
	holes := orb.Polygon{star(rnd, orb.Point{0, 0}, 1000, 4200, 5000)}
	for i := range 32 {
		for j := range 32 {
			x, y := -3100+200*float64(i)+40*rnd.Float64(), -3100+200*float64(j)+40*rnd.Float64()
			if len(holes) > 1000 || x*x+y*y > 3900*3900 {
				continue
			}
			if (i+j)%2 == 0 {
				holes = append(holes, rect(x, y, x+60+40*rnd.Float64(), y+60+40*rnd.Float64()))
			} else {
				holes = append(holes, rg(x+50, y, x+100, y+50, x+50, y+100, x, y+50))
			}
		}
	}
	return []struct {
		name string
		pg   orb.Polygon
	}{{"star-5000", spiky}, {"holes-5000", holes}}
}

// reflexCount returns the number of points of pg where the walkable angle
// exceeds 180° (in floating point, enough for the benchmarks' inputs).
func reflexCount(pg orb.Polygon) int {
	n := 0
	for k, r := range pg {
		var twice float64
		for i, p := range r {
			q := r[(i+1)%len(r)]
			twice += p[0]*q[1] - q[0]*p[1]
		}
		sign := 1.0 // walkable on the left: outer rings counter-clockwise
		if (twice > 0) != (k == 0) {
			sign = -1
		}
		for i, p := range r {
			a, b := r[(i+len(r)-1)%len(r)], r[(i+1)%len(r)]
			if sign*((p[0]-a[0])*(b[1]-p[1])-(p[1]-a[1])*(b[0]-p[0])) < 0 {
				n++
			}
		}
	}
	return n
}

func countPoints(pg orb.Polygon) int {
	n := 0
	for _, r := range pg {
		n += len(r)
	}
	return n
}

// BenchmarkFromPolygons builds meshes from inputs of about 5,000 points.
// Ear clipping makes n + 2h − 2 triangles of a polygon of n points and h
// holes; the convex polygons are what the merge leaves of them, and
// "fewest" is ⌈r/2⌉ − h + 1 for r reflex points, a lower bound on any
// convex partition without new points.
func BenchmarkFromPolygons(b *testing.B) {
	for _, tc := range bigPolygons() {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			var m *navmesh.Mesh
			for b.Loop() {
				var err error
				if m, err = navmesh.FromPolygon(tc.pg, navmesh.Options{}); err != nil {
					b.Fatal(err)
				}
			}
			n := countPoints(tc.pg)
			b.ReportMetric(float64(n), "points")
			b.ReportMetric(float64(n+2*(len(tc.pg)-1)-2), "triangles")
			b.ReportMetric(float64(m.NumPolys()), "polygons")
			b.ReportMetric(float64((reflexCount(tc.pg)+1)/2-(len(tc.pg)-1)+1), "fewest")
		})
	}
}

// BenchmarkPolygonQuery runs queries between 100 seeded random pairs of
// points of each big input.
func BenchmarkPolygonQuery(b *testing.B) {
	for _, tc := range bigPolygons() {
		b.Run(tc.name, func(b *testing.B) {
			m, err := navmesh.FromPolygon(tc.pg, navmesh.Options{})
			if err != nil {
				b.Fatal(err)
			}
			rnd := testmap.NewRand(2)
			var pts []mgl64.Vec2
			for len(pts) < 200 {
				p := mgl64.Vec2{-5000 + 10000*rnd.Float64(), -5000 + 10000*rnd.Float64()}
				if _, ok := m.Locate(p); ok {
					pts = append(pts, p)
				}
			}
			q := navmesh.NewSearcher(m)
			path := make([]mgl64.Vec2, 0, 256)
			b.ReportAllocs()
			i, expanded := 0, 0
			for b.Loop() {
				k := 2 * (i % 100)
				i++
				var res navmesh.Result
				path, res, _ = q.AppendPath(path[:0], pts[k], pts[k+1], navmesh.Query{})
				if res.Status != core.Found || len(path) < 2 {
					b.Fatalf("%v→%v: %v", pts[k], pts[k+1], res.Status)
				}
				expanded += res.Expanded
			}
			b.ReportMetric(float64(expanded)/float64(i), "expanded/op")
		})
	}
}

// BenchmarkPolygonLocate locates random points of the bounding box.
func BenchmarkPolygonLocate(b *testing.B) {
	for _, tc := range bigPolygons() {
		b.Run(tc.name, func(b *testing.B) {
			m, err := navmesh.FromPolygon(tc.pg, navmesh.Options{})
			if err != nil {
				b.Fatal(err)
			}
			rnd := testmap.NewRand(3)
			pts := make([]mgl64.Vec2, 1024)
			for i := range pts {
				pts[i] = mgl64.Vec2{-5000 + 10000*rnd.Float64(), -5000 + 10000*rnd.Float64()}
			}
			b.ReportAllocs()
			i, found := 0, 0
			for b.Loop() {
				if _, ok := m.Locate(pts[i%len(pts)]); ok {
					found++
				}
				i++
			}
			if i >= 1024 && found == 0 {
				b.Fatal("no point located")
			}
		})
	}
}
