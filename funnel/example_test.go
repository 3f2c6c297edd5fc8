package funnel_test

import (
	"fmt"

	"github.com/cairn-nav/cairn/funnel"
	"github.com/go-gl/mathgl/mgl64"
)

func Example() {
	// A corridor of three polygons that runs east, then turns south
	// (y grows down, so row 0 is at the top):
	//
	//	    0   1   2
	//	  0 +---+---+
	//	    | S   A |      S is in [0,1]×[0,1], A is [1,2]×[0,1],
	//	  1 +---+---+      B is [1,2]×[1,3], G is in B.
	//	        | B |
	//	  2     |   |      Portal 0 is A's west edge, portal 1 its south edge.
	//	        | G |
	//	  3     +---+
	//
	// A walker heading east has north (−y) on its left; heading south, east.
	portals := []funnel.Portal{
		{Left: mgl64.Vec2{1, 0}, Right: mgl64.Vec2{1, 1}},
		{Left: mgl64.Vec2{2, 1}, Right: mgl64.Vec2{1, 1}},
	}
	start, goal := mgl64.Vec2{0.5, 0.5}, mgl64.Vec2{1.5, 2.5}
	path := funnel.Pull(nil, start, goal, portals)
	for _, p := range path {
		fmt.Printf("(%g, %g)\n", p[0], p[1])
	}
	// Output:
	// (0.5, 0.5)
	// (1, 1)
	// (1.5, 2.5)
}
