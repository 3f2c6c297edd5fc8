package navmesh

import (
	"bytes"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/navmesh/internal/geom"
	"github.com/go-gl/mathgl/mgl64"
	"github.com/paulmach/orb"
)

// rat is a point with exact rational coordinates.
type rat [2]*big.Rat

func ratOf(v mgl64.Vec2) rat {
	return rat{new(big.Rat).SetFloat64(v[0]), new(big.Rat).SetFloat64(v[1])}
}

func (a rat) sub(b rat) rat {
	return rat{new(big.Rat).Sub(a[0], b[0]), new(big.Rat).Sub(a[1], b[1])}
}

func (a rat) dot(b rat) *big.Rat {
	x := new(big.Rat).Mul(a[0], b[0])
	return x.Add(x, new(big.Rat).Mul(a[1], b[1]))
}

// crossSign returns the sign of (b−a) × (c−a), exactly.
func crossSign(a, b, c rat) int {
	u, v := b.sub(a), c.sub(a)
	x := new(big.Rat).Mul(u[0], v[1])
	return x.Sub(x, new(big.Rat).Mul(u[1], v[0])).Sign()
}

// pointSegDist2 returns the squared distance from p to segment a–b, exactly.
func pointSegDist2(p, a, b rat) *big.Rat {
	d, ap := b.sub(a), p.sub(a)
	t, l := ap.dot(d), d.dot(d)
	switch {
	case t.Sign() <= 0 || l.Sign() == 0:
		return ap.dot(ap)
	case t.Cmp(l) >= 0:
		bp := p.sub(b)
		return bp.dot(bp)
	}
	t.Quo(t, l)
	e := ap.sub(rat{new(big.Rat).Mul(t, d[0]), new(big.Rat).Mul(t, d[1])})
	return e.dot(e)
}

// segSegDist2 returns the squared distance between segments a–b and c–d,
// exactly.
func segSegDist2(a, b, c, d rat) *big.Rat {
	o1, o2, o3, o4 := crossSign(a, b, c), crossSign(a, b, d), crossSign(c, d, a), crossSign(c, d, b)
	if o1*o2 < 0 && o3*o4 < 0 {
		return new(big.Rat) // they cross
	}
	best := pointSegDist2(a, c, d)
	for _, x := range []*big.Rat{pointSegDist2(b, c, d), pointSegDist2(c, a, b), pointSegDist2(d, a, b)} {
		if x.Cmp(best) < 0 {
			best = x
		}
	}
	return best
}

// polySegDist2 returns the squared distance between the convex polygon vs
// (in either order round) and segment a–b, exactly: 0 when a is inside,
// else the least distance between the segment and an edge.
func polySegDist2(vs []rat, a, b rat) *big.Rat {
	pos, neg := false, false
	for i := range vs {
		switch crossSign(vs[i], vs[(i+1)%len(vs)], a) {
		case 1:
			pos = true
		case -1:
			neg = true
		}
	}
	if !pos || !neg {
		return new(big.Rat)
	}
	var best *big.Rat
	for i := range vs {
		if d := segSegDist2(vs[i], vs[(i+1)%len(vs)], a, b); best == nil || d.Cmp(best) < 0 {
			best = d
		}
	}
	return best
}

// polySegDist is polySegDist2 in floating point, not squared: 0 when a
// is inside or the segment crosses an edge, by exact orientation.
func polySegDist(vs []mgl64.Vec2, a, b mgl64.Vec2) float64 {
	pd := func(p, u, v mgl64.Vec2) float64 { c, _, _ := nearestOn(u, v, p); return geom.Dist(c, p) }
	best := math.Inf(1)
	pos, neg := false, false
	for i, v := range vs {
		w := vs[(i+1)%len(vs)]
		o := geom.Orient(v, w, a)
		pos, neg = pos || o > 0, neg || o < 0
		if o*geom.Orient(v, w, b) <= 0 && geom.Orient(a, b, v)*geom.Orient(a, b, w) <= 0 {
			return 0
		}
		for _, d := range [4]float64{pd(a, v, w), pd(b, v, w), pd(v, a, b), pd(w, a, b)} {
			best = math.Min(best, d)
		}
	}
	if !pos || !neg {
		return 0
	}
	return best
}

