package mapgen

import (
	"image"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
)

// TestLabelRuns checks the run labels against the regions of package grid on
// random maps: the same partition of the free cells, with the same sizes.
func TestLabelRuns(t *testing.T) {
	for seed := range int64(20) {
		density := 0.2 + 0.03*float64(seed)
		g := testmap.Random(seed, 37, 23, density, grid.Options{})
		free := make([]bool, g.Width()*g.Height())
		for y := range g.Height() {
			for x := range g.Width() {
				free[y*g.Width()+x] = g.Passable(image.Pt(x, y))
			}
		}
		l := labelRuns(free, g.Width(), g.Height())
		toGrid := map[int32]int32{}
		toRuns := map[int32]int32{}
		size := map[int32]int{}
		for y := range g.Height() {
			for x := range g.Width() {
				p := image.Pt(x, y)
				r, gr := l.at(p), g.Region(p)
				if (r < 0) != (gr < 0) {
					t.Fatalf("seed %d: cell %v run root %d, grid region %d\n%s", seed, p, r, gr, testmap.Render(g, nil))
				}
				if r < 0 {
					continue
				}
				if l.root[r] != r {
					t.Fatalf("seed %d: cell %v has root %d whose root is %d", seed, p, r, l.root[r])
				}
				if v, ok := toGrid[r]; ok && v != gr || toRuns[gr] != r && toRuns[gr] != 0 {
					t.Fatalf("seed %d: cell %v in run region %d and grid region %d, which do not match one to one\n%s", seed, p, r, gr, testmap.Render(g, nil))
				}
				toGrid[r], toRuns[gr] = gr, r
				size[r]++
			}
		}
		for r, n := range size {
			if l.size[r] != n {
				t.Errorf("seed %d: region of run %d has size %d, counted %d", seed, r, l.size[r], n)
			}
		}
		if len(size) != g.NumRegions() {
			t.Errorf("seed %d: %d run regions, grid has %d", seed, len(size), g.NumRegions())
		}
	}
}

// TestConnect draws pockets: the small one is filled, the large one joined by
// a straight passage from its top-left cell, the nearest way.
func TestConnect(t *testing.T) {
	rows := []string{
		"................................",
		"................................",
		"..#####.........................",
		"..#...#.........################",
		"..#####.........#...............",
		"................#...............",
		"................#...............",
		"................#...............",
		"................#...............",
		"................#...............",
		"................#...............",
		"................#...............",
		"................#...............",
		"................#...............",
		"................#...............",
	}
	want := []string{
		"................................",
		"................................",
		"..#####.........................",
		"..#####.........#.##############",
		"..#####.........#...............",
		"................#...............",
		"................#...............",
		"................#...............",
		"................#...............",
		"................#...............",
		"................#...............",
		"................#...............",
		"................#...............",
		"................#...............",
		"................#...............",
	}
	m := &world{w: len(rows[0]), h: len(rows), free: make([]bool, len(rows)*len(rows[0]))}
	for y, row := range rows {
		for x := range row {
			m.free[y*m.w+x] = row[x] == '.'
		}
	}
	m.connect()
	var got []string
	for y := range m.h {
		var b strings.Builder
		for x := range m.w {
			b.WriteByte("#."[b2i(m.free[y*m.w+x])])
		}
		got = append(got, b.String())
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("after connect:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
