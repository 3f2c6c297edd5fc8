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

// TestCross checks Cross against rational arithmetic on vectors nearly
// parallel (the second a multiple of the first, moved by a few ulps) and
// on random ones, at scales from 2⁻⁶⁰ to 2⁶⁰: the relative error stays
// below 2⁻⁴⁰, and the sign is exact.
func TestCross(t *testing.T) {
	r := testmap.NewRand(13)
	rat := func(x float64) *big.Rat { return new(big.Rat).SetFloat64(x) }
	sub := func(x, y float64) *big.Rat { return new(big.Rat).Sub(rat(x), rat(y)) }
	exact := func(a, b, c, d mgl64.Vec2) *big.Rat {
		l := new(big.Rat).Mul(sub(b[0], a[0]), sub(d[1], c[1]))
		return l.Sub(l, new(big.Rat).Mul(sub(b[1], a[1]), sub(d[0], c[0])))
	}
	zeros, slow := 0, 0
	for i := range 30000 {
		s := math.Ldexp(1, r.IntN(121)-60)
		pt := func() mgl64.Vec2 { return mgl64.Vec2{r.NormFloat64() * s, r.NormFloat64() * s} }
		a, b, c := pt(), pt(), pt()
		d := c.Add(b.Sub(a).Mul(r.Float64()*4 - 2))
		for range r.IntN(4) {
			j := r.IntN(2)
			d[j] = math.Nextafter(d[j], math.Inf(2*r.IntN(2)-1))
		}
		switch i % 7 {
		case 0:
			d = pt()
		case 1: // exactly parallel: small integers, scaled
			in := func() mgl64.Vec2 { return mgl64.Vec2{float64(r.IntN(200)-100) * s, float64(r.IntN(200)-100) * s} }
			a, b, c = in(), in(), in()
			d = c.Add(b.Sub(a).Mul(float64(r.IntN(5) - 2)))
		}
		got, want := Cross(a, b, c, d), exact(a, b, c, d)
		w, _ := want.Float64()
		if (got > 0) != (want.Sign() > 0) || (got < 0) != (want.Sign() < 0) || math.Abs(got-w) > 0x1p-40*math.Abs(w) {
			t.Fatalf("Cross(%v, %v, %v, %v) = %v, exact %v", a, b, c, d, got, w)
		}
		l, rr := (b[0]-a[0])*(d[1]-c[1]), (b[1]-a[1])*(d[0]-c[0])
		if math.Abs(l-rr) <= 0x1p40*orientErr*(math.Abs(l)+math.Abs(rr)) {
			slow++
		}
		if want.Sign() == 0 {
			zeros++
		}
	}
	if slow < 1000 || zeros < 1000 {
		t.Fatalf("%d cases for the exact sum, %d zeros: not covered", slow, zeros)
	}
	t.Logf("%d exact sums, %d zeros", slow, zeros)
}
