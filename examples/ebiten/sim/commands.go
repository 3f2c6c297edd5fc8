package sim

import (
	"fmt"
	"image"
	"math"

	"github.com/cairn-nav/cairn/agent"
	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/hpa"
	"github.com/go-gl/mathgl/mgl64"
)

// Select selects the units that stand in the cells of r, and deselects the
// others, and returns how many it selected. It costs O(units).
func (w *World) Select(r image.Rectangle) int {
	n := 0
	for i := range w.units {
		u := &w.units[i]
		u.selected = u.Cell().In(r)
		if u.selected {
			n++
		}
	}
	return n
}

// SelectAll selects every unit.
func (w *World) SelectAll() {
	for i := range w.units {
		w.units[i].selected = true
	}
}

// Send sends the selected units to the cell to (the free cell nearest to
// it when it is blocked or off the map) and returns how many it sent. Each
// unit gets a cell of its own in a blob of free cells around it, the
// nearest units taking the cells nearest the middle, and a path search is
// queued for each; the units stand still until their searches finish
// (within a few ticks of the budget). Units that cannot reach their cells
// go to the reachable cells nearest to them.
//
// It also finds the group's long route with HPA*, for [World.Route]. Its
// cost is O(units²) for the blob plus the HPA* query; it allocates only
// while its buffers grow.
func (w *World) Send(to image.Point) int {
	sel := 0
	var mid mgl64.Vec2
	for i := range w.units {
		if u := &w.units[i]; u.selected {
			sel++
			mid = mid.Add(u.pos)
		}
	}
	if sel == 0 {
		return 0
	}
	mid = mid.Mul(1 / float64(sel))
	to, ok := w.g.NearestFree(to)
	if !ok {
		return 0
	}
	// The unit nearest the group's centre leads the route.
	lead, best := -1, math.Inf(1)
	for i := range w.units {
		u := &w.units[i]
		w.taken[i] = !u.selected
		if d := u.pos.Sub(mid).Len(); u.selected && d < best {
			lead, best = i, d
		}
	}
	// The cells nearest the middle of the blob go to the units nearest to
	// them, so the group keeps together and no unit crosses the others
	// more than it must.
	cells := w.fill(to, sel)
	for k := range sel {
		c := cells[k%len(cells)]
		centre := agent.Centre(c)
		pick, pd := -1, math.Inf(1)
		for i := range w.units {
			if w.taken[i] {
				continue
			}
			if d := w.units[i].pos.Sub(centre).Len(); d < pd {
				pick, pd = i, d
			}
		}
		w.taken[pick] = true
		u := &w.units[pick]
		u.goal = c
		w.request(u, 0)
	}
	w.routeUnit, w.routeTo = lead, to
	w.findRoute()
	return sel
}

// findRoute finds the group's long route again, from where its lead unit
// stands now.
func (w *World) findRoute() {
	w.route, w.abstract = w.route[:0], w.abstract[:0]
	if w.routeUnit < 0 || w.routeUnit >= len(w.units) {
		return
	}
	from := w.units[w.routeUnit].Cell()
	var res hpa.Result
	var err error
	w.route, res, err = w.hs.AppendPath(w.route, from, w.routeTo, hpa.Query{})
	if err != nil || res.Status != core.Found {
		w.route = w.route[:0]
		return
	}
	w.abstract, _ = w.hs.AppendAbstract(w.abstract)
}

// Wall blocks the cells of r, except those a unit stands in (so that no
// unit is ever in a blocked cell; the wall has a hole there), and returns
// the rectangle of cells that may have changed: r clipped to the map,
// empty when nothing changed. Parts of r off the map are ignored.
//
// The edit is made in place: the grid's cells ([grid.Grid.SetCells]), then
// the HPA* graph ([hpa.Graph.Update], which rebuilds only the clusters the
// edit reaches), then every unit's path: [agent.Planner.Repair] mends the
// broken stretch of a path in place, and a path it cannot mend is searched
// again through the queue. A search waiting or in progress starts again on
// the edited grid by itself. The group's route is found again.
//
// Its cost is the edit, the rebuild of a few clusters (a millisecond or
// two on the 256² world, which dominates), O(path) a unit and a short
// search for each broken path; the graph's rebuild allocates. The error, from hpa,
// says the graph could not be updated; it does not happen with a world
// made by [New].
func (w *World) Wall(r image.Rectangle) (image.Rectangle, error) {
	w.one[0] = r
	return w.Paint(w.one[:], false)
}

// Erase frees the cells of r, walls of the map and drawn ones alike, and
// brings the graph and the paths up to date as [World.Wall] does. Units
// whose goals could not be reached before and now can are sent on again.
func (w *World) Erase(r image.Rectangle) (image.Rectangle, error) {
	w.one[0] = r
	return w.Paint(w.one[:], true)
}

// Paint blocks (free false, as [World.Wall] does) or frees (free true, as
// [World.Erase]) the cells of every rectangle of rs, as one edit: the
// stroke of a brush over a frame. The graph is updated and the paths
// repaired once, for the bounding box of what changed, which it returns.
func (w *World) Paint(rs []image.Rectangle, free bool) (image.Rectangle, error) {
	v := w.g.Version()
	var changed image.Rectangle
	for _, r := range rs {
		r = r.Intersect(w.g.Bounds())
		if r.Empty() {
			continue
		}
		before := w.g.Version()
		w.set(r, free)
		if w.g.Version() != before {
			changed = changed.Union(r)
		}
	}
	if w.g.Version() == v {
		return image.Rectangle{}, nil
	}
	w.stats.Edits++
	h, err := w.h.Update(w.g, changed)
	if err != nil {
		return changed, fmt.Errorf("sim: %w", err)
	}
	w.h = h
	for i := range w.units {
		u := &w.units[i]
		p := &u.path
		if p.Status() == agent.Queued || p.Status() == agent.Idle {
			continue // the queue searches the edited grid
		}
		switch w.planner.Repair(p, changed) {
		case agent.Mended:
			w.stats.Mended++
		case agent.Broken:
			w.stats.Broken++
			w.request(u, 1)
		}
	}
	w.findRoute()
	return changed, nil
}

// set makes the cells of r, which lies on the map, free or blocked; blocked
// cells skip those units stand in.
func (w *World) set(r image.Rectangle, free bool) {
	if free || !w.occupied(r) {
		w.g.SetCells(r, free)
		return
	}
	// Row by row, in runs between the cells that units stand in.
	for y := r.Min.Y; y < r.Max.Y; y++ {
		x0 := r.Min.X
		for x := r.Min.X; x <= r.Max.X; x++ {
			if x < r.Max.X && !w.occupied(image.Rect(x, y, x+1, y+1)) {
				continue
			}
			if x > x0 {
				w.g.SetCells(image.Rect(x0, y, x, y+1), false)
			}
			x0 = x + 1
		}
	}
}

// occupied reports whether a unit stands in a cell of r.
func (w *World) occupied(r image.Rectangle) bool {
	for i := range w.units {
		if w.units[i].Cell().In(r) {
			return true
		}
	}
	return false
}
