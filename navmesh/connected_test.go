package navmesh_test

import (
	"fmt"
	"testing"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/navmesh"
	"gonum.org/v1/gonum/graph/simple"
	"gonum.org/v1/gonum/graph/topo"
)

// TestConnectedOracle checks Mesh.Connected against gonum's connected
// components of the graph of polygons and their neighbours, on random
// grids meshed whole and in tiles, and on tiled meshes after random edits
// (Update).
func TestConnectedOracle(t *testing.T) {
	for seed := int64(1); seed <= 8; seed++ {
		w, h := 30+int(seed%4), 24+int(seed%3)
		g := copyGrid(t, testmap.Random(seed, w, h, 0.1+0.05*float64(seed%4), grid.Options{}))
		whole, err := navmesh.FromGrid(g, navmesh.Options{})
		if err != nil {
			t.Fatal(err)
		}
		checkConnected(t, whole, fmt.Sprintf("seed %d, whole", seed))
		size := []int{4, 7, 16}[seed%3]
		m := tiledMesh(t, g, size)
		r := testmap.NewRand(seed)
		for step := range 12 {
			rc, free := randomEdit(r, w, h, size)
			g.SetCells(rc, free)
			if m, err = m.Update(g, rc); err != nil {
				t.Fatal(err)
			}
			checkConnected(t, m, fmt.Sprintf("seed %d, tiles of %d, step %d", seed, size, step))
		}
	}
}

// checkConnected compares m.Connected for every pair of polygons with
// gonum's components of the neighbour graph.
func checkConnected(t *testing.T, m *navmesh.Mesh, where string) {
	t.Helper()
	gr := simple.NewUndirectedGraph()
	n := m.NumPolys()
	for id := range n {
		gr.AddNode(simple.Node(id))
	}
	var nbs []navmesh.Neighbor
	for id := range n {
		nbs = m.AppendNeighbors(nbs[:0], navmesh.PolyID(id))
		for _, nb := range nbs {
			if int(nb.Poly) > id {
				gr.SetEdge(simple.Edge{F: simple.Node(id), T: simple.Node(nb.Poly)})
			}
		}
	}
	comp := make([]int, n)
	for c, cc := range topo.ConnectedComponents(gr) {
		for _, v := range cc {
			comp[v.ID()] = c
		}
	}
	for a := range n {
		for b := range n {
			if got, want := m.Connected(navmesh.PolyID(a), navmesh.PolyID(b)), comp[a] == comp[b]; got != want {
				t.Fatalf("%s: Connected(%d, %d) = %v, gonum's components say %v", where, a, b, got, want)
			}
		}
	}
}
