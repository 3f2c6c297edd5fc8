package navmesh

import (
	"cmp"
	"slices"

	"github.com/go-gl/mathgl/mgl64"
)

// faces are convex polygons, counter-clockwise (y up): polygon i has the
// vertices verts[start[i]:start[i+1]], and nb[j] is the polygon across the
// edge from verts[j] to the next vertex of its polygon, or −1 for a wall.
type faces struct {
	start []int32
	verts []int32
	nb    []PolyID
}

// mergeConvex joins counter-clockwise triangles (vertex ids into pos) into
// convex polygons by Hertel and Mehlhorn's method: every edge two pieces
// share is dropped when the union of the two is still convex (an angle of
// exactly 180° is kept as a vertex). Every diagonal left is essential (its
// removal would make a reflex angle at one of its ends), and each reflex
// vertex has at most two essential diagonals, so a polygon with r reflex
// vertices and h holes ends in at most 2r−h+1 pieces, where any convex
// partition without new vertices needs at least ⌈r/2⌉−h+1: at most four
// times the optimum without holes, less tight with them. Diagonals are
// tried in the order of their end points; trying the longest first was
// measured and made no difference. The triangles are held as half-edges,
// so each removal costs O(1), and the whole O(t log t) for t triangles,
// for sorting the edges into twins.
func mergeConvex(pos []mgl64.Vec2, tris [][3]int32) faces {
	n := int32(3 * len(tris))
	org := make([]int32, n)
	next := make([]int32, n)
	prev := make([]int32, n)
	twin := make([]int32, n)
	for t, tr := range tris {
		for k := range int32(3) {
			h := 3*int32(t) + k
			org[h] = tr[k]
			next[h] = 3*int32(t) + (k+1)%3
			prev[h] = 3*int32(t) + (k+2)%3
		}
	}
	// Twins by sorting the half-edges on their end points, either way
	// round: a shared edge sorts its two halves together.
	type half struct {
		key uint64
		h   int32
	}
	halves := make([]half, n)
	for h := range n {
		a, b := uint64(uint32(org[h])), uint64(uint32(org[next[h]]))
		halves[h] = half{min(a, b)<<32 | max(a, b), h}
		twin[h] = -1
	}
	slices.SortFunc(halves, func(x, y half) int { return cmp.Compare(x.key, y.key) })
	var diags []int32
	for i := 1; i < len(halves); i++ {
		if x, y := halves[i-1], halves[i]; x.key == y.key {
			twin[x.h], twin[y.h] = y.h, x.h
			diags = append(diags, min(x.h, y.h))
		}
	}
	dead := make([]bool, n)
	for _, e := range diags {
		t := twin[e]
		a, b := org[e], org[t]
		// Round a: in along e's predecessor, out along t's successor;
		// round b: in along t's predecessor, out along e's successor.
		if orient(pos[org[prev[e]]], pos[a], pos[org[next[next[t]]]]) < 0 ||
			orient(pos[org[prev[t]]], pos[b], pos[org[next[next[e]]]]) < 0 {
			continue
		}
		ep, en, tp, tn := prev[e], next[e], prev[t], next[t]
		next[ep], prev[tn] = tn, ep
		next[tp], prev[en] = en, tp
		dead[e], dead[t] = true, true
	}
	face := make([]PolyID, n)
	for h := range face {
		face[h] = -1
	}
	var f faces
	var hs []int32 // per face vertex: its half-edge
	for h := range n {
		if dead[h] || face[h] >= 0 {
			continue
		}
		id := PolyID(len(f.start))
		f.start = append(f.start, int32(len(f.verts)))
		for g := h; face[g] < 0; g = next[g] {
			face[g] = id
			f.verts = append(f.verts, org[g])
			hs = append(hs, g)
		}
	}
	f.start = append(f.start, int32(len(f.verts)))
	f.nb = make([]PolyID, len(hs))
	for j, h := range hs {
		f.nb[j] = -1
		if t := twin[h]; t >= 0 {
			f.nb[j] = face[t]
		}
	}
	return f
}