// checkEroded checks, exactly, that every polygon of m, eroded from the
// rings segs for radius r on cells of side c, keeps r from every wall and
// has its vertices on multiples of c; that m survives its file; and that
// Locate finds the centre of every polygon.
func checkEroded(t *testing.T, where string, m *Mesh, segs [][2]mgl64.Vec2, r, c float64) {
	t.Helper()
	r2 := new(big.Rat).SetFloat64(r)
	r2.Mul(r2, r2)
	for id := range m.NumPolys() {
		vs := m.AppendPolygon(nil, PolyID(id))
		lo, hi := vs[0], vs[0]
		var rv []rat
		var mid mgl64.Vec2
		for _, v := range vs {
			if v[0] != math.Round(v[0]/c)*c || v[1] != math.Round(v[1]/c)*c {
				t.Fatalf("%s: vertex %v is not a multiple of %v", where, v, c)
			}
			lo = mgl64.Vec2{math.Min(lo[0], v[0]), math.Min(lo[1], v[1])}
			hi = mgl64.Vec2{math.Max(hi[0], v[0]), math.Max(hi[1], v[1])}
			rv = append(rv, ratOf(v))
			mid = mid.Add(v.Mul(1 / float64(len(vs))))
		}
		for _, s := range segs {
			// Far apart by the boxes, with room for rounding: skip.
			g := 2*r + 1e-12*(math.Abs(s[0][0])+math.Abs(s[0][1]))
			if math.Min(s[0][0], s[1][0]) > hi[0]+g || math.Max(s[0][0], s[1][0]) < lo[0]-g ||
				math.Min(s[0][1], s[1][1]) > hi[1]+g || math.Max(s[0][1], s[1][1]) < lo[1]-g {
				continue
			}
			// Far apart in floating point, with room for rounding: skip.
			if polySegDist(vs, s[0], s[1]) > r+1e-9*(r+math.Abs(s[0][0])+math.Abs(s[0][1])) {
				continue
			}
			if d2 := polySegDist2(rv, ratOf(s[0]), ratOf(s[1])); d2.Cmp(r2) < 0 {
				d, _ := d2.Float64()
				t.Fatalf("%s: polygon %d %v is %v from the wall %v–%v, less than the radius %v (by %g)", where, id, vs, math.Sqrt(d), s[0], s[1], r, r-math.Sqrt(d))
			}
		}
		if got, ok := m.Locate(mid); !ok || !m.Contains(got, mid) {
			t.Fatalf("%s: Locate(%v), the middle of polygon %d, = %d, %v", where, mid, id, got, ok)
		}
	}
	var buf bytes.Buffer
	if _, err := m.WriteTo(&buf); err != nil {
		t.Fatalf("%s: WriteTo: %v", where, err)
	}
	back, err := Read(&buf)
	if err != nil {
		t.Fatalf("%s: Read: %v", where, err)
	}
	if !SameInternals(m, back) {
		t.Fatalf("%s: the mesh read back differs", where)
	}
}

// ringSegs returns the segments of the rings of mp.
func ringSegs(mp orb.MultiPolygon) [][2]mgl64.Vec2 {
	var segs [][2]mgl64.Vec2
	for _, pg := range mp {
		for _, ring := range pg {
			for j, p := range ring {
				q := ring[(j+1)%len(ring)]
				segs = append(segs, [2]mgl64.Vec2{vec(p), vec(q)})
			}
		}
	}
	return segs
}

// cellOf returns the cell side FromPolygons erodes on for opt.
func cellOf(opt Options) float64 {
	c := opt.CellSize
	if c == 0 {
		c = opt.Radius / 2
	}
	return math.Ldexp(1, math.Ilogb(c))
}

// randomArea returns a seeded random area round (50, 50) in units of
// 1: one or two star-shaped polygons, the second close beside the first,
// with a few small holes, all valid.
func randomArea(rnd *rand.Rand) orb.MultiPolygon {
	mp := orb.MultiPolygon{{starRing(rnd, func(x, y float64) orb.Point { return orb.Point{x, y} })}}
	if rnd.IntN(2) == 0 {
		dx := 90 + float64(rnd.IntN(8))
		second := orb.Polygon{starRing(rnd, func(x, y float64) orb.Point { return orb.Point{x + dx, y} })}
		if _, err := readPolygons(append(mp, second)); err == nil {
			mp = append(mp, second)
		}
	}
	for range rnd.IntN(8) {
		x, y := float64(30+rnd.IntN(40)), float64(30+rnd.IntN(40))
		w, h := float64(2+rnd.IntN(6)), float64(2+rnd.IntN(6))
		hole := orb.Ring{{x, y}, {x + w, y + float64(rnd.IntN(int(h)))}, {x + float64(rnd.IntN(int(w))), y + h}}
		try := append(orb.MultiPolygon(nil), mp...)
		try[0] = append(append(orb.Polygon(nil), mp[0]...), hole)
		if _, err := readPolygons(try); err == nil {
			mp = try
		}
	}
	return mp
}

