package grid_test

import (
	"fmt"
	"image"
	"strings"

	"github.com/cairn-nav/cairn/grid"
)

func Example() {
	// '#' is a wall. A diagonal step may not cut a wall's corner, so the
	// path goes round the corners at (6,2) and (5,4) in two straight steps.
	rows := []string{
		"........#.",
		"........#.",
		"...####.#.",
		"...#......",
		"...#.####.",
		"...#......",
	}
	g, err := grid.FromRows(rows, grid.Options{})
	if err != nil {
		panic(err)
	}
	s := grid.NewSearcher(g)
	from, to := image.Pt(0, 0), image.Pt(5, 5)
	path, res, err := s.AppendPath(nil, from, to, grid.Query{})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Status, len(path), "cells", fmt.Sprintf("cost %.4f", res.Cost))
	fmt.Println(path)

	// Draw the path over the map.
	pic := make([][]byte, len(rows))
	for y := range pic {
		pic[y] = []byte(rows[y])
	}
	for _, p := range path {
		pic[p.Y][p.X] = '*'
	}
	pic[from.Y][from.X], pic[to.Y][to.X] = 'S', 'G'
	for _, row := range pic {
		fmt.Println(strings.TrimRight(string(row), " "))
	}
	// Output:
	// found 16 cells cost 15.4142
	// [(0,0) (1,1) (2,1) (3,1) (4,1) (5,1) (6,1) (7,1) (7,2) (7,3) (6,3) (5,3) (4,3) (4,4) (4,5) (5,5)]
	// S.......#.
	// .*******#.
	// ...####*#.
	// ...#****..
	// ...#*####.
	// ...#*G....
}
