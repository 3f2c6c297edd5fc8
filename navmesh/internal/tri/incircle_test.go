package tri

import (
	"math"
	"testing"

	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/navmesh/internal/geom"
	"github.com/go-gl/mathgl/mgl64"
)

// TestInCircle checks the adaptive inCircle against geom.InCircle (exact,
// in rational arithmetic where its filter cannot tell) on random points;
// on the corners of rectangles, one circle exactly, where the differences
// are exact (stage B); on points of a circle from sin and cos, near and
// far apart, where they are not (stage C and past it); on such points
// nudged by an ulp; and at scales from 2⁻¹⁸⁰ to 2¹⁸⁰, where products
// would underflow or overflow and it must hand over to geom.InCircle.
func TestInCircle(t *testing.T) {
	r := testmap.NewRand(11)
	ulp := func(x float64) float64 { return math.Nextafter(x, math.Inf(1)) }
	signs := map[int]int{}
	for i := range 60000 {
		var a, b, c, d mgl64.Vec2
		s := math.Ldexp(1, r.IntN(40)-20)
		if i%10 == 9 {
			s = math.Ldexp(1, r.IntN(361)-180)
		}
		switch i % 4 {
		case 0:
			for _, p := range []*mgl64.Vec2{&a, &b, &c, &d} {
				*p = mgl64.Vec2{r.NormFloat64() * s, r.NormFloat64() * s}
			}
		case 1:
			o := mgl64.Vec2{float64(r.IntN(1000)) * s, float64(r.IntN(1000)) * s}
			w, h := float64(1+r.IntN(9))*s, float64(1+r.IntN(9))*s
			a, b, c, d = o, o.Add(mgl64.Vec2{w, 0}), o.Add(mgl64.Vec2{w, h}), o.Add(mgl64.Vec2{0, h})
		default:
			// Four points of one circle, by sin and cos: its size s,
			// centre at a random offset, the angles spread over the
			// whole circle or within a small arc.
			o := mgl64.Vec2{r.NormFloat64() * s * 10, r.NormFloat64() * s * 10}
			arc, a0 := 2*math.Pi, r.Float64()*2*math.Pi
			if r.IntN(2) == 0 {
				arc = math.Ldexp(1, -r.IntN(20))
			}
			at := func() mgl64.Vec2 {
				ang := a0 + arc*r.Float64()
				return mgl64.Vec2{o[0] + s*math.Cos(ang), o[1] + s*math.Sin(ang)}
			}
			a, b, c, d = at(), at(), at(), at()
		}
		if i%8 >= 6 {
			k := r.IntN(2)
			d[k] = ulp(d[k])
		}
		if geom.Orient(a, b, c) < 0 {
			a, b = b, a
		}
		if geom.Orient(a, b, c) == 0 {
			continue
		}
		got, want := inCircle(a, b, c, d), geom.InCircle(a, b, c, d)
		if got != want {
			t.Fatalf("case %d: inCircle(%v, %v, %v, %v) = %d, geom.InCircle %d", i, a, b, c, d, got, want)
		}
		signs[want]++
	}
	if signs[0] < 5000 || signs[1] < 5000 || signs[-1] < 5000 {
		t.Fatalf("signs %v: the cases are not covered", signs)
	}
}

// BenchmarkInCircle times inCircle against geom.InCircle on points of a
// circle far apart, which neither float filter settles.
func BenchmarkInCircle(b *testing.B) {
	pts := regular(1000, 1e4, mgl64.Vec2{})
	for _, bc := range []struct {
		name string
		f    func(a, b, c, d mgl64.Vec2) int
	}{{"adaptive", inCircle}, {"geom", geom.InCircle}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			i, n := 0, 0
			for b.Loop() {
				n += bc.f(pts[i%1000], pts[(i+250)%1000], pts[(i+500)%1000], pts[(i+750+i%7)%1000])
				i++
			}
			if n > i {
				b.Fatal("more than +1 a test")
			}
		})
	}
}
