package geom

import (
	"math"
	"math/big"
	"testing"

	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/go-gl/mathgl/mgl64"
)

// TestInCircle checks the filtered in-circle test against rational
// arithmetic: on random points, on points of one circle (the corners of
// rectangles, scaled and moved by awkward amounts) and on such points
// nudged by one ulp, where the float evaluation alone cannot tell.
func TestInCircle(t *testing.T) {
	r := testmap.NewRand(7)
	ulp := func(x float64) float64 { return math.Nextafter(x, math.Inf(1)) }
	zeros, decided := 0, 0
	for i := range 20000 {
		var a, b, c, d mgl64.Vec2
		switch i % 3 {
		case 0:
			for _, p := range []*mgl64.Vec2{&a, &b, &c, &d} {
				*p = mgl64.Vec2{r.NormFloat64() * 100, r.NormFloat64() * 100}
			}
		default:
			// A rectangle's corners lie on one circle. Powers of two
			// keep them exact; the offset is an exact float too.
			s := math.Ldexp(1, r.IntN(40)-20)
			o := mgl64.Vec2{float64(r.IntN(1000)) * s, float64(r.IntN(1000)) * s}
			w, h := float64(1+r.IntN(9))*s, float64(1+r.IntN(9))*s
			a, b, c, d = o, o.Add(mgl64.Vec2{w, 0}), o.Add(mgl64.Vec2{w, h}), o.Add(mgl64.Vec2{0, h})
			if i%3 == 2 {
				d[r.IntN(2)] = ulp(d[0])
				if r.IntN(2) == 0 {
					d = mgl64.Vec2{ulp(d[0]), d[1]}
				}
			}
		}
		if Orient(a, b, c) <= 0 {
			a, b = b, a
		}
		if Orient(a, b, c) == 0 {
			continue
		}
		got, want := InCircle(a, b, c, d), inCircleExact(a, b, c, d)
		if got != want {
			t.Fatalf("InCircle(%v, %v, %v, %v) = %d, exact %d", a, b, c, d, got, want)
		}
		if want == 0 {
			zeros++
		} else {
			decided++
		}
	}
	if zeros < 1000 || decided < 1000 {
		t.Fatalf("%d points on the circle, %d off it: the cases are not covered", zeros, decided)
	}
}

// TestOrient checks the filtered orientation test against rational
// arithmetic on points nearly on one line: a line through two random
// points, the third moved off it by a few ulps, at scales from 2⁻⁶⁰ to
// 2⁶⁰, where the float64 determinant alone cannot tell the side.
func TestOrient(t *testing.T) {
	r := testmap.NewRand(9)
	rat := func(x float64) *big.Rat { return new(big.Rat).SetFloat64(x) }
	exact := func(a, b, c mgl64.Vec2) int {
		l := new(big.Rat).Mul(new(big.Rat).Sub(rat(b[0]), rat(a[0])), new(big.Rat).Sub(rat(c[1]), rat(a[1])))
		m := new(big.Rat).Mul(new(big.Rat).Sub(rat(b[1]), rat(a[1])), new(big.Rat).Sub(rat(c[0]), rat(a[0])))
		return l.Cmp(m)
	}
	counts := map[int]int{}
	for i := range 30000 {
		s := math.Ldexp(1, r.IntN(121)-60)
		a := mgl64.Vec2{r.NormFloat64() * s, r.NormFloat64() * s}
		b := mgl64.Vec2{r.NormFloat64() * s, r.NormFloat64() * s}
		k := r.Float64()*3 - 1
		c := a.Add(b.Sub(a).Mul(k))
		for range r.IntN(4) {
			j := r.IntN(2)
			c[j] = math.Nextafter(c[j], math.Inf(2*r.IntN(2)-1))
		}
		if i%5 == 0 {
			c = b.Add(a).Mul(0.5) // often exactly on the line
		}
		got, want := Orient(a, b, c), exact(a, b, c)
		if got != want || orientExact(a, b, c) != want {
			t.Fatalf("Orient(%v, %v, %v) = %d, orientExact %d, exact %d", a, b, c, got, orientExact(a, b, c), want)
		}
		counts[want]++
	}
	if counts[0] < 1000 || counts[1] < 1000 || counts[-1] < 1000 {
		t.Fatalf("signs %v: the cases are not covered", counts)
	}
}
