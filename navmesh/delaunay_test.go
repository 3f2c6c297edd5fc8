package navmesh

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/navmesh/internal/geom"
	"github.com/cairn-nav/cairn/navmesh/internal/tri"
	"github.com/paulmach/orb"
)

// TestDelaunay triangulates random polygons with holes by ear clipping,
// flips them, and checks the result: the same walls and area, and every
// shared edge locally Delaunay.
func TestDelaunay(t *testing.T) {
	flipped := 0
	for seed := int64(1); seed <= 40; seed++ {
		r := testmap.NewRand(seed)
		in := randomRegion(r)
		ts, err := tri.Ears(in.input(tri.Options{}))
		if err != nil {
			t.Fatal(err)
		}
		tris, adj := ts.Tris, ts.Adj
		before := append([][3]int32(nil), tris...)
		ts.Delaunay(in.verts)
		walls := func(ts [][3]int32) map[[2]int32]bool {
			w := map[[2]int32]bool{}
			for i, nb := range tri.Neighbors(len(in.verts), ts) {
				if nb < 0 {
					w[[2]int32{ts[i/3][i%3], ts[i/3][(i%3+1)%3]}] = true
				}
			}
			return w
		}
		area := func(ts [][3]int32) float64 {
			var s float64
			for _, tr := range ts {
				a, b, c := in.verts[tr[0]], in.verts[tr[1]], in.verts[tr[2]]
				s += (b[0]-a[0])*(c[1]-a[1]) - (b[1]-a[1])*(c[0]-a[0])
			}
			return s
		}
		wb, wa := walls(before), walls(tris)
		if len(wb) != len(wa) {
			t.Fatalf("seed %d: %d walls before, %d after", seed, len(wb), len(wa))
		}
		for e := range wb {
			if !wa[e] {
				t.Fatalf("seed %d: wall %v lost", seed, e)
			}
		}
		if a, b := area(tris), area(before); math.Abs(a-b) > 1e-9*math.Abs(b) {
			t.Fatalf("seed %d: area %v, was %v", seed, a, b)
		}
		for h, g := range adj {
			if g < 0 {
				continue
			}
			tr, u := tris[h/3], tris[g/3]
			k, j := int32(h%3), g%3
			a, b, c, d := in.verts[tr[k]], in.verts[tr[(k+1)%3]], in.verts[tr[(k+2)%3]], in.verts[u[(j+2)%3]]
			if geom.InCircle(a, b, c, d) > 0 && geom.Orient(a, d, c) > 0 && geom.Orient(d, b, c) > 0 {
				t.Fatalf("seed %d: edge %v–%v is not locally Delaunay", seed, a, b)
			}
		}
		for i := range tris {
			if tris[i] != before[i] {
				flipped++
				break
			}
		}
	}
	if flipped < 30 {
		t.Fatalf("only %d of 40 triangulations changed", flipped)
	}
}

// randomRegion returns validated input: a star-shaped ring of 8 to 60
// points round (50, 50) with up to 20 small triangular or square holes,
// kept where the input stays valid, every other one sheared and scaled so
// that its coordinates are fractions and its edges run at all angles.
func randomRegion(r *rand.Rand) *polyIn {
	shear, k := float64(r.IntN(5)-2), float64(64+r.IntN(1024))/1024
	if r.IntN(2) == 0 {
		shear, k = 0, 1
	}
	pt := func(x, y float64) orb.Point { return orb.Point{k * (x + shear*y), k * y} }
	for {
		pg := orb.Polygon{starRing(r, pt)}
		if _, err := readPolygons(orb.MultiPolygon{pg}); err != nil {
			continue
		}
		for range 1 + r.IntN(20) {
			x, y := float64(25+r.IntN(50)), float64(25+r.IntN(50))
			s := float64(1 + r.IntN(6))
			hole := orb.Ring{pt(x, y), pt(x+s, y), pt(x+s, y+s), pt(x, y+s)}
			if r.IntN(2) == 0 {
				hole = orb.Ring{pt(x, y), pt(x+s, y+float64(r.IntN(int(s)+1))), pt(x, y+s)}
			}
			if _, err := readPolygons(orb.MultiPolygon{append(pg, hole)}); err == nil {
				pg = append(pg, hole)
			}
		}
		in, err := readPolygons(orb.MultiPolygon{pg})
		if err != nil {
			panic(err)
		}
		return in
	}
}

// starRing draws a star-shaped ring of 8 to 60 integer points round
// (50, 50), at random angles and 20 to 45 away, each mapped by pt. The ring
// may come out degenerate (points repeated after rounding).
func starRing(r *rand.Rand, pt func(x, y float64) orb.Point) orb.Ring {
	n := 8 + r.IntN(53)
	angles := make([]float64, n)
	for i := range angles {
		angles[i] = r.Float64() * 2 * math.Pi
	}
	slices.Sort(angles)
	var ring orb.Ring
	for _, a := range angles {
		d := 20 + 25*r.Float64()
		ring = append(ring, pt(math.Round(50+d*math.Cos(a)), math.Round(50+d*math.Sin(a))))
	}
	return ring
}
