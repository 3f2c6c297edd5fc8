package navmesh_test

import (
	"bytes"
	"fmt"
	"image"
	"math"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/gridcheck"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/navmesh"
	"github.com/go-gl/mathgl/mgl64"
	"github.com/paulmach/orb"
)

// TestRadius builds meshes for agents of several radii on random grids and
// checks every path keeps at least the radius from every blocked cell and
// from the map's edge.
func TestRadius(t *testing.T) {
	for _, r := range []float64{0.25, 0.5, 1, 1.5} {
		for seed := int64(1); seed <= 4; seed++ {
			t.Run(fmt.Sprintf("r=%v/seed=%d", r, seed), func(t *testing.T) {
				const w, h = 50, 40
				density := 0.04
				if r > 0.5 {
					density = 0.015 // bigger agents need open ground
				}
				g := testmap.Random(seed, w, h, density, grid.Options{})
				m, err := navmesh.FromGrid(g, navmesh.Options{Radius: r})
				if err != nil {
					t.Fatal(err)
				}
				q := navmesh.NewSearcher(m)
				found := 0
				for _, p := range testmap.RandomPairs(testmap.NewRand(seed), g, 150) {
					from := mgl64.Vec2{float64(p[0].X) + 0.5, float64(p[0].Y) + 0.5}
					to := mgl64.Vec2{float64(p[1].X) + 0.5, float64(p[1].Y) + 0.5}
					path, res, err := q.AppendPath(nil, from, to, navmesh.Query{})
					if err != nil {
						continue // an end too close to a wall for this radius
					}
					if res.Status != core.Found {
						continue
					}
					found++
					for i := 1; i < len(path); i++ {
						a, b := path[i-1], path[i]
						for y := -1; y <= h; y++ {
							for x := -1; x <= w; x++ {
								if g.Passable(image.Pt(x, y)) {
									continue
								}
								if d := gridcheck.SegSquareDist(a, b, float64(x), float64(y)); d < r-1e-9 {
									t.Fatalf("seed %d r %v: leg %v→%v passes %.4f from blocked cell (%d,%d)", seed, r, a, b, d, x, y)
								}
							}
						}
					}
				}
				if found < 10 {
					t.Fatalf("seed %d r %v: only %d paths found; the test checks too little", seed, r, found)
				}
			})
		}
	}
}

// TestRadiusHuge builds grid meshes for radii beyond the map, up to the
// largest float64. Radii of 2⁶³ and more once wrapped the erosion's reach
// to a negative number, kept every free cell and returned the point agent's
// paths; a radius of 10⁵ took O(cells·r²). Now nothing is kept, in one pass
// over the cells, and a query says its start is off the mesh.
func TestRadiusHuge(t *testing.T) {
	g := testmap.Random(7, 200, 150, 0.01, grid.Options{})
	for _, r := range []float64{100, 1e5, 1e6, 1 << 63, 1e19, math.MaxFloat64} {
		m, err := navmesh.FromGrid(g, navmesh.Options{Radius: r})
		if err != nil {
			t.Fatal(err)
		}
		if n := m.NumPolys(); n != 0 {
			t.Errorf("radius %v: %d polygons on a 200×150 map, want 0", r, n)
		}
		_, res, err := navmesh.NewSearcher(m).AppendPath(nil, mgl64.Vec2{10.5, 10.5}, mgl64.Vec2{190.5, 140.5}, navmesh.Query{})
		if err == nil {
			t.Errorf("radius %v: query gave %+v and no error, want the start off the mesh", r, res)
		}
	}
}

// segDistance returns the distance between the segments [a, b] and [c, d].
func segDistance(a, b, c, d mgl64.Vec2) float64 {
	cross := func(o, p, q mgl64.Vec2) float64 { return (p[0]-o[0])*(q[1]-o[1]) - (p[1]-o[1])*(q[0]-o[0]) }
	if d1, d2, d3, d4 := cross(a, b, c), cross(a, b, d), cross(c, d, a), cross(c, d, b); ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)) {
		return 0
	}
	pt := func(p, u, v mgl64.Vec2) float64 {
		e := v.Sub(u)
		t := 0.0
		if l := e.Dot(e); l > 0 {
			t = math.Min(math.Max(p.Sub(u).Dot(e)/l, 0), 1)
		}
		return p.Sub(u.Add(e.Mul(t))).Len()
	}
	return math.Min(math.Min(pt(a, c, d), pt(b, c, d)), math.Min(pt(c, a, b), pt(d, a, b)))
}

