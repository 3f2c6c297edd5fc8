package grid_test

import (
	"fmt"
	"image"
	"strings"

	"github.com/cairn-nav/cairn/grid"
)

func ExampleGrid_Sized() {
	// A wall with a gap one cell wide at (3,2) and two free columns at its
	// right end. A unit of size 2 covers its anchor cell and the cells to
	// the right and below: it cannot pass the gap, and goes round.
	rows := []string{
		".........",
		".........",
		"###.###..",
		".........",
		".........",
	}
	g, err := grid.FromRows(rows, grid.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println("clearance:")
	for y := range g.Height() {
		var sb strings.Builder
		for x := range g.Width() {
			fmt.Fprint(&sb, g.Clearance(image.Pt(x, y)))
		}
		fmt.Println(sb.String())
	}
	from, to := image.Pt(0, 0), image.Pt(0, 3)
	for _, k := range []int{1, 2} {
		s, err := g.Sized(k)
		if err != nil {
			panic(err)
		}
		path, res, err := grid.NewSearcher(s).AppendPath(nil, from, to, grid.Query{})
		if err != nil {
			panic(err)
		}
		fmt.Printf("size %d: %s, cost %.4f, anchors:\n", k, res.Status, res.Cost)
		pic := make([][]byte, len(rows))
		for y := range pic {
			pic[y] = []byte(rows[y])
		}
		for _, p := range path {
			pic[p.Y][p.X] = '*'
		}
		for _, row := range pic {
			fmt.Println(string(row))
		}
	}
	// Output:
	// clearance:
	// 222222221
	// 111111121
	// 000100021
	// 222222221
	// 111111111
	// size 1: found, cost 8.4142, anchors:
	// *........
	// .***.....
	// ###*###..
	// ****.....
	// .........
	// size 2: found, cost 17.0000, anchors:
	// ********.
	// .......*.
	// ###.###*.
	// ********.
	// .........
}

func ExampleQuery_size() {
	// The wall of ExampleGrid_Sized: a query of size 2 on the grid itself
	// gives the path Sized(2)'s grid gives, with no grid to make.
	g, err := grid.FromRows([]string{
		".........",
		".........",
		"###.###..",
		".........",
		".........",
	}, grid.Options{})
	if err != nil {
		panic(err)
	}
	s := grid.NewSearcher(g)
	for _, k := range []int{1, 2} {
		path, res, err := s.AppendPath(nil, image.Pt(0, 0), image.Pt(0, 3), grid.Query{Size: k})
		if err != nil {
			panic(err)
		}
		fmt.Printf("size %d: %s, cost %.4f, %d anchors\n", k, res.Status, res.Cost, len(path))
	}
	_, _, err = s.AppendPath(nil, image.Pt(8, 0), image.Pt(0, 3), grid.Query{Size: 2})
	fmt.Println(err)
	// Output:
	// size 1: found, cost 8.4142, 9 anchors
	// size 2: found, cost 17.0000, 18 anchors
	// grid: start (8,0) has clearance 1, too little for a unit of size 2
}
