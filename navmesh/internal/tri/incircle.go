package tri

import (
	"math"

	"github.com/cairn-nav/cairn/navmesh/internal/geom"
	"github.com/go-gl/mathgl/mgl64"
)

// This file is Shewchuk's adaptive in-circle test ("Adaptive precision
// floating-point arithmetic and fast robust geometric predicates", 1997,
// stages A to C of incircleadapt), ahead of [geom.InCircle]: the Delaunay
// triangulation of points nearly on one circle (a regular polygon, an arc
// of a game world's round room) asks many questions that geom.InCircle's
// float filter cannot settle (a tenth of them on a 100,000-gon, nearly
// all on a few far-apart points), and its exact fallback, in
// rational arithmetic, costs 50 to 90 µs and some 300 allocations there.
// Stage B, about 0.5 µs without allocating, is the exact determinant of
// the rounded differences, as a floating-point expansion, which is the
// answer itself when the differences were exact (always so for points on
// an integer lattice, or near each other); stage C, about 1 µs in all,
// corrects it for the rounding of the differences to first order. Only
// what stage C leaves (a few in a thousand tests of points of one circle
// far apart), and input whose products could overflow or underflow, goes
// on to geom.InCircle.

const (
	eps          = 0x1p-53
	resultErr    = (3 + 8*eps) * eps
	inCircleErrA = (10 + 96*eps) * eps
	inCircleErrB = (4 + 48*eps) * eps
	inCircleErrC = (44 + 576*eps) * eps * eps
)

// inCircle returns the sign of geom.InCircle(a, b, c, d): +1 when d is
// strictly inside the circle through the counter-clockwise triangle a, b,
// c (y up), −1 outside, 0 on it, exactly.
func inCircle(a, b, c, d mgl64.Vec2) int {
	adx, ady := a[0]-d[0], a[1]-d[1]
	bdx, bdy := b[0]-d[0], b[1]-d[1]
	cdx, cdy := c[0]-d[0], c[1]-d[1]
	bdxcdy, cdxbdy := bdx*cdy, cdx*bdy
	cdxady, adxcdy := cdx*ady, adx*cdy
	adxbdy, bdxady := adx*bdy, bdx*ady
	alift, blift, clift := adx*adx+ady*ady, bdx*bdx+bdy*bdy, cdx*cdx+cdy*cdy
	det := alift*(bdxcdy-cdxbdy) + blift*(cdxady-adxcdy) + clift*(adxbdy-bdxady)
	perm := (math.Abs(bdxcdy)+math.Abs(cdxbdy))*alift + (math.Abs(cdxady)+math.Abs(adxcdy))*blift + (math.Abs(adxbdy)+math.Abs(bdxady))*clift
	// Stage A: the float determinant, with Shewchuk's bound on its
	// rounding error, which holds when no product overflows, and 2⁻⁷⁶⁰
	// for what products that underflow lose: with each lift at most
	// 2³⁰⁰, no product exceeds 2⁶⁰⁰, and each loss, below 2⁻¹⁰⁷⁴, is
	// multiplied by at most 2³⁰⁰.
	if max(alift, blift, clift) <= 0x1p300 {
		switch bound := inCircleErrA*perm + 0x1p-760; {
		case det > bound:
			return 1
		case det < -bound:
			return -1
		}
	}
	// The expansions below are exact, and stage C's bound holds, only
	// when no product overflows or underflows: with every coordinate and
	// difference 0 or of a magnitude in [2⁻¹⁵⁰, 2¹⁵⁰], the smallest part
	// of a product of four is above 2⁻⁸⁰⁰, and the largest below 2⁶⁰².
	for _, x := range [...]float64{a[0], a[1], b[0], b[1], c[0], c[1], d[0], d[1], adx, ady, bdx, bdy, cdx, cdy} {
		if m := math.Abs(x); m != 0 && !(m >= 0x1p-150 && m <= 0x1p150) {
			return geom.InCircle(a, b, c, d)
		}
	}
	// Stage B: the exact determinant of the rounded differences.
	var bc, ca, ab [4]float64
	twoTwoDiff(bdx, cdy, cdx, bdy, &bc)
	twoTwoDiff(cdx, ady, adx, cdy, &ca)
	twoTwoDiff(adx, bdy, bdx, ady, &ab)
	var adet, bdet, cdet [32]float64
	var abdet [64]float64
	var fin [96]float64
	alen := lift(bc[:], adx, ady, adet[:])
	blen := lift(ca[:], bdx, bdy, bdet[:])
	clen := lift(ab[:], cdx, cdy, cdet[:])
	ablen := sumExp(adet[:alen], bdet[:blen], abdet[:])
	flen := sumExp(abdet[:ablen], cdet[:clen], fin[:])
	det = 0
	for _, x := range fin[:flen] {
		det += x
	}
	if bound := inCircleErrB * perm; det >= bound || -det >= bound {
		return sign(det)
	}
	adxt, adyt := diffTail(a[0], d[0], adx), diffTail(a[1], d[1], ady)
	bdxt, bdyt := diffTail(b[0], d[0], bdx), diffTail(b[1], d[1], bdy)
	cdxt, cdyt := diffTail(c[0], d[0], cdx), diffTail(c[1], d[1], cdy)
	if adxt == 0 && adyt == 0 && bdxt == 0 && bdyt == 0 && cdxt == 0 && cdyt == 0 {
		return sign(fin[flen-1]) // exact; the largest part has the sign
	}
	// Stage C: the first-order correction for the differences' rounding.
	bound := inCircleErrC*perm + resultErr*math.Abs(det)
	det += ((adx*adx+ady*ady)*((bdx*cdyt+cdy*bdxt)-(bdy*cdxt+cdx*bdyt)) +
		2*(adx*adxt+ady*adyt)*(bdx*cdy-bdy*cdx)) +
		((bdx*bdx+bdy*bdy)*((cdx*adyt+ady*cdxt)-(cdy*adxt+adx*cdyt)) +
			2*(bdx*bdxt+bdy*bdyt)*(cdx*ady-cdy*adx)) +
		((cdx*cdx+cdy*cdy)*((adx*bdyt+bdy*adxt)-(ady*bdxt+bdx*adyt)) +
			2*(cdx*cdxt+cdy*cdyt)*(adx*bdy-ady*bdx))
	if det >= bound || -det >= bound {
		return sign(det)
	}
	return geom.InCircle(a, b, c, d)
}

