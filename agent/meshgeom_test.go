package agent

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// TestNearConvexEdges checks that a point on an edge or a corner of a
// polygon, or within rounding of one, is near it, and one well outside is
// not (navmesh's TestContainsEdges checks the exact test on the same
// points).
func TestNearConvexEdges(t *testing.T) {
	// A triangle with a slanting side, in the navmesh's order.
	vs := []mgl64.Vec2{{0, 0}, {0, 3}, {7, 0}}
	for _, tc := range []struct {
		q    mgl64.Vec2
		near bool
	}{
		{mgl64.Vec2{1, 1}, true},
		{mgl64.Vec2{0, 0}, true},
		{mgl64.Vec2{3.5, 1.5}, true}, // on the slanting side
		{mgl64.Vec2{3.5, math.Nextafter(1.5, 2)}, true},
		{mgl64.Vec2{0, 1}, true},
		{mgl64.Vec2{-1e-300, 1}, true},
		{mgl64.Vec2{-1e-6, 1}, false},
	} {
		if got := nearConvex(vs, tc.q); got != tc.near {
			t.Errorf("nearConvex(%v) = %v, want %v", tc.q, got, tc.near)
		}
	}
}
