package testmap

import (
	"fmt"

	"github.com/cairn-nav/cairn/grid"
)

// Maze returns a maze of nx × ny rooms, each a square of corridor cells
// wide, with walls one cell thick between them and round the edge: a random
// spanning tree of the rooms (depth-first, seeded with seed) with loops
// extra openings knocked through walls at random, so with loops 0 every
// corridor but one between two rooms is a dead end. Built with default
// options; it panics if nx, ny or corridor is below 1.
func Maze(seed int64, nx, ny, corridor, loops int) *grid.Grid {
	if nx < 1 || ny < 1 || corridor < 1 {
		panic(fmt.Sprintf("testmap: maze of %d×%d rooms %d wide", nx, ny, corridor))
	}
	r := NewRand(seed)
	step := corridor + 1
	w, h := nx*step+1, ny*step+1
	free := make([]bool, w*h)
	room := func(x, y int) {
		for yy := range corridor {
			for xx := range corridor {
				free[(y*step+1+yy)*w+x*step+1+xx] = true
			}
		}
	}
	// open knocks through the wall between room (x, y) and its neighbour
	// to the east (east) or to the south.
	open := func(x, y int, east bool) {
		for k := range corridor {
			if east {
				free[(y*step+1+k)*w+(x+1)*step] = true
			} else {
				free[((y+1)*step)*w+x*step+1+k] = true
			}
		}
	}
	seen := make([]bool, nx*ny)
	stack := []int{0}
	seen[0] = true
	room(0, 0)
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		x, y := c%nx, c/nx
		var next [4]int
		n := 0
		for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			if xx, yy := x+d[0], y+d[1]; xx >= 0 && yy >= 0 && xx < nx && yy < ny && !seen[yy*nx+xx] {
				next[n] = yy*nx + xx
				n++
			}
		}
		if n == 0 {
			stack = stack[:len(stack)-1]
			continue
		}
		d := next[r.IntN(n)]
		dx, dy := d%nx, d/nx
		switch {
		case dx > x:
			open(x, y, true)
		case dx < x:
			open(dx, dy, true)
		case dy > y:
			open(x, y, false)
		default:
			open(dx, dy, false)
		}
		seen[d] = true
		room(dx, dy)
		stack = append(stack, d)
	}
	for range loops {
		x, y := r.IntN(nx), r.IntN(ny)
		if r.IntN(2) == 0 && x+1 < nx {
			open(x, y, true)
		} else if y+1 < ny {
			open(x, y, false)
		}
	}
	g, err := grid.New(w, h, free, grid.Options{})
	if err != nil {
		panic(fmt.Sprintf("testmap: maze seed %d: %v", seed, err))
	}
	return g
}
