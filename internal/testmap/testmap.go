// Package testmap holds the helpers that Cairn's tests share: a parser for
// small grids drawn in ASCII, a renderer for failure messages, seeded random
// grids, an independent Dijkstra oracle built on gonum, and a path checker.
//
// Drawings use one character per cell, row 0 first:
//
//	.      free cell
//	# @    blocked cell
//	S      start (free)
//	G      goal (free)
//	*      a cell of the expected path (free)
//	1..9   free cell with that terrain multiplier
//
// Leading and trailing white space is trimmed from every line and blank lines
// are dropped, so drawings can be indented inside Go raw strings.
//
// The helpers are for tests: they may be slow, and [Random] and [RandomCosts]
// panic on bad arguments.
package testmap

import (
	"fmt"
	"image"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/cairn-nav/cairn/grid"
)

// Map is a parsed drawing.
type Map struct {
	Grid *grid.Grid
	// Start and Goal are the cells drawn as 'S' and 'G', or (-1,-1) when the
	// drawing has none.
	Start, Goal image.Point
	// Path holds the cells drawn as '*' together with S and G, in no
	// particular order; it is nil when the drawing has no '*'.
	Path []image.Point
}

// Parse builds a grid from a drawing. Digits give terrain multipliers: when
// the drawing has any, the grid is built with [grid.Options.Costs] (1 for all
// other cells), replacing opt.Costs. It returns an error for ragged rows,
// unknown characters, or more than one S or G.
func Parse(ascii string, opt grid.Options) (*Map, error) {
	var rows []string
	for line := range strings.Lines(ascii) {
		if line = strings.TrimSpace(line); line != "" {
			rows = append(rows, line)
		}
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("testmap: empty drawing")
	}
	w, h := len(rows[0]), len(rows)
	m := &Map{Start: image.Pt(-1, -1), Goal: image.Pt(-1, -1)}
	free := make([]bool, w*h)
	costs := make([]float64, w*h)
	hasCosts, hasPath := false, false
	for y, row := range rows {
		if len(row) != w {
			return nil, fmt.Errorf("testmap: row %d has %d cells, want %d", y, len(row), w)
		}
		for x := range w {
			c := row[x]
			p := image.Pt(x, y)
			i := y*w + x
			free[i], costs[i] = true, 1
			switch {
			case c == '.':
			case c == '#' || c == '@':
				free[i] = false
			case c == 'S' || c == 'G':
				end := &m.Start
				if c == 'G' {
					end = &m.Goal
				}
				if *end != image.Pt(-1, -1) {
					return nil, fmt.Errorf("testmap: second %c at %v", c, p)
				}
				*end = p
				m.Path = append(m.Path, p)
			case c == '*':
				hasPath = true
				m.Path = append(m.Path, p)
			case c >= '1' && c <= '9':
				hasCosts = true
				costs[i] = float64(c - '0')
			default:
				return nil, fmt.Errorf("testmap: unknown character %q at %v", c, p)
			}
		}
	}
	if !hasPath {
		m.Path = nil
	}
	if hasCosts {
		opt.Costs = costs
	}
	g, err := grid.New(w, h, free, opt)
	if err != nil {
		return nil, fmt.Errorf("testmap: %w", err)
	}
	m.Grid = g
	return m, nil
}

// Render draws g with path on it: '#' for blocked cells, '.' for free ones (a
// digit for an integer terrain multiplier from 2 to 9), '*' for the cells of
// path, and 'S' and 'G' at its first and last cells.
func Render(g *grid.Grid, path []image.Point) string {
	w, h := g.Width(), g.Height()
	buf := make([][]byte, h)
	for y := range buf {
		buf[y] = make([]byte, w)
		for x := range buf[y] {
			p := image.Pt(x, y)
			c := byte('#')
			if g.Passable(p) {
				c = '.'
				if m := g.Cost(p); m >= 2 && m <= 9 && m == float64(int(m)) {
					c = '0' + byte(m)
				}
			}
			buf[y][x] = c
		}
	}
	for i, p := range path {
		if !g.In(p) {
			continue
		}
		c := byte('*')
		switch i {
		case 0:
			c = 'S'
		case len(path) - 1:
			c = 'G'
		}
		buf[p.Y][p.X] = c
	}
	var sb strings.Builder
	for _, row := range buf {
		sb.Write(row)
		sb.WriteByte('\n')
	}
	return sb.String()
}

// SameCells reports whether a and b hold the same set of cells, ignoring
// order and repeats.
func SameCells(a, b []image.Point) bool {
	return slices.Equal(cellSet(a), cellSet(b))
}

func cellSet(ps []image.Point) []image.Point {
	s := slices.Clone(ps)
	slices.SortFunc(s, func(p, q image.Point) int {
		if p.Y != q.Y {
			return p.Y - q.Y
		}
		return p.X - q.X
	})
	return slices.Compact(s)
}

// AllFree reports whether every cell of r is free in g (true for an empty
// r); r must lie inside g.
func AllFree(g *grid.Grid, r image.Rectangle) bool {
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if !g.Passable(image.Pt(x, y)) {
				return false
			}
		}
	}
	return true
}

// FreeWall returns a wall of k×1 or 1×k cells (each as likely) at a place
// drawn from r where all its cells are free in g. It loops until it finds
// one, so g must have room for it.
func FreeWall(r *rand.Rand, g *grid.Grid, k int) image.Rectangle {
	for {
		p := image.Pt(r.IntN(g.Width()-k+1), r.IntN(g.Height()-k+1))
		wall := image.Rectangle{Min: p, Max: p.Add(image.Pt(k, 1))}
		if r.IntN(2) == 0 {
			wall.Max = p.Add(image.Pt(1, k))
		}
		if AllFree(g, wall) {
			return wall
		}
	}
}

// FreeCells returns the free cells of g in row-major order.
func FreeCells(g *grid.Grid) []image.Point {
	var ps []image.Point
	for y := 0; y < g.Height(); y++ {
		for x := 0; x < g.Width(); x++ {
			if p := image.Pt(x, y); g.Passable(p) {
				ps = append(ps, p)
			}
		}
	}
	return ps
}

// CheckPath checks that path runs from from to to with every step a legal
// move of g, and returns its cost by [grid.Grid.PathCost].
func CheckPath(g *grid.Grid, path []image.Point, from, to image.Point) (float64, error) {
	if len(path) == 0 {
		return 0, fmt.Errorf("testmap: empty path, want one from %v to %v", from, to)
	}
	if path[0] != from {
		return 0, fmt.Errorf("testmap: path starts at %v, want %v", path[0], from)
	}
	if last := path[len(path)-1]; last != to {
		return 0, fmt.Errorf("testmap: path ends at %v, want %v", last, to)
	}
	if !g.Passable(from) {
		return 0, fmt.Errorf("testmap: path starts on %v, which is not free", from)
	}
	for i := 1; i < len(path); i++ {
		if !g.CanStep(path[i-1], path[i]) {
			return 0, fmt.Errorf("testmap: step %d from %v to %v is not a legal move", i, path[i-1], path[i])
		}
	}
	return g.PathCost(path)
}

// Panic calls f and returns the message of its panic, or "" when it
// returns normally.
func Panic(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
			if msg == "" {
				msg = "panic with an empty message"
			}
		}
	}()
	f()
	return ""
}
