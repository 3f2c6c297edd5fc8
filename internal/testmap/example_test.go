package testmap_test

import (
	"fmt"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
)

func Example() {
	m, err := testmap.Parse(`
		S..#
		.#.#
		...G
	`, grid.Options{})
	if err != nil {
		panic(err)
	}
	d, ok := testmap.NewOracle(m.Grid).Dist(m.Start, m.Goal)
	fmt.Printf("%v→%v: %.4f %v\n", m.Start, m.Goal, d, ok)
	path, _, _ := grid.NewSearcher(m.Grid).AppendPath(nil, m.Start, m.Goal, grid.Query{})
	fmt.Print(testmap.Render(m.Grid, path))
	// Output:
	// (0,0)→(3,2): 5.0000 true
	// S**#
	// .#*#
	// ..*G
}

func ExampleMaze() {
	fmt.Print(testmap.Render(testmap.Maze(3, 4, 3, 2, 0), nil))
	// Output:
	// #############
	// #..#........#
	// #..#........#
	// #..####..#..#
	// #..#.....#..#
	// #..#.....#..#
	// #..#..####..#
	// #.....#.....#
	// #.....#.....#
	// #############
}
