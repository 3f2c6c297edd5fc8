package navmesh_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/navmesh"
	"github.com/go-gl/mathgl/mgl64"
	"github.com/paulmach/orb"
)

func Example() {
	// A wall stands between S and G (y grows down, row 0 at the top):
	//
	//	    0 1 2 3 4
	//	  0 S . # . .
	//	  1 . . # . .
	//	  2 . . . . G
	//
	// The path cuts under the wall's corner at (2, 2); the best 8-connected
	// path, (0,0) (1,1) (2,2) (3,2) (4,2), is 2 + 2√2 ≈ 4.8284 long.
	g, err := grid.FromRows([]string{"S.#..", "..#..", "....G"}, grid.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	m, err := navmesh.FromGrid(g, navmesh.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	s := navmesh.NewSearcher(m) // one per goroutine; m is shared
	path, res, err := s.AppendPath(nil, mgl64.Vec2{0.5, 0.5}, mgl64.Vec2{4.5, 2.5}, navmesh.Query{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range path {
		fmt.Printf("(%g, %g)\n", p[0], p[1])
	}
	fmt.Printf("%v, length %.4f\n", res.Status, res.Length)
	// Output:
	// (0.5, 0.5)
	// (2, 2)
	// (4.5, 2.5)
	// found, length 4.6708
}

func ExampleMesh_Raycast() {
	//	    0 1 2 3
	//	  0 . . . .
	//	  1 . # . .
	//	  2 . . # .
	//
	// Cells (1,1) and (2,2) touch at the corner (2,2), which no path may
	// pass through.
	g, _ := grid.FromRows([]string{"....", ".#..", "..#."}, grid.Options{})
	m, _ := navmesh.FromGrid(g, navmesh.Options{})
	fmt.Println(m.Raycast(mgl64.Vec2{0.5, 0.5}, mgl64.Vec2{3.5, 0.5}))
	fmt.Println(m.Raycast(mgl64.Vec2{1.5, 2.5}, mgl64.Vec2{2.5, 1.5}))
	fmt.Println(m.Raycast(mgl64.Vec2{0.5, 2.5}, mgl64.Vec2{0.5, -1}))
	// Output:
	// false [3.5 0.5]
	// true [2 2]
	// true [0.5 0]
}

// Landmarks guide the exact search round walls that the straight line
// does not see; the paths stay the shortest. A game measures them once,
// offline (navbuild -landmarks K writes them into the mesh file), as they
// cost a search of the whole mesh each.
func ExampleMesh_WithLandmarks() {
	g, err := grid.FromRows([]string{
		"S.......#.......",
		"######..#..####.",
		".....#..#..#....",
		".....#.....#..G.",
	}, grid.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	m, err := navmesh.FromGrid(g, navmesh.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	lm, err := m.WithLandmarks(4)
	if err != nil {
		fmt.Println(err)
		return
	}
	from, to := mgl64.Vec2{0.5, 0.5}, mgl64.Vec2{14.5, 3.5}
	for _, mesh := range []*navmesh.Mesh{m, lm} {
		_, res, err := navmesh.NewSearcher(mesh).AppendPath(nil, from, to, navmesh.Query{})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%d landmarks: length %.4f\n", mesh.Landmarks(), res.Length)
	}
	// Output:
	// 0 landmarks: length 18.7607
	// 4 landmarks: length 18.7607
}

// A mesh's components give an agent layer what a grid's regions do: how
// much room an agent has, the largest area to spawn in, and random places
// it can reach.
func ExampleComponents() {
	m, err := navmesh.FromPolygons(orb.MultiPolygon{
		{{{0, 0}, {10, 0}, {10, 4}, {0, 4}, {0, 0}}},    // a hall
		{{{20, 0}, {23, 0}, {23, 3}, {20, 3}, {20, 0}}}, // a closet, not joined to it
	}, navmesh.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	c := navmesh.NewComponents(m)
	big, area, _ := c.Largest()
	fmt.Printf("%d components, the largest of area %.0f\n", c.Count(), area)
	r := rand.New(rand.NewPCG(1, 2))
	for range 3 {
		p, at, _ := c.RandomPoint(r, big)
		fmt.Printf("(%.2f, %.2f) in polygon %d, reachable: %v\n", at[0], at[1], p, m.Connected(big, p))
	}
	closet, _ := m.Locate(mgl64.Vec2{21, 1})
	fmt.Printf("the closet: area %.0f\n", c.Area(closet))
	// Output:
	// 2 components, the largest of area 40
	// (4.30, 3.75) in polygon 0, reachable: true
	// (6.62, 3.37) in polygon 0, reachable: true
	// (0.72, 1.87) in polygon 0, reachable: true
	// the closet: area 9
}
