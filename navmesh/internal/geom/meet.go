package geom

import "github.com/go-gl/mathgl/mgl64"

// Meeting says how two segments meet.
type Meeting uint8

// Ways two segments meet.
const (
	MeetNone    Meeting = iota
	MeetCross           // at a single point inside both
	MeetTouch           // at a single point, an end of one or both
	MeetOverlap         // along a collinear piece of positive length
)

// Meet classifies how segments a–b and c–d meet, exactly, and where: at p,
// or along p–q for an overlap. The point of a proper crossing is rounded;
// the others are ends of the segments.
func Meet(a, b, c, d mgl64.Vec2) (kind Meeting, p, q mgl64.Vec2) {
	o1, o2 := Orient(c, d, a), Orient(c, d, b)
	o3, o4 := Orient(a, b, c), Orient(a, b, d)
	if o1*o2 > 0 || o3*o4 > 0 {
		return MeetNone, p, q
	}
	if o1 == 0 && o2 == 0 && o3 == 0 && o4 == 0 {
		// Collinear: compare positions along the line, by x unless the
		// line is vertical.
		ax := 0
		if a[0] == b[0] && c[0] == d[0] {
			ax = 1
		}
		lo1, hi1 := a, b
		if lo1[ax] > hi1[ax] {
			lo1, hi1 = hi1, lo1
		}
		lo2, hi2 := c, d
		if lo2[ax] > hi2[ax] {
			lo2, hi2 = hi2, lo2
		}
		lo, hi := lo1, hi1
		if lo2[ax] > lo[ax] {
			lo = lo2
		}
		if hi2[ax] < hi[ax] {
			hi = hi2
		}
		switch {
		case lo[ax] > hi[ax]:
			return MeetNone, p, q
		case lo[ax] == hi[ax]:
			return MeetTouch, lo, lo
		}
		return MeetOverlap, lo, hi
	}
	switch {
	case o1 == 0:
		return MeetTouch, a, a
	case o2 == 0:
		return MeetTouch, b, b
	case o3 == 0:
		return MeetTouch, c, c
	case o4 == 0:
		return MeetTouch, d, d
	}
	// A proper crossing; where, to rounding.
	e, f := b.Sub(a), d.Sub(c)
	t := (c.Sub(a)[0]*f[1] - c.Sub(a)[1]*f[0]) / (e[0]*f[1] - e[1]*f[0])
	return MeetCross, a.Add(e.Mul(t)), p
}

// SameSide reports whether a and c, on a line through b, are on the same
// side of b.
func SameSide(a, b, c mgl64.Vec2) bool {
	ax := 0
	if a[0] == b[0] {
		ax = 1
	}
	return (a[ax] < b[ax]) == (c[ax] < b[ax])
}
