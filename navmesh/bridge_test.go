package navmesh

import (
	"testing"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
)

// TestBridges checks the bridges and numbering of grid meshes against
// brute force: an edge is a bridge exactly when the polygons either side of
// it are not joined once it is removed, and then the polygons still joined
// to the side the bridge leads down into are those numbered in its interval.
func TestBridges(t *testing.T) {
	var meshes []*Mesh
	for seed := int64(1); seed <= 12; seed++ {
		for _, g := range []*grid.Grid{
			testmap.Random(seed, 16+int(seed%5), 11+int(seed%4), 0.1+0.04*float64(seed%6), grid.Options{}),
			testmap.Maze(seed, 4+int(seed%4), 3+int(seed%3), 1+int(seed%3), int(seed%4)),
		} {
			m, err := FromGrid(g, Options{})
			if err != nil {
				t.Fatal(err)
			}
			meshes = append(meshes, m)
		}
	}
	bridges := 0
	for k, m := range meshes {
		// reach marks the polygons joined to from without crossing the
		// portal whose two edges are e1 and e2.
		reach := func(from PolyID, e1, e2 int32) []bool {
			seen := make([]bool, len(m.polys))
			seen[from] = true
			stack := []PolyID{from}
			for len(stack) > 0 {
				q := m.polys[stack[len(stack)-1]]
				stack = stack[:len(stack)-1]
				for e := q.e0; e < q.e0+q.ne; e++ {
					if nb := m.enb[e]; nb >= 0 && !seen[nb] && e != e1 && e != e2 {
						seen[nb] = true
						stack = append(stack, nb)
					}
				}
			}
			return seen
		}
		for id, p := range m.polys {
			for i := range p.ne {
				e := p.e0 + i
				nb := m.enb[e]
				if nb < 0 {
					if m.bridge[e] {
						t.Fatalf("mesh %d: wall edge %d of polygon %d marked a bridge", k, i, id)
					}
					continue
				}
				side := reach(nb, e, m.polys[nb].e0+m.etwin[e])
				if side[id] == m.bridge[e] {
					t.Fatalf("mesh %d: edge %d of polygon %d to %d: bridge %v, but joined without it %v", k, i, id, nb, m.bridge[e], side[id])
				}
				if !m.bridge[e] {
					continue
				}
				bridges++
				if m.pre[nb] < m.pre[PolyID(id)] {
					continue // the bridge leads up from id; its twin is checked from nb
				}
				for q := range m.polys {
					in := m.pre[nb] <= m.pre[q] && m.pre[q] <= m.end[nb]
					if in != side[q] {
						t.Fatalf("mesh %d: bridge from %d down to %d: polygon %d in interval [%d, %d] %v, beyond the bridge %v",
							k, id, nb, q, m.pre[nb], m.end[nb], in, side[q])
					}
				}
			}
		}
	}
	if bridges == 0 {
		t.Fatal("no bridges in any mesh")
	}
	t.Logf("%d meshes, %d bridge edges", len(meshes), bridges)
}
