package navmesh

import (
	"image"
	"testing"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
)

// TestBridges checks the bridges and numbering of grid meshes against
// brute force: an edge is a bridge exactly when the polygons either side of
// it are not joined once it is removed, and then the polygons still joined
// to the side the bridge leads down into are those numbered in its interval.
// A tiled mesh, built or updated, numbers the pieces of its tiles rather
// than its polygons and marks the edges that may be bridges
// (tileprune.go): the same must hold of those its tree says are bridges.
func TestBridges(t *testing.T) {
	type mesh struct {
		m     *Mesh
		tiled bool
	}
	var meshes []mesh
	for seed := int64(1); seed <= 12; seed++ {
		for _, g := range []*grid.Grid{
			testmap.Random(seed, 16+int(seed%5), 11+int(seed%4), 0.1+0.04*float64(seed%6), grid.Options{}),
			testmap.Maze(seed, 4+int(seed%4), 3+int(seed%3), 1+int(seed%3), int(seed%4)),
		} {
			m, err := FromGrid(g, Options{})
			if err != nil {
				t.Fatal(err)
			}
			meshes = append(meshes, mesh{m, false})
			size := []int{4, 5, 8}[seed%3]
			tm, err := FromGrid(g, Options{TileSize: size})
			if err != nil {
				t.Fatal(err)
			}
			meshes = append(meshes, mesh{tm, true})
			// Then a few edits of the same grid, updated in place.
			e := g // the meshes above keep their own copies of its cells
			r := testmap.NewRand(seed)
			for range 3 {
				rc := image.Rect(r.IntN(e.Width()), r.IntN(e.Height()), 0, 0)
				rc.Max = rc.Min.Add(image.Pt(1+r.IntN(3), 1+r.IntN(3)))
				e.SetCells(rc, r.IntN(2) == 0)
				if tm, err = tm.Update(e, rc); err != nil {
					t.Fatal(err)
				}
				meshes = append(meshes, mesh{tm, true})
			}
		}
	}
	bridges, tiledBridges := 0, 0
	var kinds [3]int // of the tiled meshes' bridges
	for k, mm := range meshes {
		m := mm.m
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
					if m.bridge[e] != bridgeNone {
						t.Fatalf("mesh %d: wall edge %d of polygon %d marked a bridge", k, i, id)
					}
					continue
				}
				side := reach(nb, e, m.polys[nb].e0+m.etwin[e])
				lo, hi, down, ok := m.bridgeSide(PolyID(id), e)
				marked := m.bridge[e] != bridgeNone && ok
				if bridge := !side[id]; marked != bridge {
					t.Fatalf("mesh %d (tiled %v): edge %d of polygon %d to %d: marked a bridge %v, but a bridge %v", k, mm.tiled, i, id, nb, marked, bridge)
				}
				if m.bridge[e] != m.bridge[m.polys[nb].e0+m.etwin[e]] {
					t.Fatalf("mesh %d: edge %d of polygon %d to %d is marked one way only", k, i, id, nb)
				}
				if !marked {
					continue
				}
				bridges++
				if mm.tiled {
					tiledBridges++
					kinds[m.bridge[e]]++
				}
				if !down {
					continue // the bridge leads up from id; its twin is checked from nb
				}
				for q := range m.polys {
					n := m.number(PolyID(q), m.bridge[e])
					if in := lo <= n && n <= hi; in != side[q] {
						t.Fatalf("mesh %d (tiled %v): bridge from %d to %d, down into %d's side %v: polygon %d numbered %d in [%d, %d] %v, beyond the bridge %v",
							k, mm.tiled, id, nb, nb, down, q, n, lo, hi, in, side[q])
					}
				}
			}
		}
	}
	if bridges == 0 || kinds[bridgePocket] == 0 || kinds[bridgeMaybe] == 0 {
		t.Fatalf("%d bridges, %d pockets and %d others of tiled meshes: want some of each", bridges, kinds[bridgePocket], kinds[bridgeMaybe])
	}
	t.Logf("%d meshes, %d bridge edges, %d in tiled meshes (%d in pockets)", len(meshes), bridges, tiledBridges, kinds[bridgePocket])
}
