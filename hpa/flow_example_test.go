package hpa_test

import (
	"fmt"
	"image"
	"strings"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
)

// ExampleFlowField sends every cell of a small map, in clusters of 4×4
// cells, to one goal: the arrows are the moves of Next, 'G' is the goal,
// '#' a wall and 'x' a free cell walled off from the goal. Agents cross
// from cluster to cluster at the transitions: from (9,4) the field steps
// east to (10,4), the middle of the entrance above, so its path costs a
// little more than the shortest one.
func ExampleFlowField() {
	g, err := grid.FromRows([]string{
		"............",
		".#######....",
		".#......#...",
		".#.####.#...",
		"...#..#.#...",
		"####..#.####",
		"..#.......#x",
		"..#.......#x",
	}, grid.Options{})
	if err != nil {
		panic(err)
	}
	hg, err := hpa.Build(g, hpa.Options{ClusterSize: 4})
	if err != nil {
		panic(err)
	}
	f := hpa.NewFlowField(hg)
	if err := f.Compute(image.Pt(4, 4)); err != nil {
		panic(err)
	}
	arrows := map[image.Point]string{
		{1, 0}: "→", {-1, 0}: "←", {0, 1}: "↓", {0, -1}: "↑",
		{1, 1}: "↘", {1, -1}: "↗", {-1, 1}: "↙", {-1, -1}: "↖",
	}
	for y := range g.Height() {
		var row strings.Builder
		for x := range g.Width() {
			p := image.Pt(x, y)
			next, ok := f.Next(p)
			_, reach := f.Dist(p)
			switch {
			case !g.Passable(p):
				row.WriteString("#")
			case p == f.Goal():
				row.WriteString("G")
			case !reach:
				row.WriteString("x")
			case ok:
				row.WriteString(arrows[next.Sub(p)])
			}
		}
		fmt.Println(row.String())
	}
	from := image.Pt(9, 4)
	d, _ := f.Dist(from)
	_, exact, _ := grid.NewSearcher(g).AppendPath(nil, from, f.Goal(), grid.Query{})
	fmt.Printf("from %v: %.4f (shortest %.4f), %d cells\n", from, d, exact.Cost, len(f.AppendPath(nil, from)))
	fmt.Println("stale", f.Stale())
	g.SetCells(image.Rect(0, 7, 1, 8), false)
	fmt.Println("after an edit, stale", f.Stale())
	// Output:
	// ↓←←←←←←←←←←←
	// ↓#######↑↖←←
	// ↓#→→→→→↓#↑↖←
	// ↓#↑####↓#↑↑↖
	// →→↑#G←#↓#→↑←
	// ####↑↖#↓####
	// xx#→↑↑←←←←#x
	// xx#↑↑↑↖←↑↖#x
	// from (9,4): 35.2426 (shortest 33.8284), 35 cells
	// stale false
	// after an edit, stale true
}
