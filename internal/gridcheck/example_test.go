package gridcheck_test

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/gridcheck"
)

func Example() {
	// Two walls meet at a corner: a leg may not squeeze between them.
	g, err := grid.FromRows([]string{
		"..#",
		".#.",
		"...",
	}, grid.Options{})
	if err != nil {
		panic(err)
	}
	c := gridcheck.New(g, 0)
	fmt.Println(c.Leg(mgl64.Vec2{0.5, 0.5}, mgl64.Vec2{1.5, 0.5}))
	fmt.Println(c.Leg(mgl64.Vec2{1.5, 0.5}, mgl64.Vec2{2.5, 1.5}))
	length, err := c.Path([]mgl64.Vec2{{0.5, 0.5}, {1, 2}, {2.5, 2.5}}, mgl64.Vec2{0.5, 0.5}, mgl64.Vec2{2.5, 2.5})
	fmt.Printf("%.4f %v\n", length, err)
	// Output:
	// <nil>
	// passes through pinched corner 2,1
	// 3.1623 <nil>
}
