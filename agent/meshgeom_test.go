package agent

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// ratOrient is the sign of (b−a)×(c−a) in exact rational arithmetic.
func ratOrient(a, b, c mgl64.Vec2) int {
	r := func(x float64) *big.Rat { return new(big.Rat).SetFloat64(x) }
	sub := func(x, y float64) *big.Rat { return new(big.Rat).Sub(r(x), r(y)) }
	l := new(big.Rat).Mul(sub(b[0], a[0]), sub(c[1], a[1]))
	rr := new(big.Rat).Mul(sub(b[1], a[1]), sub(c[0], a[0]))
	return l.Cmp(rr)
}

// TestOrientExact checks orient against rational arithmetic on points
// on, and within a few ulps of, random lines, where the float
// determinant's sign is noise.
func TestOrientExact(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 20000 {
		scale := math.Pow(10, float64(r.IntN(7)-2))
		a := mgl64.Vec2{r.Float64() * scale, r.Float64() * scale}
		b := mgl64.Vec2{r.Float64() * scale, r.Float64() * scale}
		s := r.Float64()*3 - 1
		c := a.Add(b.Sub(a).Mul(s))
		for k := range 2 {
			if r.IntN(3) > 0 {
				c[k] = math.Nextafter(c[k], math.Inf(2*r.IntN(2)-1))
			}
		}
		if r.IntN(8) == 0 { // exactly collinear, on a grid
			a, b = mgl64.Vec2{float64(r.IntN(50)), float64(r.IntN(50))}, mgl64.Vec2{float64(r.IntN(50)), float64(r.IntN(50))}
			c = a.Add(b.Sub(a).Mul(float64(r.IntN(9)-4) / 4))
		}
		if got, want := orient(a, b, c), ratOrient(a, b, c); got != want {
			t.Fatalf("case %d: orient(%v, %v, %v) = %d, want %d", i, a, b, c, got, want)
		}
	}
}

// TestInConvexEdges checks that a point on an edge or a corner of a
// polygon is in it, and one an ulp outside is not.
func TestInConvexEdges(t *testing.T) {
	// A triangle with a slanting side, in the navmesh's order.
	vs := []mgl64.Vec2{{0, 0}, {0, 3}, {7, 0}}
	for _, tc := range []struct {
		q    mgl64.Vec2
		in   bool
		near bool
	}{
		{mgl64.Vec2{1, 1}, true, true},
		{mgl64.Vec2{0, 0}, true, true},
		{mgl64.Vec2{3.5, 1.5}, true, true}, // on the slanting side
		{mgl64.Vec2{3.5, math.Nextafter(1.5, 2)}, false, true},
		{mgl64.Vec2{0, 1}, true, true},
		{mgl64.Vec2{-1e-300, 1}, false, true},
		{mgl64.Vec2{-1e-6, 1}, false, false},
	} {
		if got := inConvex(vs, tc.q); got != tc.in {
			t.Errorf("inConvex(%v) = %v, want %v", tc.q, got, tc.in)
		}
		if got := nearConvex(vs, tc.q); got != tc.near {
			t.Errorf("nearConvex(%v) = %v, want %v", tc.q, got, tc.near)
		}
	}
}
