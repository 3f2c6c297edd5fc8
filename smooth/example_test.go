package smooth_test

import (
	"fmt"
	"image"
	"strings"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/smooth"
)

func Example() {
	// '#' is a wall. The grid path from S to G takes many cells; smoothing
	// keeps only the cells where it must turn, each leg a straight line of
	// sight between cell centres that does not cut a wall's corner.
	rows := []string{
		"S.....#...",
		"......#...",
		"..###.#.#.",
		"....#...#.",
		"....#####.",
		".........G",
	}
	g, err := grid.FromRows(rows, grid.Options{})
	if err != nil {
		panic(err)
	}
	path, res, err := grid.NewSearcher(g).AppendPath(nil, image.Pt(0, 0), image.Pt(9, 5), grid.Query{})
	if err != nil {
		panic(err)
	}
	turns := smooth.AppendTurns(nil, path, g.LineOfSight)
	fmt.Printf("grid path: %d cells, length %.4f\n", len(path), res.Cost)
	fmt.Printf("smoothed:  %d points, length %.4f\n", len(turns), smooth.Length(turns))
	fmt.Println(turns)

	// Number the kept points on the map, with the grid path as '*'.
	pic := make([][]byte, len(rows))
	for y := range pic {
		pic[y] = []byte(rows[y])
	}
	for _, p := range path {
		pic[p.Y][p.X] = '*'
	}
	for i, p := range turns {
		pic[p.Y][p.X] = '0' + byte(i)
	}
	for _, row := range pic {
		fmt.Println(strings.TrimRight(string(row), " "))
	}
	// Output:
	// grid path: 12 cells, length 12.2426
	// smoothed:  4 points, length 11.7082
	// [(0,0) (2,4) (4,5) (9,5)]
	// 0.....#...
	// .*....#...
	// .*###.#.#.
	// .*..#...#.
	// ..1.#####.
	// ...*2****3
}
