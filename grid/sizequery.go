package grid

import (
	"fmt"
	"image"

	"github.com/cairn-nav/cairn/core"
)

// Searches for units larger than a cell (Query.Size) on the grid itself:
// the moves and costs of the grid Sized(k) returns, read from this grid's
// cells as the search goes.

// setupSize checks a query with a Size other than 0 or 1 and its ends,
// and prepares the search for the unit; regions is false, as the grid's
// regions are a one-cell unit's.
func (c *query) setupSize(q Query, from, to image.Point) (regions bool, err error) {
	g := c.g
	switch {
	case q.Size < 0 || q.Size > MaxClearance:
		return false, fmt.Errorf("grid: unit size %d, want 1 to %d", q.Size, MaxClearance)
	case q.Filter != nil:
		return false, fmt.Errorf("grid: a query of unit size %d with a filter: search the grid Derived(%d, filter) returns", q.Size, q.Size)
	}
	for _, e := range [2]struct {
		p    image.Point
		what string
	}{{from, "start"}, {to, "goal"}} {
		if err := g.checkEnd(e.p, e.what); err != nil {
			return false, err
		}
		if cl := g.Clearance(e.p); cl < q.Size {
			return false, fmt.Errorf("grid: %s (%d,%d) has clearance %d, too little for a unit of size %d", e.what, e.p.X, e.p.Y, cl, q.Size)
		}
	}
	c.q.size = q.Size
	return false, nil
}

// fits reports whether a unit of q.size may stand with its anchor at
// padded cell n.
func (q *queryGraph) fits(n int32) bool {
	g := q.g
	if !g.free[n] {
		return false
	}
	p := g.pxy(n)
	return g.clearance(p.X, p.Y, q.size) >= q.size
}

// footCost returns the multiplier of anchor n: the largest terrain
// multiplier of the unit's square there.
func (q *queryGraph) footCost(n int32) float64 {
	g := q.g
	m := 0.0
	for dy := range q.size {
		row := n + int32(dy*g.pw)
		for dx := range int32(q.size) {
			m = max(m, g.cost[row+dx])
		}
	}
	return m
}

// sizedEdges appends the unit's moves from anchor n, as Sized's grid has
// them: to every neighbouring anchor where it fits, diagonally only where
// both side anchors fit too.
func (q *queryGraph) sizedEdges(dst []core.Edge, n int32) []core.Edge {
	g := q.g
	dirs := numDirs
	if g.conn == Four {
		dirs = dirSE
	}
	var mn float64
	if g.cost != nil {
		mn = q.footCost(n)
	}
	for d := range dirs {
		to := n + g.off[d]
		if !q.fits(to) {
			continue
		}
		if d >= dirSE && (!q.fits(n+g.off[compH[d]]) || !q.fits(n+g.off[compV[d]])) {
			continue
		}
		c := baseCost[d]
		if g.cost != nil {
			c *= (mn + q.footCost(to)) / 2
		}
		dst = append(dst, core.Edge{To: to, Cost: c})
	}
	return dst
}
