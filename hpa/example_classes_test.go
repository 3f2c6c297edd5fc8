package hpa_test

import (
	"fmt"
	"image"
	"strings"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
)

func ExampleBuildClasses() {
	// A Moving AI map: '@' walls, 'W' water, 'S' swamp, in clusters of
	// 8×8 cells. The wall across the middle has a gap one cell wide on the
	// left, which a tank of 2×2 cells cannot pass, and one two cells wide
	// on the right.
	rows := []string{
		"........@...............",
		"........@...............",
		"..SSSS..@.......@.......",
		"..SSSS..@.......@.......",
		"..SSSS..........@.......",
		"..SSSS..........@.......",
		"........@.......@..WWW..",
		"........@.......@..WWW..",
		"@@@@@.@@@@@@..@@@.......",
		"........@.......@.......",
		"........@.......@.......",
		"........@...............",
	}
	text := fmt.Sprintf("type octile\nheight %d\nwidth %d\nmap\n%s\n", len(rows), len(rows[0]), strings.Join(rows, "\n"))
	g, err := grid.ReadMap(strings.NewReader(text), "example.map", grid.Options{})
	if err != nil {
		panic(err)
	}
	// Infantry goes anywhere free; a tank is 2×2 cells; a scout keeps out
	// of the water and finds the swamp three times as dear.
	scout := new(grid.Filter)
	scout.Exclude[grid.AreaWater] = true
	scout.Cost[grid.AreaSwamp] = 3
	names := []string{"infantry", "tank", "scout"}
	c, err := hpa.BuildClasses(g, []hpa.Class{{Size: 1}, {Size: 2}, {Size: 1, Filter: scout}}, hpa.Options{ClusterSize: 8})
	if err != nil {
		panic(err)
	}
	for i, name := range names {
		q := hpa.NewSearcher(c.Graph(i))
		path, res, err := q.AppendPath(nil, image.Pt(1, 1), image.Pt(21, 10), hpa.Query{})
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s: %v, %d cells, cost %.4f; its graph %+v\n", name, res.Status, len(path), res.Cost, c.Graph(i).Stats())
		m := make([][]byte, len(rows))
		for y := range rows {
			m[y] = []byte(rows[y])
		}
		for _, p := range path { // the anchor (top-left) cell of the unit
			m[p.Y][p.X] = '*'
		}
		for _, row := range m {
			fmt.Println(string(row))
		}
	}
	// Output:
	// infantry: found, 22 cells, cost 25.1421; its graph {Clusters:6 Entrances:7 Nodes:14 Edges:36}
	// ........@...............
	// .*......@...............
	// ..*SSS..@.......@.......
	// ..S*SS..@.......@.......
	// ..SS*****.......@.......
	// ..SSSS...*......@.......
	// ........@.*.....@..WWW..
	// ........@..**...@..WWW..
	// @@@@@.@@@@@@*.@@@.......
	// ........@....*..@.......
	// ........@.....*.@....*..
	// ........@......******...
	// tank: found, 29 cells, cost 31.7279; its graph {Clusters:6 Entrances:5 Nodes:10 Edges:24}
	// ........@....*****......
	// .*......@...*....*......
	// ..*SSS..@..*....@*......
	// ..S*SS..@.*.....@*......
	// ..SS******......@*......
	// ..SSSS..........@*......
	// ........@.......@*.WWW..
	// ........@.......@*.WWW..
	// @@@@@.@@@@@@..@@@***....
	// ........@.......@...*...
	// ........@.......@....*..
	// ........@...............
	// scout: found, 23 cells, cost 25.7279; its graph {Clusters:6 Entrances:7 Nodes:14 Edges:36}
	// ........@...............
	// .*****..@...............
	// ..SSSS*.@.......@.......
	// ..SSSS*.@.......@.......
	// ..SSSS.**.......@.......
	// ..SSSS...*......@.......
	// ........@.*.....@..WWW..
	// ........@..**...@..WWW..
	// @@@@@.@@@@@@*.@@@.......
	// ........@....*..@.......
	// ........@.....*.@.****..
	// ........@......***......
}