// TestPolygonRadius builds meshes from random and hand-made polygons for
// agents of several radii and checks that every path between random points
// of the mesh keeps the radius from every ring of the input, that every
// vertex of the mesh is a multiple of the cell size, and that the mesh
// survives its file.
func TestPolygonRadius(t *testing.T) {
	paths := 0
	for seed := int64(1); seed <= 12; seed++ {
		rnd := testmap.NewRand(seed)
		var pg orb.Polygon
		if seed%3 == 0 {
			pg = handPolygons()[int(seed/3)%len(handPolygons())].mp[0]
		} else {
			pg = randomPolygon(rnd)
		}
		var segs [][2]mgl64.Vec2
		lo, hi := mgl64.Vec2{math.Inf(1), math.Inf(1)}, mgl64.Vec2{math.Inf(-1), math.Inf(-1)}
		for _, ring := range pg {
			for j, p := range ring {
				q := ring[(j+1)%len(ring)]
				segs = append(segs, [2]mgl64.Vec2{{p[0], p[1]}, {q[0], q[1]}})
				lo = mgl64.Vec2{math.Min(lo[0], p[0]), math.Min(lo[1], p[1])}
				hi = mgl64.Vec2{math.Max(hi[0], p[0]), math.Max(hi[1], p[1])}
			}
		}
		for _, r := range []float64{0.3, 1, 2.5} {
			where := fmt.Sprintf("seed %d radius %v", seed, r)
			m, err := navmesh.FromPolygon(pg, navmesh.Options{Radius: r})
			if err != nil {
				if strings.Contains(err.Error(), "no part of the area") {
					continue
				}
				t.Fatalf("%s: %v", where, err)
			}
			c := math.Ldexp(1, math.Ilogb(r/2))
			for id := range m.NumPolys() {
				for _, v := range m.AppendPolygon(nil, navmesh.PolyID(id)) {
					if v[0] != math.Round(v[0]/c)*c || v[1] != math.Round(v[1]/c)*c {
						t.Fatalf("%s: vertex %v is not a multiple of %v", where, v, c)
					}
				}
			}
			var buf bytes.Buffer
			if _, err := m.WriteTo(&buf); err != nil {
				t.Fatalf("%s: WriteTo: %v", where, err)
			}
			back, err := navmesh.Read(&buf)
			if err != nil {
				t.Fatalf("%s: Read: %v", where, err)
			}
			if !navmesh.SameInternals(m, back) {
				t.Fatalf("%s: the mesh read back differs", where)
			}
			q := navmesh.NewSearcher(m)
			var pts []mgl64.Vec2
			for tries := 0; len(pts) < 40 && tries < 4000; tries++ {
				p := mgl64.Vec2{lo[0] + rnd.Float64()*(hi[0]-lo[0]), lo[1] + rnd.Float64()*(hi[1]-lo[1])}
				if _, ok := m.Locate(p); ok {
					pts = append(pts, p)
				}
			}
			for i := 0; i+1 < len(pts); i += 2 {
				path, res, err := q.AppendPath(nil, pts[i], pts[i+1], navmesh.Query{})
				if err != nil {
					t.Fatalf("%s: %v", where, err)
				}
				if res.Status != core.Found {
					continue
				}
				paths++
				for k := 0; k+1 < len(path); k++ {
					for _, s := range segs {
						if d := segDistance(path[k], path[k+1], s[0], s[1]); d < r-1e-9 {
							t.Fatalf("%s: leg %v–%v passes %v from the wall %v–%v", where, path[k], path[k+1], d, s[0], s[1])
						}
					}
				}
			}
		}
	}
	if paths < 300 {
		t.Fatalf("only %d paths checked", paths)
	}
	t.Logf("%d paths checked", paths)
}

// TestPolygonRadiusPassage checks what erosion keeps of a corridor between
// two rooms: open when wider than 2(r + c) + c, closed when narrower than
// 2r.
func TestPolygonRadiusPassage(t *testing.T) {
	room := func(width float64) orb.Polygon {
		// Two 10×10 rooms joined by a corridor 6 long.
		y0, y1 := 5-width/2, 5+width/2
		return orb.Polygon{{{0, 0}, {10, 0}, {10, y0}, {16, y0}, {16, 0}, {26, 0}, {26, 10}, {16, 10}, {16, y1}, {10, y1}, {10, 10}, {0, 10}, {0, 0}}}
	}
	const r = 1
	c := 0.5 // the default cell, r/2
	for _, tc := range []struct {
		width float64
		open  bool
	}{{2*(r+c) + c + 0.01, true}, {4, true}, {2*r - 0.01, false}, {1, false}} {
		m, err := navmesh.FromPolygon(room(tc.width), navmesh.Options{Radius: r})
		if err != nil {
			t.Fatal(err)
		}
		_, res, err := navmesh.NewSearcher(m).AppendPath(nil, mgl64.Vec2{5, 5}, mgl64.Vec2{21, 5}, navmesh.Query{})
		if err != nil {
			t.Fatalf("width %v: %v", tc.width, err)
		}
		if open := res.Status == core.Found; open != tc.open {
			t.Errorf("corridor %v wide for radius %v: open %v, want %v", tc.width, r, open, tc.open)
		}
	}
}
