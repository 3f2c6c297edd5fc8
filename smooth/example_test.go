package smooth_test

import (
	"fmt"
	"image"
	"strings"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/smooth"
	"github.com/go-gl/mathgl/mgl64"
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

func ExampleFollower() {
	// The smoothed path of Example, handed to steering as cell centres.
	turns := []image.Point{{0, 0}, {2, 4}, {4, 5}, {9, 5}}
	waypoints := make([]mgl64.Vec2, len(turns))
	for i, p := range turns {
		waypoints[i] = mgl64.Vec2{float64(p.X) + 0.5, float64(p.Y) + 0.5}
	}

	// An agent that moves half a cell per tick toward a target one cell
	// ahead along the path, and stops within a quarter of a cell of the goal.
	const speed = 0.5
	f := smooth.NewFollower(waypoints, 1)
	f.Arrive = 0.25
	pos := waypoints[0]
	for tick := 0; ; tick++ {
		target, done := f.Steer(pos)
		if done {
			fmt.Printf("arrived at (%.2f, %.2f) after %d ticks\n", pos[0], pos[1], tick)
			break
		}
		if tick%4 == 0 {
			fmt.Printf("tick %2d: at (%.2f, %.2f), next waypoint %d, %.2f to go\n",
				tick, pos[0], pos[1], f.Next(), f.Remaining(pos))
		}
		if d := target.Sub(pos); d.Len() > speed {
			pos = pos.Add(d.Mul(speed / d.Len()))
		} else {
			pos = target
		}
	}
	// Output:
	// tick  0: at (0.50, 0.50), next waypoint 1, 11.71 to go
	// tick  4: at (1.39, 2.29), next waypoint 1, 9.71 to go
	// tick  8: at (2.30, 4.07), next waypoint 1, 7.71 to go
	// tick 12: at (3.94, 5.20), next waypoint 2, 5.64 to go
	// tick 16: at (5.90, 5.48), next waypoint 3, 3.60 to go
	// tick 20: at (7.90, 5.50), next waypoint 3, 1.60 to go
	// arrived at (9.40, 5.50) after 23 ticks
}
