package grid_test

import (
	"fmt"
	"image"
	"math/rand/v2"

	"github.com/cairn-nav/cairn/grid"
)

func ExampleGrid_NearestReachable() {
	// The goal G lies in a walled-off room. An agent at S cannot reach it,
	// so it walks to the cell of its own region nearest to G: of (3,0) and
	// (1,2), both 2 away, the one with the smaller y.
	rows := []string{
		"S.........",
		"..######..",
		"..#G...#..",
		"..#....#..",
		"..######..",
		"..........",
	}
	g, err := grid.FromRows(rows, grid.Options{})
	if err != nil {
		panic(err)
	}
	start, goal := image.Pt(0, 0), image.Pt(3, 2)
	fmt.Println("connected:", g.Connected(start, goal))
	fmt.Println("region sizes:", g.RegionSize(start), g.RegionSize(goal))
	near, ok := g.NearestReachable(goal, start)
	fmt.Println("walk to:", near, ok)

	// The wall cell (4,4) is 1 from (4,3) in the room and from (4,5)
	// outside it: the smaller y wins.
	free, _ := g.NearestFree(image.Pt(4, 4))
	fmt.Println("nearest free cell to (4,4):", free)
	cell, size := g.LargestRegion()
	fmt.Println("largest region:", cell, size)

	// Spawn a second agent anywhere in S's region.
	r := rand.New(rand.NewPCG(1, 2))
	spawn, _ := g.RandomFree(r, start)
	fmt.Println("spawned where S can reach:", g.Connected(spawn, start))
	// Output:
	// connected: false
	// region sizes: 36 8
	// walk to: (3,0) true
	// nearest free cell to (4,4): (4,3)
	// largest region: (0,0) 36
	// spawned where S can reach: true
}
