package navmesh

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"github.com/go-gl/mathgl/mgl64"
)

// Components indexes the connected components of a mesh by area, for the
// helpers an agent layer needs on a mesh as on a grid: a component's
// area ([grid.Grid.RegionSize]), the largest component
// ([grid.Grid.LargestRegion]) and a random reachable point
// ([grid.Grid.RandomFree]). [NewComponents] builds it in O(polygons) and
// 16 bytes a polygon (on the 4096² demo world's tiled mesh, 0.69 M
// polygons, in some 50 ms); its queries are O(log P) for a component of P
// polygons and allocate nothing. It is immutable and safe for concurrent
// use; a mesh that [Mesh.Update] returns needs one of its own.
type Components struct {
	m *Mesh
	// The polygons by component, in ID order within each: component c's
	// are polys[start[c]:start[c+1]], and cum[i] is the area of
	// polys[start[c]:i+1].
	polys []PolyID
	cum   []float64
	start []int32
	comp  []int32 // per polygon, its component's index into start
	big   int32   // the component of largest area
}

// NewComponents indexes m's connected components.
func NewComponents(m *Mesh) *Components {
	n := len(m.polys)
	c := &Components{m: m, polys: make([]PolyID, n), cum: make([]float64, n), comp: make([]int32, n)}
	// Number the components densely, in the order of their first polygon
	// (the mesh numbers them, or its tiles' groups, sparsely).
	top := int32(-1)
	for p := range n {
		top = max(top, m.component(PolyID(p)))
	}
	dense := make([]int32, top+1)
	for i := range dense {
		dense[i] = -1
	}
	count := int32(0)
	for p := range n {
		k := m.component(PolyID(p))
		if dense[k] < 0 {
			dense[k] = count
			count++
		}
		c.comp[p] = dense[k]
	}
	c.start = make([]int32, count+1)
	for _, id := range c.comp {
		c.start[id+1]++
	}
	for i := 1; i < len(c.start); i++ {
		c.start[i] += c.start[i-1]
	}
	fill := slices.Clone(c.start[:count])
	for p, id := range c.comp {
		c.polys[fill[id]] = PolyID(p)
		fill[id]++
	}
	best := -1.0
	for id := range count {
		sum := 0.0
		for i := c.start[id]; i < c.start[id+1]; i++ {
			sum += m.polyArea(c.polys[i])
			c.cum[i] = sum
		}
		if sum > best {
			c.big, best = id, sum
		}
	}
	return c
}

// polyArea returns the area of polygon p, convex and counter-clockwise.
func (m *Mesh) polyArea(p PolyID) float64 {
	q := m.polys[p]
	vs := m.ev[q.e0 : q.e0+q.ne]
	a := 0.0
	for i := 2; i < len(vs); i++ {
		a += triArea(m.verts[vs[0]], m.verts[vs[i-1]], m.verts[vs[i]])
	}
	return a
}

// triArea returns the area of triangle abc.
func triArea(a, b, c mgl64.Vec2) float64 {
	return math.Abs((b[0]-a[0])*(c[1]-a[1])-(b[1]-a[1])*(c[0]-a[0])) / 2
}

// ok reports whether p is a polygon of the indexed mesh.
func (c *Components) ok(p PolyID) bool { return p >= 0 && int(p) < len(c.comp) }

// Area returns the area of the component that polygon p belongs to: the
// room an agent standing in p has to move in; 0 for a polygon not of the
// mesh.
func (c *Components) Area(p PolyID) float64 {
	if !c.ok(p) {
		return 0
	}
	return c.cum[c.start[c.comp[p]+1]-1]
}

// Count returns the number of connected components.
func (c *Components) Count() int { return len(c.start) - 1 }

// Largest returns a polygon of the component of largest area (the first
// in ID order among equals), and that area; false for a mesh without
// polygons.
func (c *Components) Largest() (PolyID, float64, bool) {
	if len(c.polys) == 0 {
		return 0, 0, false
	}
	return c.polys[c.start[c.big]], c.Area(c.polys[c.start[c.big]]), true
}

// RandomPoint returns a point drawn from r uniformly by area over the
// component of polygon from, and its polygon: a random place an agent in
// from can reach, to wander to or to spawn at. It returns false for a
// polygon not of the mesh.
func (c *Components) RandomPoint(r *rand.Rand, from PolyID) (PolyID, mgl64.Vec2, bool) {
	if !c.ok(from) {
		return 0, mgl64.Vec2{}, false
	}
	id := c.comp[from]
	lo, hi := int(c.start[id]), int(c.start[id+1])
	u := r.Float64() * c.cum[hi-1]
	// The first polygon whose running area passes u.
	i := lo + min(hi-lo-1, sort.Search(hi-lo, func(k int) bool { return c.cum[lo+k] > u }))
	p := c.polys[i]
	return p, c.m.randomIn(r, p), true
}

// randomIn returns a point drawn from r uniformly by area over polygon p:
// a triangle of its fan by area, then a point of the triangle.
func (m *Mesh) randomIn(r *rand.Rand, p PolyID) mgl64.Vec2 {
	q := m.polys[p]
	vs := m.ev[q.e0 : q.e0+q.ne]
	a := m.verts[vs[0]]
	u := r.Float64() * m.polyArea(p)
	k := 2
	for ; k < len(vs)-1; k++ {
		t := triArea(a, m.verts[vs[k-1]], m.verts[vs[k]])
		if u < t {
			break
		}
		u -= t
	}
	b, c := m.verts[vs[k-1]], m.verts[vs[k]]
	s, t := r.Float64(), r.Float64()
	if s+t > 1 { // fold the far half of the parallelogram back
		s, t = 1-s, 1-t
	}
	return a.Add(b.Sub(a).Mul(s)).Add(c.Sub(a).Mul(t))
}