func sign(x float64) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// lift sets out to the expansion (x² + y²)·e, for the 4-part expansion
// e, and returns its length (at most 32).
func lift(e []float64, x, y float64, out []float64) int {
	var ex, exx, ey, eyy [16]float64
	n := scaleExp(e, x, ex[:])
	n = scaleExp(ex[:n], x, exx[:])
	m := scaleExp(e, y, ey[:])
	m = scaleExp(ey[:m], y, eyy[:])
	return sumExp(exx[:n], eyy[:m], out)
}

// twoSum returns a+b as x and its rounding error y, exactly x + y.
func twoSum(a, b float64) (x, y float64) {
	x = a + b
	bv := x - a
	av := x - bv
	return x, (a - av) + (b - bv)
}

// diffTail returns the rounding error of x = a − b: a − b − x exactly.
func diffTail(a, b, x float64) float64 {
	bv := a - x
	av := x + bv
	return (a - av) + (bv - b)
}

// twoTwoDiff sets out to the expansion a·b − c·d, exactly, smallest part
// first (Shewchuk's Two_Two_Diff of two Two_Products).
func twoTwoDiff(a, b, c, d float64, out *[4]float64) {
	p1 := a * b
	p0 := math.FMA(a, b, -p1)
	q1 := c * d
	q0 := math.FMA(c, d, -q1)
	// (p1 + p0) − (q1 + q0), as Two_Two_Diff does it.
	i, x0 := twoSum(p0, -q0)
	j, r0 := twoSum(p1, i)
	i, x1 := twoSum(r0, -q1)
	x3, x2 := twoSum(j, i)
	*out = [4]float64{x0, x1, x2, x3}
}

// scaleExp sets out to the expansion e·b, exactly, dropping zero parts,
// and returns its length (at most 2·len(e)); e is non-overlapping,
// smallest part first, and so is out (Shewchuk's
// scale_expansion_zeroelim).
func scaleExp(e []float64, b float64, out []float64) int {
	n := 0
	q := e[0] * b
	h := math.FMA(e[0], b, -q)
	if h != 0 {
		out[n] = h
		n++
	}
	for _, x := range e[1:] {
		p1 := x * b
		p0 := math.FMA(x, b, -p1)
		sum, h := twoSum(q, p0)
		if h != 0 {
			out[n] = h
			n++
		}
		q, h = twoSum(p1, sum) // |p1| ≥ |sum|: Fast_Two_Sum would do
		if h != 0 {
			out[n] = h
			n++
		}
	}
	if q != 0 || n == 0 {
		out[n] = q
		n++
	}
	return n
}

// sumExp sets out to the expansion e + f, exactly, dropping zero parts,
// and returns its length (at most len(e) + len(f)); both are
// non-overlapping, smallest part first, and so is out (Shewchuk's
// fast_expansion_sum_zeroelim, with Two_Sum throughout).
func sumExp(e, f, out []float64) int {
	i, j := 0, 0
	next := func() float64 {
		if j >= len(f) || (i < len(e) && math.Abs(e[i]) < math.Abs(f[j])) {
			i++
			return e[i-1]
		}
		j++
		return f[j-1]
	}
	q := next()
	n := 0
	for i < len(e) || j < len(f) {
		var h float64
		q, h = twoSum(q, next())
		if h != 0 {
			out[n] = h
			n++
		}
	}
	if q != 0 || n == 0 {
		out[n] = q
		n++
	}
	return n
}
