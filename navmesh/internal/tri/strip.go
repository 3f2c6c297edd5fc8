package tri

import (
	"math"
	"slices"

	"github.com/cairn-nav/cairn/navmesh/internal/geom"
	"github.com/go-gl/mathgl/mgl64"
)

// stripRect appends the triangles of an axis-aligned rectangle to dst: vs
// are its corners and the points along its sides, counter-clockwise (y up).
// It zig-zags between the two chains of sides from one corner to the
// opposite one, at each step taking the shorter of the two diagonals that
// it may, so the strip is already close to Delaunay and the flips after it
// are few. No triangle is flat: a chain's next point is never on the line
// of the other chain's current side but at the two shared corners, where
// the first and last triangles are taken as a pair of perpendicular sides
// allows. It costs O(k) for k points, where cutting ears from the convex
// polygon cost O(k²) and left a fan that O(k²) flips had to undo.
func stripRect(pos []mgl64.Vec2, vs []int32, dst [][3]int32) [][3]int32 {
	k := len(vs)
	lo, hi := pos[vs[0]], pos[vs[0]]
	for _, v := range vs {
		lo = mgl64.Vec2{math.Min(lo[0], pos[v][0]), math.Min(lo[1], pos[v][1])}
		hi = mgl64.Vec2{math.Max(hi[0], pos[v][0]), math.Max(hi[1], pos[v][1])}
	}
	s, e := slices.IndexFunc(vs, func(v int32) bool { return pos[v] == lo }), slices.IndexFunc(vs, func(v int32) bool { return pos[v] == hi })
	if s < 0 || e < 0 {
		panic("tri: a rectangle without its corners") // cannot happen
	}
	// Two chains from corner lo to corner hi: forward and backward in vs.
	n1, n2 := (e-s+k)%k+1, (s-e+k)%k+1
	c1 := func(i int) int32 { return vs[(s+i)%k] }
	c2 := func(j int) int32 { return vs[(s-j+k)%k] }
	tri := func(a, b, c int32) [3]int32 {
		switch o := geom.Orient(pos[a], pos[b], pos[c]); {
		case o > 0:
			return [3]int32{a, b, c}
		case o < 0:
			return [3]int32{a, c, b}
		}
		panic("tri: a flat triangle in a rectangle") // cannot happen
	}
	dst = append(dst, tri(c1(0), c1(1), c2(1)))
	i, j := 1, 1
	for i < n1-2 || j < n2-2 {
		// Neither chain may reach hi before the other is one short of it.
		p := i < n1-2
		if p && j < n2-2 {
			p = geom.Dist(pos[c1(i+1)], pos[c2(j)]) <= geom.Dist(pos[c1(i)], pos[c2(j+1)])
		}
		if p {
			dst = append(dst, tri(c1(i), c1(i+1), c2(j)))
			i++
		} else {
			dst = append(dst, tri(c1(i), c2(j), c2(j+1)))
			j++
		}
	}
	return append(dst, tri(c1(i), c2(j), c1(n1-1)))
}
