package main

import (
	"fmt"
	"image"
	"slices"

	"github.com/cairn-nav/cairn/agent"
)

// The walls of "pathfind crowd": put up across the agents' paths during the
// run and taken down again, each edit applied to the grid, the graphs and
// the agents' paths, and written to the trace.

// crowdWall is a wall put up at frame up and taken down at frame down.
type crowdWall struct {
	rect     image.Rectangle
	up, down int
	placed   bool
}

// edit puts up or takes down the walls due at frame fr, repairs the
// agents' paths, and reports whether it edited.
func (c *crowd) edit(fr int) bool {
	edited := false
	for i := range c.walls {
		w := &c.walls[i]
		switch {
		case w.up == fr:
			rect, ok := c.placeWall()
			if !ok {
				continue
			}
			w.rect, w.placed = rect, true
			c.apply(fr, rect, false)
			edited = true
		case w.down == fr && w.placed:
			c.apply(fr, w.rect, true)
			edited = true
		}
	}
	return edited
}

// apply edits the grid, writes the edit to the trace, and repairs the
// agents' paths.
func (c *crowd) apply(fr int, rect image.Rectangle, free bool) {
	c.g.SetCells(rect, free)
	changed := make([]image.Rectangle, len(c.classes))
	switch {
	case c.hc != nil:
		c.hc.Update(rect) // cannot fail on the grids BuildClasses made
		if c.f.refill {
			c.hc.Refill() // in the edit's frame, not in the frames after it
		}
	case c.ha != nil:
		c.ha.Update(rect) // cannot fail on the grids BuildAnnotated made
		if c.f.refill {
			c.hr.Refill() // cannot be stale right after the Update; a refinement's internal error would have failed the fill at load
		}
	}
	for i, cl := range c.classes {
		switch {
		case c.hc != nil:
			changed[i] = c.hc.Changed(i)
		case c.ha != nil:
			changed[i] = c.ha.Changed(i)
		case cl.k > 1:
			changed[i], _ = cl.g.UpdateSized(c.g, cl.k, rect) // c.g and cl.k are those Sized was given
		default:
			changed[i] = rect
		}
	}
	word := "block"
	if free {
		word = "free"
	}
	fmt.Fprintf(&c.trace, "edit %d %d %d %d %d %s\n", fr, rect.Min.X, rect.Min.Y, rect.Max.X, rect.Max.Y, word)
	for i := range c.agents {
		a := &c.agents[i]
		r := changed[slices.Index(c.classes, a.cl)]
		if r.Empty() {
			continue
		}
		switch a.cl.pl.Repair(&a.path, r) {
		case agent.Mended:
			c.sum.Mended++
		case agent.Broken:
			c.sum.Replans++
			a.cl.q.Request(&a.path, agent.CellOf(a.pos), a.path.Goal(), 1)
			c.sum.Requests++
		}
	}
}

// placeWall finds a wall of free cells across the path of a random agent,
// with no agent within a cell of it: up to 50 tries.
func (c *crowd) placeWall() (image.Rectangle, bool) {
	for range 50 {
		a := &c.agents[c.r.IntN(len(c.agents))]
		cells := a.path.Cells()
		if len(cells) < 8 {
			continue
		}
		mid := cells[len(cells)/2]
		rect := image.Rect(mid.X-c.f.wall/2, mid.Y, mid.X-c.f.wall/2+c.f.wall, mid.Y+1)
		if c.r.IntN(2) == 0 {
			rect = image.Rect(mid.X, mid.Y-c.f.wall/2, mid.X+1, mid.Y-c.f.wall/2+c.f.wall)
		}
		if !rect.In(c.g.Bounds()) || !c.allFree(rect) || c.occupied(rect.Inset(-1)) {
			continue
		}
		return rect, true
	}
	return image.Rectangle{}, false
}

func (c *crowd) allFree(r image.Rectangle) bool {
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if !c.g.Passable(image.Pt(x, y)) {
				return false
			}
		}
	}
	return true
}

// occupied reports whether an agent's cells (its anchor cell and the k×k
// block from it, for a unit of size k) meet r, where it stands, along its
// last move, or at its goal.
func (c *crowd) occupied(r image.Rectangle) bool {
	for i := range c.agents {
		a := &c.agents[i]
		body := func(p image.Point) bool { return image.Rectangle{p, p.Add(image.Pt(a.cl.k, a.cl.k))}.Overlaps(r) }
		if body(a.path.Goal()) {
			return true
		}
		d := a.pos.Sub(a.prev)
		n := int(d.Len()*8) + 1
		for k := 0; k <= n; k++ {
			if body(agent.CellOf(a.prev.Add(d.Mul(float64(k) / float64(n))))) {
				return true
			}
		}
	}
	return false
}
