package agent_test

import (
	"fmt"
	"image"
	"strings"

	"github.com/cairn-nav/cairn/agent"
	"github.com/cairn-nav/cairn/grid"
)

// ExampleFlowField sends every cell of a small map to one goal: the arrows
// are the moves of Next, 'G' is the goal, '#' a wall and 'x' a free cell
// walled off from the goal.
func ExampleFlowField() {
	g, err := grid.FromRows([]string{
		"........",
		".####...",
		".#..#.#.",
		".#..#.##",
		"......#x",
		"#####.##",
	}, grid.Options{})
	if err != nil {
		panic(err)
	}
	f := agent.NewFlowField(g)
	if err := f.Compute(image.Pt(2, 2)); err != nil {
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
	from := image.Pt(7, 0)
	d, _ := f.Dist(from)
	fmt.Printf("from %v: %.4f, %v\n", from, d, f.AppendPath(nil, from))
	fmt.Println("reached", f.Reached(), "stale", f.Stale())
	g.SetCells(image.Rect(5, 5, 6, 6), false)
	fmt.Println("after an edit, stale", f.Stale())
	// Output:
	// ↓←←→→↓↙←
	// ↓####↓←←
	// ↓#G←#↓#↑
	// ↓#↑↖#↓##
	// →→↑↖←←#x
	// #####↑##
	// from (7,0): 9.8284, [(7,0) (6,0) (5,1) (5,2) (5,3) (5,4) (4,4) (3,4) (2,3) (2,2)]
	// reached 28 stale false
	// after an edit, stale true
}
