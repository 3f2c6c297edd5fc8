// Package baseline is a plain, careful grid A*: the yardstick Cairn's grid
// search is measured against in benchmarks and in `pathfind -algo baseline`.
//
// It is what a competent engineer writes in an afternoon: flat per-cell
// arrays, a hand-written binary heap keyed by f alone (float64), generation
// counters for O(1) reset, the octile heuristic, and neighbours computed on
// the fly with bounds and corner-cutting checks. It knows nothing of Cairn's
// core package, move masks, padding or tie-breaking, and it works on
// 8-connected grids of unit terrain only.
package baseline

import (
	"image"
	"math"

	"github.com/cairn-nav/cairn/grid"
)

type item struct {
	f    float64
	node int32
}

// Searcher is a reusable baseline A* over one grid; not safe for concurrent
// use.
type Searcher struct {
	w, h   int
	free   []bool
	g      []float64
	parent []int32
	stamp  []uint32 // gen: open, gen+1: closed
	gen    uint32
	heap   []item
	rev    []image.Point
}

// New copies the passability of g into flat arrays.
func New(g *grid.Grid) *Searcher {
	w, h := g.Width(), g.Height()
	s := &Searcher{w: w, h: h, free: make([]bool, w*h)}
	for y := range h {
		for x := range w {
			s.free[y*w+x] = g.Passable(image.Pt(x, y))
		}
	}
	s.g = make([]float64, w*h)
	s.parent = make([]int32, w*h)
	s.stamp = make([]uint32, w*h)
	return s
}

func (s *Searcher) octile(n, goal int) float64 {
	dx := n%s.w - goal%s.w
	dy := n/s.w - goal/s.w
	if dx < 0 {
		dx = -dx
	}
	if dy < 0 {
		dy = -dy
	}
	if dx < dy {
		dx, dy = dy, dx
	}
	return float64(dx) + (math.Sqrt2-1)*float64(dy)
}

func (s *Searcher) push(it item) {
	s.heap = append(s.heap, it)
	i := len(s.heap) - 1
	for i > 0 {
		p := (i - 1) / 2
		if s.heap[p].f <= it.f {
			break
		}
		s.heap[i] = s.heap[p]
		i = p
	}
	s.heap[i] = it
}

func (s *Searcher) pop() item {
	top := s.heap[0]
	n := len(s.heap) - 1
	last := s.heap[n]
	s.heap = s.heap[:n]
	i := 0
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && s.heap[c+1].f < s.heap[c].f {
			c++
		}
		if s.heap[c].f >= last.f {
			break
		}
		s.heap[i] = s.heap[c]
		i = c
	}
	if n > 0 {
		s.heap[i] = last
	}
	return top
}

var dxs = [8]int{1, -1, 0, 0, 1, 1, -1, -1}
var dys = [8]int{0, 0, 1, -1, 1, -1, 1, -1}

// AppendPath searches from one free cell to another and appends the path's
// cells to dst. It returns the path cost, the nodes expanded and whether a
// path was found. Start and goal must be free cells of the grid.
func (s *Searcher) AppendPath(dst []image.Point, from, to image.Point) ([]image.Point, float64, int, bool) {
	s.gen += 2
	if s.gen == 0 {
		clear(s.stamp)
		s.gen = 2
	}
	open, closed := s.gen, s.gen+1
	start, goal := from.Y*s.w+from.X, to.Y*s.w+to.X
	s.heap = s.heap[:0]
	s.g[start] = 0
	s.parent[start] = -1
	s.stamp[start] = open
	s.push(item{s.octile(start, goal), int32(start)})
	expanded := 0
	for len(s.heap) > 0 {
		it := s.pop()
		u := int(it.node)
		if s.stamp[u] == closed {
			continue
		}
		if u == goal {
			s.stamp[u] = closed
			return s.appendPath(dst, goal), s.g[goal], expanded, true
		}
		s.stamp[u] = closed
		expanded++
		ux, uy := u%s.w, u/s.w
		for d := range 8 {
			vx, vy := ux+dxs[d], uy+dys[d]
			if vx < 0 || vy < 0 || vx >= s.w || vy >= s.h {
				continue
			}
			v := vy*s.w + vx
			if !s.free[v] {
				continue
			}
			cost := 1.0
			if d >= 4 {
				if !s.free[uy*s.w+vx] || !s.free[vy*s.w+ux] {
					continue
				}
				cost = math.Sqrt2
			}
			if s.stamp[v] == closed {
				continue
			}
			ng := s.g[u] + cost
			if s.stamp[v] == open && ng >= s.g[v] {
				continue
			}
			s.g[v] = ng
			s.parent[v] = int32(u)
			s.stamp[v] = open
			s.push(item{ng + s.octile(v, goal), int32(v)})
		}
	}
	return dst, 0, expanded, false
}

func (s *Searcher) appendPath(dst []image.Point, goal int) []image.Point {
	s.rev = s.rev[:0]
	for n := goal; n >= 0; n = int(s.parent[n]) {
		s.rev = append(s.rev, image.Pt(n%s.w, n/s.w))
	}
	for i := len(s.rev) - 1; i >= 0; i-- {
		dst = append(dst, s.rev[i])
	}
	return dst
}
