package navmesh

import "github.com/go-gl/mathgl/mgl64"

// delaunayInt flips the edges the triangles tris share until every one is
// locally Delaunay: no triangle's circumcircle strictly holds the far
// corner of its neighbour across a shared edge. The walls, the edges no
// two triangles share, stay, so the result is the constrained Delaunay
// triangulation of the same polygon (Lawson's flip algorithm). Ear
// clipping leaves long thin triangles, which the convex merge turns into
// many small polygons; Delaunay triangles are as round as the walls allow,
// and merge into fewer, larger ones. The triangles are counter-clockwise
// (y up) and their corners must have integer coordinates of magnitude below
// 2²⁰, so the tests, in int64, are exact: points on one circle (all four
// corners of a cell, say) are left as they are. A flip happens only when
// the two triangles make a strictly convex quadrilateral, so two vertices
// at one position never meet in a triangle. It takes O(t) flips on typical
// input and O(t²) at worst, for t triangles. adj pairs the triangles'
// edges, as [triangleNeighbors] does, and is kept up to date.
func delaunayInt(pos []mgl64.Vec2, tris [][3]int32, adj []int32) {
	stack := make([]int32, 0, 3*len(tris))
	for h := range int32(3 * len(tris)) {
		if adj[h] >= 0 {
			stack = append(stack, h)
		}
	}
	type ipt struct{ x, y int64 }
	at := func(v int32) ipt { return ipt{int64(pos[v][0]), int64(pos[v][1])} }
	orient := func(a, b, c ipt) int64 { return (b.x-a.x)*(c.y-a.y) - (b.y-a.y)*(c.x-a.x) }
	// inCircle is positive when d is strictly inside the circle through
	// the counter-clockwise triangle a, b, c.
	inCircle := func(a, b, c, d ipt) int64 {
		ax, ay := a.x-d.x, a.y-d.y
		bx, by := b.x-d.x, b.y-d.y
		cx, cy := c.x-d.x, c.y-d.y
		return (ax*ax+ay*ay)*(bx*cy-cx*by) - (bx*bx+by*by)*(ax*cy-cx*ay) + (cx*cx+cy*cy)*(ax*by-bx*ay)
	}
	for len(stack) > 0 {
		h := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		g := adj[h]
		if g < 0 {
			continue
		}
		t, k := h/3, h%3
		u, j := g/3, g%3
		a, b, c := tris[t][k], tris[t][(k+1)%3], tris[t][(k+2)%3]
		d := tris[u][(j+2)%3]
		pa, pb, pc, pd := at(a), at(b), at(c), at(d)
		if inCircle(pa, pb, pc, pd) <= 0 || orient(pa, pd, pc) <= 0 || orient(pd, pb, pc) <= 0 {
			continue
		}
		// t = (a, b, c) and u = (b, a, d) become t = (a, d, c) and
		// u = (d, b, c), with the diagonal c–d between them.
		nbc, nca := adj[3*t+(k+1)%3], adj[3*t+(k+2)%3]
		nad, ndb := adj[3*u+(j+1)%3], adj[3*u+(j+2)%3]
		tris[t] = [3]int32{a, d, c}
		tris[u] = [3]int32{d, b, c}
		link := func(h, g int32) {
			adj[h] = g
			if g >= 0 {
				adj[g] = h
			}
		}
		link(3*t, nad)
		link(3*t+1, 3*u+2)
		link(3*t+2, nca)
		link(3*u, ndb)
		link(3*u+1, nbc)
		stack = append(stack, 3*t, 3*t+2, 3*u, 3*u+1)
	}
}
