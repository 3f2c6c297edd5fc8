package tri

import (
	"testing"

	"github.com/cairn-nav/cairn/navmesh/internal/geom"
	"github.com/go-gl/mathgl/mgl64"
)

// TestFillAntenna fills a pseudo-polygon with an edge sticking into it,
// as forcing in a segment that crosses every triangle round a vertex
// leaves one (the segment ran from a to e below T):
//
//	L(0,4)              R(10,4)
//	  │     V(5,3)────┐   │
//	  │       ╲    T(9,2.5)
//	  │                   │
//	a(0,0) ─────────── e(10,0)
//
// V comes twice in the polygon, before and after the edge to T; the
// triangle on a–e has its corner at V on the far side of that edge, at
// V's second place, and taking the first cuts a triangle the wrong way
// round. The triangles must be counter-clockwise, cover the polygon, and
// be linked to the outside and, across V–T, to each other.
func TestFillAntenna(t *testing.T) {
	pos := []mgl64.Vec2{{10, 0}, {10, 4}, {5, 3}, {9, 2.5}, {0, 4}, {0, 0}}
	const e, r, v, tip, l, a = 0, 1, 2, 3, 4, 5
	poly := []int32{e, r, v, tip, v, l, a} // counter-clockwise, closed by a→e
	const n = 5                            // triangles
	d := &cdt{pos: pos, nv: int32(len(pos))}
	d.tris = make([][3]int32, n+len(poly)-1) // then one outside each edge
	d.adj = make([]int32, 3*len(d.tris))
	d.fix = make([]int8, len(d.adj))
	d.vt = make([]int32, len(pos)+1)
	for i := range d.adj {
		d.adj[i] = -1
	}
	var sides []polySide
	for i := range len(poly) - 1 {
		g := int32(3 * (n + i)) // the outside half-edge, poly[i+1]→poly[i]
		d.tris[n+i] = [3]int32{poly[i+1], poly[i], -1}
		sides = append(sides, polySide{out: g})
	}
	sides[2].out, sides[3].out = -2-3, -2-2 // V→T and T→V: each other
	d.gone = []int32{0, 1, 2, 3, 4}
	top := d.fill(poly, sides, true, -1)
	if got := d.tris[top/3]; got[top%3] != a || got[(top%3+1)%3] != e {
		t.Fatalf("top half-edge %d is %v, want a→e", top, got)
	}
	twice := 0.0
	for k := range n {
		tr := d.tris[k]
		p, q, s := pos[tr[0]], pos[tr[1]], pos[tr[2]]
		if geom.Orient(p, q, s) <= 0 {
			t.Fatalf("triangle %v (%v %v %v) is flat or clockwise; all %v", tr, p, q, s, d.tris[:n])
		}
		twice += (q[0]-p[0])*(s[1]-p[1]) - (q[1]-p[1])*(s[0]-p[0])
	}
	// The polygon without its antenna: the rectangle e, (10,4), (0,4), a
	// but for the notch R, V, L.
	if want := 2 * (40 - 5.0); twice != want {
		t.Fatalf("twice the area %v, want %v", twice, want)
	}
	for h := range int32(3 * n) {
		g := d.adj[h]
		if g < 0 {
			if h != top {
				t.Fatalf("half-edge %d %v has no twin", h, d.tris[h/3])
			}
			continue
		}
		tr, u := d.tris[h/3], d.tris[g/3]
		if d.adj[g] != h || tr[h%3] != u[(g%3+1)%3] || tr[(h%3+1)%3] != u[g%3] {
			t.Fatalf("half-edge %d of %v: twin %d of %v is not it the other way", h, tr, g, u)
		}
	}
}
