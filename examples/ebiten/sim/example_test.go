package sim_test

import (
	"fmt"
	"image"

	"github.com/cairn-nav/cairn/examples/ebiten/sim"
	"github.com/cairn-nav/cairn/grid"
)

// Four units (u) cross a room to cells round the clicked one (g); a wall
// (#) drawn across their way while they walk leaves a gap at the bottom,
// and they go round through it:
//
//	...........#........
//	u..........#........
//	uu.........#........
//	u..........#....ggg.
//	...........#.....g..
//	....................  ← the gap
func Example() {
	g, _ := grid.FromRows([]string{
		"....................",
		"....................",
		"....................",
		"....................",
		"....................",
		"....................",
	}, grid.Options{})
	w, _ := sim.New(g, image.Pt(0, 2), sim.Options{Units: 4})
	fmt.Println("sent", w.Send(image.Pt(17, 3)))
	for w.Units()[0].Pos().X() < 5 {
		w.Update()
	}
	changed, _ := w.Wall(image.Rect(11, 0, 12, 5))
	st := w.Stats()
	fmt.Println("wall", changed, "mended", st.Mended, "searched again", st.Broken)
	arrived := 0
	for arrived < 4 {
		w.Update()
		arrived = 0
		for i := range w.Units() {
			u := &w.Units()[i]
			if !g.Passable(u.Cell()) {
				fmt.Println("unit", i, "in the wall at", u.Cell())
				return
			}
			if u.Arrived() {
				arrived++
			}
		}
	}
	for i := range w.Units() {
		u := &w.Units()[i]
		fmt.Println("unit", i, "at", u.Cell(), "goal", u.Goal())
	}
	// Output:
	// sent 4
	// wall (11,0)-(12,5) mended 4 searched again 0
	// unit 0 at (16,3) goal (16,3)
	// unit 1 at (17,3) goal (17,3)
	// unit 2 at (18,3) goal (18,3)
	// unit 3 at (17,4) goal (17,4)
}
