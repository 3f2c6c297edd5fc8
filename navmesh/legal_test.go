package navmesh_test

import (
	"fmt"
	"image"
	"math"

	"github.com/cairn-nav/cairn/grid"
	"github.com/go-gl/mathgl/mgl64"
)

// This file holds the exact legality checker and the any-angle oracle the
// tests measure paths against. They use no navmesh code.
//
// A straight leg is legal for a point agent on a grid when it crosses the
// interior of no blocked cell (cells outside the grid are blocked), does not
// run along the line between two blocked cells, and does not pass through a
// grid corner where two diagonally opposite cells are blocked (a pinched
// corner; its end points may lie on one). A path is legal when its legs are
// and it does not turn at a pinched corner. Coordinates are
// scaled by fixScale to integers, so every decision is exact for points on
// the 1/65536 lattice (cell centres, cell corners, and the test's random
// points).

const fixScale = 1 << 16

func toFix(v float64) (int64, error) {
	s := v * fixScale
	if s != math.Trunc(s) || math.Abs(s) > 1<<40 {
		return 0, fmt.Errorf("coordinate %v is not on the 1/%d lattice", v, fixScale)
	}
	return int64(s), nil
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func blockedAt(g *grid.Grid, x, y int64) bool {
	return !g.Passable(image.Pt(int(x), int(y)))
}

// pinch reports whether grid corner (i, j) has two diagonally opposite
// blocked cells around it.
func pinch(g *grid.Grid, i, j int64) bool {
	tl, tr := blockedAt(g, i-1, j-1), blockedAt(g, i, j-1)
	bl, br := blockedAt(g, i-1, j), blockedAt(g, i, j)
	return (tl && br) || (tr && bl)
}

// frac is n/d with d > 0.
type frac struct{ n, d int64 }

func fless(a, b frac) bool { return a.n*b.d < b.n*a.d }

// segHitsSquare reports whether the open segment a–b meets the open square
// (x0, x1) × (y0, y1), all scaled.
func segHitsSquare(ax, ay, bx, by, x0, y0, x1, y1 int64) bool {
	lo, hi := frac{0, 1}, frac{1, 1}
	axis := func(a, d, s0, s1 int64) bool {
		if d == 0 {
			return s0 < a && a < s1
		}
		l, h := frac{s0 - a, d}, frac{s1 - a, d}
		if d < 0 {
			l, h = frac{a - s1, -d}, frac{a - s0, -d}
		}
		if fless(lo, l) {
			lo = l
		}
		if fless(h, hi) {
			hi = h
		}
		return true
	}
	return axis(ax, bx-ax, x0, x1) && axis(ay, by-ay, y0, y1) && fless(lo, hi)
}

// legalLeg returns nil when the segment a–b is legal, else what is wrong.
func legalLeg(g *grid.Grid, a, b mgl64.Vec2) error {
	var c [4]int64
	for i, v := range [4]float64{a[0], a[1], b[0], b[1]} {
		var err error
		if c[i], err = toFix(v); err != nil {
			return err
		}
	}
	const S = fixScale
	ax, ay, bx, by := c[0], c[1], c[2], c[3]
	dx, dy := bx-ax, by-ay
	if dx == 0 && dy == 0 {
		return legalPoint(g, a, false)
	}
	minX, maxX, minY, maxY := min(ax, bx), max(ax, bx), min(ay, by), max(ay, by)
	// Blocked cells whose interior the open segment crosses.
	for cx := floorDiv(minX, S) - 1; cx <= floorDiv(maxX, S); cx++ {
		cy0, cy1 := floorDiv(minY, S)-1, floorDiv(maxY, S)
		if dx != 0 {
			xl, xr := max(cx*S, minX), min((cx+1)*S, maxX)
			if xl > xr {
				continue
			}
			yl, yr := ay+(xl-ax)*dy/dx, ay+(xr-ax)*dy/dx
			cy0, cy1 = floorDiv(min(yl, yr), S)-1, floorDiv(max(yl, yr), S)+1
		}
		for cy := cy0; cy <= cy1; cy++ {
			if blockedAt(g, cx, cy) && segHitsSquare(ax, ay, bx, by, cx*S, cy*S, (cx+1)*S, (cy+1)*S) {
				return fmt.Errorf("crosses blocked cell (%d,%d)", cx, cy)
			}
		}
	}
	// Runs along a grid line between two blocked cells.
	if dx == 0 && ax%S == 0 {
		k := ax / S
		for j := floorDiv(minY, S); j*S < maxY; j++ {
			if blockedAt(g, k-1, j) && blockedAt(g, k, j) {
				return fmt.Errorf("runs between blocked cells (%d,%d) and (%d,%d)", k-1, j, k, j)
			}
		}
	}
	if dy == 0 && ay%S == 0 {
		k := ay / S
		for i := floorDiv(minX, S); i*S < maxX; i++ {
			if blockedAt(g, i, k-1) && blockedAt(g, i, k) {
				return fmt.Errorf("runs between blocked cells (%d,%d) and (%d,%d)", i, k-1, i, k)
			}
		}
	}
	// Grid corners inside the segment (an end point only touches).
	end := func(i, j int64) bool { return (i*S == ax && j*S == ay) || (i*S == bx && j*S == by) }
	for i := floorDiv(minX+S-1, S); i*S <= maxX; i++ {
		if dx == 0 {
			for j := floorDiv(minY+S-1, S); j*S <= maxY; j++ {
				if !end(i, j) && pinch(g, i, j) {
					return fmt.Errorf("passes through pinched corner (%d,%d)", i, j)
				}
			}
			continue
		}
		num, den := ay*dx+(i*S-ax)*dy, dx*S // y = num/dx, in cells num/den
		if num%den == 0 && !end(i, num/den) && pinch(g, i, num/den) {
			return fmt.Errorf("passes through pinched corner (%d,%d)", i, num/den)
		}
	}
	return nil
}

// legalPoint reports whether p is in the closed free space, and, when the
// path passes through it (through is true), not on a pinched corner.
func legalPoint(g *grid.Grid, p mgl64.Vec2, through bool) error {
	x, y := math.Floor(p[0]), math.Floor(p[1])
	free := false
	for _, d := range [4][2]float64{{0, 0}, {-1, 0}, {0, -1}, {-1, -1}} {
		if (d[0] == 0 || x == p[0]) && (d[1] == 0 || y == p[1]) && !blockedAt(g, int64(x+d[0]), int64(y+d[1])) {
			free = true
		}
	}
	if !free {
		return fmt.Errorf("point %v is not in free space", p)
	}
	if through && x == p[0] && y == p[1] && pinch(g, int64(x), int64(y)) {
		return fmt.Errorf("point %v is a pinched corner", p)
	}
	return nil
}

// checkPath checks that path runs legally from from to to and returns its
// length.
func checkPath(g *grid.Grid, path []mgl64.Vec2, from, to mgl64.Vec2) (float64, error) {
	if len(path) == 0 {
		return 0, fmt.Errorf("empty path")
	}
	if path[0] != from || path[len(path)-1] != to {
		return 0, fmt.Errorf("path runs from %v to %v, want %v to %v", path[0], path[len(path)-1], from, to)
	}
	if len(path) == 1 && from != to {
		return 0, fmt.Errorf("single-point path between different points")
	}
	var length float64
	for i, p := range path {
		if err := legalPoint(g, p, i > 0 && i < len(path)-1); err != nil {
			return 0, fmt.Errorf("point %d: %w", i, err)
		}
		if i == 0 {
			continue
		}
		if path[i-1] == p {
			return 0, fmt.Errorf("point %d repeats %v", i, p)
		}
		if err := legalLeg(g, path[i-1], p); err != nil {
			return 0, fmt.Errorf("leg %d %v–%v: %w", i, path[i-1], p, err)
		}
		length += p.Sub(path[i-1]).Len()
	}
	return length, nil
}

// anyAngle is the exact any-angle shortest path oracle: Dijkstra on the
// visibility graph of the start, the goal, and the grid corners with
// exactly one blocked cell around them (the convex corners of the walls,
// where shortest paths turn), with legalLeg as the visibility test.
type anyAngle struct {
	g       *grid.Grid
	corners []mgl64.Vec2
	vis     [][]float64 // between corners; +Inf when not visible
}

func newAnyAngle(g *grid.Grid) *anyAngle {
	o := &anyAngle{g: g}
	for j := int64(0); j <= int64(g.Height()); j++ {
		for i := int64(0); i <= int64(g.Width()); i++ {
			n := 0
			for _, d := range [4][2]int64{{-1, -1}, {0, -1}, {-1, 0}, {0, 0}} {
				if blockedAt(g, i+d[0], j+d[1]) {
					n++
				}
			}
			if n == 1 {
				o.corners = append(o.corners, mgl64.Vec2{float64(i), float64(j)})
			}
		}
	}
	o.vis = make([][]float64, len(o.corners))
	for a := range o.corners {
		o.vis[a] = make([]float64, len(o.corners))
	}
	for a := range o.corners {
		for b := a + 1; b < len(o.corners); b++ {
			d := math.Inf(1)
			if legalLeg(o.g, o.corners[a], o.corners[b]) == nil {
				d = o.corners[a].Sub(o.corners[b]).Len()
			}
			o.vis[a][b], o.vis[b][a] = d, d
		}
	}
	return o
}

// dist returns the length of the shortest legal path from from to to.
func (o *anyAngle) dist(from, to mgl64.Vec2) float64 {
	if legalLeg(o.g, from, to) == nil {
		return from.Sub(to).Len()
	}
	n := len(o.corners)
	dist := make([]float64, n)
	done := make([]bool, n)
	toGoal := make([]float64, n)
	for i, c := range o.corners {
		dist[i], toGoal[i] = math.Inf(1), math.Inf(1)
		if legalLeg(o.g, from, c) == nil {
			dist[i] = from.Sub(c).Len()
		}
		if legalLeg(o.g, c, to) == nil {
			toGoal[i] = c.Sub(to).Len()
		}
	}
	best := math.Inf(1)
	for {
		u := -1
		for i := range dist {
			if !done[i] && (u < 0 || dist[i] < dist[u]) {
				u = i
			}
		}
		if u < 0 || math.IsInf(dist[u], 1) || dist[u] >= best {
			return best
		}
		done[u] = true
		best = math.Min(best, dist[u]+toGoal[u])
		for v, w := range o.vis[u] {
			if !done[v] && dist[u]+w < dist[v] {
				dist[v] = dist[u] + w
			}
		}
	}
}
