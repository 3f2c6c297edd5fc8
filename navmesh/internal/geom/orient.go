package geom

import (
	"math"
	"math/big"

	"github.com/go-gl/mathgl/mgl64"
)

// Orient returns the sign of the cross product (b−a) × (c−a): +1 when c is
// to the left of the directed line a→b in the textbook y-up sense
// (a counter-clockwise turn), −1 to the right, 0 on the line. (With y down,
// as on screen, left and right swap; navmesh's cross has the same sign.)
// It is exact when no product of two coordinates overflows or underflows:
// a float64 evaluation settles almost every case, and the rest are summed
// exactly from error-free products.
func Orient(a, b, c mgl64.Vec2) int {
	l := float64((b[0] - a[0]) * (c[1] - a[1]))
	r := float64((b[1] - a[1]) * (c[0] - a[0]))
	det := l - r
	bound := orientErr * (math.Abs(l) + math.Abs(r))
	switch {
	case det > bound:
		return 1
	case det < -bound:
		return -1
	}
	return orientExact(a, b, c)
}

// orientErr bounds the relative error of the float64 determinant in Orient
// (Shewchuk's ccwerrboundA).
const orientErr = (3 + 16*0x1p-53) * 0x1p-53

// orientExact returns the sign of (b−a) × (c−a) computed exactly as the sum
// of six products, each split into two float64s, added into a
// non-overlapping expansion (Shewchuk 1997) whose largest part has the sign
// of the sum.
func orientExact(a, b, c mgl64.Vec2) int {
	var t [12]float64
	prods := [6][2]float64{
		{b[0], c[1]}, {-b[0], a[1]}, {-a[0], c[1]},
		{-b[1], c[0]}, {a[0], b[1]}, {a[1], c[0]},
	}
	for i, p := range prods {
		x := float64(p[0] * p[1])
		t[2*i], t[2*i+1] = x, math.FMA(p[0], p[1], -x)
	}
	var e [12]float64
	n := 0
	for _, x := range t {
		q, k := x, 0
		for _, h := range e[:n] {
			s := q + h
			bv := s - q
			err := (q - (s - bv)) + (h - bv)
			if err != 0 {
				e[k] = err
				k++
			}
			q = s
		}
		if q != 0 {
			e[k] = q
			k++
		}
		n = k
	}
	switch {
	case n == 0:
		return 0
	case e[n-1] > 0:
		return 1
	}
	return -1
}

// InCircle returns +1 when d lies strictly inside the circle through the
// counter-clockwise triangle a, b, c (y up), −1 when outside and 0 on it,
// exactly. A float64 evaluation with an error bound settles almost every
// case; the rest are worked out in rational arithmetic.
func InCircle(a, b, c, d mgl64.Vec2) int {
	ax, ay := a[0]-d[0], a[1]-d[1]
	bx, by := b[0]-d[0], b[1]-d[1]
	cx, cy := c[0]-d[0], c[1]-d[1]
	la, lb, lc := ax*ax+ay*ay, bx*bx+by*by, cx*cx+cy*cy
	ab, ba := ax*by, bx*ay
	bc, cb := bx*cy, cx*by
	ca, ac := cx*ay, ax*cy
	det := la*(bc-cb) + lb*(ca-ac) + lc*(ab-ba)
	perm := la*(math.Abs(bc)+math.Abs(cb)) + lb*(math.Abs(ca)+math.Abs(ac)) + lc*(math.Abs(ab)+math.Abs(ba))
	// Shewchuk's bound for this evaluation is about 1.1e-15 times the
	// permanent; the margin covers the rounded differences.
	switch bound := 1e-14 * perm; {
	case det > bound:
		return 1
	case det < -bound:
		return -1
	}
	return inCircleExact(a, b, c, d)
}

// inCircleExact is InCircle in rational arithmetic.
func inCircleExact(a, b, c, d mgl64.Vec2) int {
	r := func(x float64) *big.Rat { return new(big.Rat).SetFloat64(x) }
	sub := func(x, y float64) *big.Rat { return new(big.Rat).Sub(r(x), r(y)) }
	mul := func(x, y *big.Rat) *big.Rat { return new(big.Rat).Mul(x, y) }
	add := func(x, y *big.Rat) *big.Rat { return new(big.Rat).Add(x, y) }
	ax, ay := sub(a[0], d[0]), sub(a[1], d[1])
	bx, by := sub(b[0], d[0]), sub(b[1], d[1])
	cx, cy := sub(c[0], d[0]), sub(c[1], d[1])
	la := add(mul(ax, ax), mul(ay, ay))
	lb := add(mul(bx, bx), mul(by, by))
	lc := add(mul(cx, cx), mul(cy, cy))
	det := mul(la, new(big.Rat).Sub(mul(bx, cy), mul(cx, by)))
	det.Add(det, mul(lb, new(big.Rat).Sub(mul(cx, ay), mul(ax, cy))))
	det.Add(det, mul(lc, new(big.Rat).Sub(mul(ax, by), mul(bx, ay))))
	return det.Sign()
}

// InTriangle reports whether p is in the closed triangle a, b, c, taken
// either way round.
func InTriangle(a, b, c, p mgl64.Vec2) bool {
	o1, o2, o3 := Orient(a, b, p), Orient(b, c, p), Orient(c, a, p)
	return (o1 >= 0 && o2 >= 0 && o3 >= 0) || (o1 <= 0 && o2 <= 0 && o3 <= 0)
}
