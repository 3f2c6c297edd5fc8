// Package geom is the exact geometry kernel of package navmesh: the
// orientation and in-circle predicates, exact for every input whose
// products of two coordinates neither overflow nor underflow, a cross
// product of two vectors accurate to 2⁻⁴⁰ however nearly parallel they
// are, the exact classification of how two segments meet, and the
// bounding boxes and distances that their users share.
//
// Points are [mgl64.Vec2]. The predicates speak of the textbook y-up plane:
// a counter-clockwise turn is a left turn there. (On screen, with y down,
// left and right swap; package navmesh documents its own order.)
package geom

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// Dist returns the distance between a and b, in float64. (mgl64's Len
// uses math.Hypot, which guards against overflow at several times the
// cost.)
func Dist(a, b mgl64.Vec2) float64 {
	dx, dy := a[0]-b[0], a[1]-b[1]
	return math.Sqrt(dx*dx + dy*dy)
}

// Box is a closed bounding box.
type Box struct{ Min, Max mgl64.Vec2 }

// Mag returns the largest magnitude of a coordinate in b.
func (b Box) Mag() float64 {
	return math.Max(math.Max(math.Abs(b.Min[0]), math.Abs(b.Max[0])), math.Max(math.Abs(b.Min[1]), math.Abs(b.Max[1])))
}

// Grow returns the least box that holds b and p.
func (b Box) Grow(p mgl64.Vec2) Box {
	return Box{mgl64.Vec2{math.Min(b.Min[0], p[0]), math.Min(b.Min[1], p[1])},
		mgl64.Vec2{math.Max(b.Max[0], p[0]), math.Max(b.Max[1], p[1])}}
}

// Holds reports whether p is in b; a NaN coordinate is in no box.
func (b Box) Holds(p mgl64.Vec2) bool {
	return p[0] >= b.Min[0] && p[0] <= b.Max[0] && p[1] >= b.Min[1] && p[1] <= b.Max[1]
}
