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
	var e [12]float64
	x := expand(e[:0], [][2]float64{
		{b[0], c[1]}, {-b[0], a[1]}, {-a[0], c[1]},
		{-b[1], c[0]}, {a[0], b[1]}, {a[1], c[0]},
	})
	switch {
	case len(x) == 0:
		return 0
	case x[len(x)-1] > 0:
		return 1
	}
	return -1
}

// expand appends to e, which is empty, the sum of the products prods as a
// non-overlapping expansion (Shewchuk 1997): each product split exactly
// into two float64s, the parts added in, zeros dropped, the largest last.
// e needs room for two parts per product.
func expand(e []float64, prods [][2]float64) []float64 {
	for _, p := range prods {
		x := float64(p[0] * p[1])
		for _, y := range [2]float64{x, math.FMA(p[0], p[1], -x)} {
			q, k := y, 0
			for _, h := range e {
				s := q + h
				bv := s - q
				err := (q - (s - bv)) + (h - bv)
				if err != 0 {
					e[k] = err
					k++
				}
				q = s
			}
			e = e[:k]
			if q != 0 {
				e = append(e, q)
			}
		}
	}
	return e
}

// Cross returns (b−a) × (d−c), the cross product of the vectors from a to
// b and from c to d (Orient(a, b, c) is the sign of Cross(a, b, a, c)),
// with a relative error below 2⁻⁴⁰ when no product of two coordinates
// overflows or underflows: a float64 evaluation when its error bound
// allows, else the rounded sum of the exact expansion.
func Cross(a, b, c, d mgl64.Vec2) float64 {
	l := float64((b[0] - a[0]) * (d[1] - c[1]))
	r := float64((b[1] - a[1]) * (d[0] - c[0]))
	det := l - r
	if math.Abs(det) > 0x1p40*orientErr*(math.Abs(l)+math.Abs(r)) {
		return det
	}
	var e [16]float64
	x := expand(e[:0], [][2]float64{
		{b[0], d[1]}, {-b[0], c[1]}, {-a[0], d[1]}, {a[0], c[1]},
		{-b[1], d[0]}, {b[1], c[0]}, {a[1], d[0]}, {-a[1], c[0]},
	})
	// Summed from the smallest part up, the non-overlapping parts round
	// to within a few ulps of their sum.
	sum := 0.0
	for _, v := range x {
		sum += v
	}
	return sum
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
