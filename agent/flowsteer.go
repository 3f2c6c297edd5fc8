package agent

import (
	"image"

	"github.com/cairn-nav/cairn/grid"
	"github.com/go-gl/mathgl/mgl64"
)

// Flow sends agents toward one goal a move at a time: a [FlowField] (exact
// distances over the whole grid) and an hpa.FlowField (built lazily over
// the clusters agents pass through) both are one.
type Flow interface {
	// Next returns the neighbouring cell to step to from p, false at the
	// goal or where the goal cannot be reached.
	Next(p image.Point) (image.Point, bool)
	// Dist returns the flow's distance from p to the goal, false where
	// it cannot be reached.
	Dist(p image.Point) (float64, bool)
}

// SteerFlow returns the point an agent at pos on grid g should move toward
// to follow flow f, and whether it has arrived: it follows f's moves from
// the agent's cell for up to lookahead steps (at least 1) and returns the
// centre of the farthest of those cells that the straight segment from pos
// reaches ([grid.Grid.SegmentFree]), or the centre of the agent's own cell
// when none does. It reports arrival when the agent's cell is the goal
// (distance 0), with the goal's centre as the target, and with ok false
// when the agent's cell cannot reach the goal (the target is then pos).
//
// As with [Path.Steer], an agent that moves straight toward the target,
// by no more than its distance to it, never enters a blocked cell. It
// costs O(lookahead) calls of f and O(lookahead²) cell reads; it allocates
// only if f does (an hpa.FlowField grows its store as agents enter new
// clusters).
func SteerFlow(g *grid.Grid, f Flow, pos mgl64.Vec2, lookahead int) (target mgl64.Vec2, done, ok bool) {
	c := CellOf(pos)
	d, ok := f.Dist(c)
	if !ok {
		return pos, false, false
	}
	if d == 0 {
		return Centre(c), true, true
	}
	target = Centre(c)
	p := c
	for range max(lookahead, 1) {
		q, more := f.Next(p)
		if !more {
			break
		}
		if g.SegmentFree(pos, Centre(q)) {
			target = Centre(q)
		}
		p = q
	}
	return target, false, true
}