// TestErodeRandom builds eroded meshes of random areas, scaled down to
// 10⁻³ and up to 10³ and moved as far as 10⁸ from the origin, for radii
// and cell sizes from small to larger than the area, and checks each as
// checkEroded does: an error or a mesh that keeps the radius, exactly.
func TestErodeRandom(t *testing.T) {
	scales := []float64{1, 1.0 / 3, 1e-3, 7e2}
	offsets := []float64{0, -37.5, 1e6 + 0.1, -3e7, 1e8}
	radii := []float64{0.6, 1.5, 4, 13, 60}
	meshes := 0
	for seed := int64(1); seed <= 24; seed++ {
		rnd := testmap.NewRand(seed)
		base := randomArea(rnd)
		s, off := scales[rnd.IntN(len(scales))], offsets[rnd.IntN(len(offsets))]
		mp := make(orb.MultiPolygon, len(base))
		for i, pg := range base {
			for _, ring := range pg {
				out := make(orb.Ring, len(ring))
				for j, p := range ring {
					out[j] = orb.Point{s*p[0] + off, s*p[1] - off/3}
				}
				mp[i] = append(mp[i], out)
			}
		}
		if _, err := readPolygons(mp); err != nil {
			continue // scaling made it invalid
		}
		segs := ringSegs(mp)
		for _, rr := range radii {
			opt := Options{Radius: s * rr}
			if rnd.IntN(3) == 0 {
				opt.CellSize = s * rr / float64(1+rnd.IntN(3))
			}
			where := fmt.Sprintf("seed %d scale %v offset %v %+v", seed, s, off, opt)
			m, err := FromPolygons(mp, opt)
			if err != nil {
				if !strings.HasPrefix(err.Error(), "navmesh: ") {
					t.Fatalf("%s: error %q", where, err)
				}
				continue
			}
			checkEroded(t, where, m, segs, opt.Radius, cellOf(opt))
			meshes++
		}
	}
	if meshes < 50 {
		t.Fatalf("only %d meshes checked", meshes)
	}
	t.Logf("%d meshes checked", meshes)
}

// TestErodeEdgeCases builds eroded meshes where rounding decides, and
// checks them as checkEroded does, or that FromPolygons refuses them with
// an error.
func TestErodeEdgeCases(t *testing.T) {
	sq := func(x0, y0, x1, y1 float64) orb.MultiPolygon {
		return orb.MultiPolygon{{{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}}}
	}
	// A wall at 4:3 from (X, X), cells of 1/8: the cells whose nearest
	// corner is 1 from it, exactly, lie along a line beside it, and at
	// 3·10⁹ the distance is rounded by up to 10⁻⁷.
	const X = 3e9
	slant := orb.MultiPolygon{{{{X, X}, {X + 48, X}, {X + 48, X + 64}}}}
	for _, tc := range []struct {
		name string
		mp   orb.MultiPolygon
		opt  Options
		fail bool   // FromPolygons must refuse it
		want string // in the error, when not empty
	}{
		// 9 − r rounds up to 8, a cell side: the row of cells below
		// it, 1 from the top wall, was never tested against it.
		{"range rounding", sq(0, 0, 8, 9), Options{Radius: 1 + 0x1p-52}, false, ""},
		// A wall's distance from a cell corner far from the origin,
		// rounded by more than r·10⁻⁹.
		{"far slanted wall", slant, Options{Radius: 1 + 0x1p-40, CellSize: 0.125}, false, ""},
		// (x + r)/c beyond what an int holds: no cell was tested.
		{"radius beyond int", sq(0, 0, 10, 10), Options{Radius: 1e20, CellSize: 1}, true, ""},
		{"radius max", sq(-10, -10, 10, 10), Options{Radius: math.MaxFloat64, CellSize: 1}, true, ""},
		// Cells of 2⁻⁴⁰ at 2²⁰: their corners are not floats.
		{"cells below the coordinates' precision", sq(1<<20, 0, 1<<20+0x1p-30, 0x1p-30), Options{Radius: 0x1p-38, CellSize: 0x1p-40}, true, ""},
		// Corners at multiples of 2⁻³³⁷, below 10⁻¹⁰⁰, which Read refuses.
		{"cells below 1e-100", sq(0, 0, 4e-100, 4e-100), Options{Radius: 1e-101, CellSize: 1e-102}, true, "cells of"},
		// Default cells of half a radius below 1e-100: the error once
		// named a cell size of 0 to a caller who never set one.
		{"default cells below 1e-100", sq(0, 0, 4e-100, 4e-100), Options{Radius: 1e-101}, true, "agent radius 1e-101 makes default cells"},
		{"the smallest radius", sq(0, 0, 1, 1), Options{Radius: 5e-324}, true, "agent radius 5e-324 makes default cells of 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := FromPolygons(tc.mp, tc.opt)
			switch {
			case tc.fail && err == nil:
				t.Fatalf("a mesh of %d polygons, want an error", m.NumPolys())
			case tc.fail && (!strings.HasPrefix(err.Error(), "navmesh: ") || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("error %q, want one mentioning %q", err, tc.want)
			case tc.fail:
				t.Log(err)
				return
			case err != nil:
				t.Fatal(err)
			}
			checkEroded(t, tc.name, m, ringSegs(tc.mp), tc.opt.Radius, cellOf(tc.opt))
		})
	}
}
