package hpa_test

import (
	"fmt"
	"image"
	"math"
	"slices"
	"testing"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
	"github.com/cairn-nav/cairn/internal/testmap"
)

// edgeCells returns, for each node of hg, the cells its edges at level lead
// to, sorted, keyed by the node's cell.
func edgeCells(hg *hpa.Graph, level int) map[image.Point][]image.Point {
	out := map[image.Point][]image.Point{}
	var buf []hpa.NodeID
	for n := range hpa.NodeID(hg.Stats().Nodes) {
		buf = hg.AppendEdges(buf[:0], n, level)
		var cells []image.Point
		for _, m := range buf {
			cells = append(cells, hg.NodeCell(m))
		}
		slices.SortFunc(cells, func(a, b image.Point) int {
			if a.Y != b.Y {
				return a.Y - b.Y
			}
			return a.X - b.X
		})
		out[hg.NodeCell(n)] = cells
	}
	return out
}

func TestAppendEdges(t *testing.T) {
	pt := image.Pt
	tests := []struct {
		name    string
		rows    []string
		cluster int
		want    map[image.Point][]image.Point // node cell → target cells
	}{
		{
			// Clusters 0 | 1 | 2 of 2×2 cells; each border has one
			// entrance of two pairs, with its transition on row 0.
			name: "three clusters",
			rows: []string{
				"......",
				"......",
			},
			cluster: 2,
			want: map[image.Point][]image.Point{
				pt(1, 0): {pt(2, 0)},
				pt(2, 0): {pt(1, 0), pt(3, 0)},
				pt(3, 0): {pt(2, 0), pt(4, 0)},
				pt(4, 0): {pt(3, 0)},
			},
		},
		{
			// A wall splits the middle cluster: its two nodes are not
			// joined inside it.
			name: "split cluster",
			rows: []string{
				"...#..",
				"...#..",
			},
			cluster: 2,
			want: map[image.Point][]image.Point{
				pt(1, 0): {pt(2, 0)},
				pt(2, 0): {pt(1, 0)},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := grid.FromRows(tc.rows, grid.Options{})
			if err != nil {
				t.Fatal(err)
			}
			hg, err := hpa.Build(g, hpa.Options{ClusterSize: tc.cluster, Levels: 1})
			if err != nil {
				t.Fatal(err)
			}
			got := edgeCells(hg, 1)
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("edges %v\nwant  %v\nmap:\n%s", got, tc.want, testmap.Render(g, nil))
			}
		})
	}
}

// TestAppendEdgesLevels checks the edges of every level of seeded random
// graphs against the level's counts, their symmetry and the nodes' levels.
func TestAppendEdgesLevels(t *testing.T) {
	for seed := int64(1); seed <= 3; seed++ {
		g := testmap.Random(seed, 96, 80, 0.25, grid.Options{})
		hg, err := hpa.Build(g, hpa.Options{ClusterSize: 6, Levels: 3})
		if err != nil {
			t.Fatal(err)
		}
		nodes := hpa.NodeID(hg.Stats().Nodes)
		for l := 1; l <= hg.Levels(); l++ {
			_, levelNodes, levelEdges := hg.LevelStats(l)
			count := map[[2]hpa.NodeID]int{} // directed edge → how many
			edges, withEdges := 0, 0
			for n := range nodes {
				// The targets follow what dst held.
				got := hg.AppendEdges([]hpa.NodeID{-1}, n, l)
				if got[0] != -1 {
					t.Fatalf("seed %d, level %d, node %d: dst's element overwritten", seed, l, n)
				}
				for _, m := range got[1:] {
					if m < 0 || m >= nodes || m == n {
						t.Fatalf("seed %d, level %d: node %d has an edge to %d", seed, l, n, m)
					}
					count[[2]hpa.NodeID{n, m}]++
				}
				edges += len(got) - 1
				if len(got) > 1 {
					withEdges++
				}
				if has, at := len(got) > 1, hg.NodeLevel(n) >= l; l > 1 && has != at {
					t.Errorf("seed %d, level %d: node %d has edges %v, but its level is %d", seed, l, n, has, hg.NodeLevel(n))
				}
			}
			if edges != levelEdges {
				t.Errorf("seed %d, level %d: %d edges, LevelStats says %d", seed, l, edges, levelEdges)
			}
			if l > 1 && withEdges != levelNodes {
				t.Errorf("seed %d, level %d: %d nodes with edges, LevelStats says %d", seed, l, withEdges, levelNodes)
			}
			for e, k := range count {
				if back := count[[2]hpa.NodeID{e[1], e[0]}]; back != k {
					t.Errorf("seed %d, level %d: %d edges %d→%d, %d back", seed, l, k, e[0], e[1], back)
				}
			}
		}
	}
}

func TestAppendEdgesPanics(t *testing.T) {
	g := testmap.Random(1, 32, 32, 0.2, grid.Options{})
	hg, err := hpa.Build(g, hpa.Options{ClusterSize: 8, Levels: 2})
	if err != nil {
		t.Fatal(err)
	}
	nodes := hpa.NodeID(hg.Stats().Nodes)
	for _, tc := range []struct {
		n     hpa.NodeID
		level int
	}{{-1, 1}, {nodes, 1}, {0, 0}, {0, 3}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("AppendEdges(nil, %d, %d) did not panic", tc.n, tc.level)
				}
			}()
			hg.AppendEdges(nil, tc.n, tc.level)
		}()
	}
}

func TestAppendEdgesAllocs(t *testing.T) {
	g := testmap.Random(1, 64, 64, 0.2, grid.Options{})
	hg, err := hpa.Build(g, hpa.Options{ClusterSize: 8})
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]hpa.NodeID, 0, 1024)
	allocs := testing.AllocsPerRun(10, func() {
		for n := range hpa.NodeID(hg.Stats().Nodes) {
			buf = hg.AppendEdges(buf[:0], n, 1)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations, want 0 with room in dst", allocs)
	}
}

// TestNodeOutOfRange checks the documented panics of the node accessors,
// on graphs of one and of two levels. With one level, NodeLevel(−1) once
// answered 1.
func TestNodeOutOfRange(t *testing.T) {
	g := testmap.Random(2, 40, 40, 0.1, grid.Options{})
	for _, levels := range []int{1, 2} {
		hg, err := hpa.Build(g, hpa.Options{ClusterSize: 8, Levels: levels})
		if err != nil {
			t.Fatal(err)
		}
		n := hpa.NodeID(hg.Stats().Nodes)
		for _, id := range []hpa.NodeID{-1, n, math.MaxInt32, math.MinInt32} {
			want := fmt.Sprintf("hpa: node %d out of range [0, %d)", id, n)
			for name, f := range map[string]func(){
				"NodeLevel":   func() { hg.NodeLevel(id) },
				"NodeCell":    func() { hg.NodeCell(id) },
				"AppendEdges": func() { hg.AppendEdges(nil, id, 1) },
			} {
				if msg := testmap.Panic(f); msg != want {
					t.Errorf("levels %d: %s(%d): panic %q, want %q", levels, name, id, msg, want)
				}
			}
		}
		if l := hg.NodeLevel(n - 1); l < 1 || l > levels {
			t.Errorf("levels %d: NodeLevel(%d) = %d", levels, n-1, l)
		}
	}
}
