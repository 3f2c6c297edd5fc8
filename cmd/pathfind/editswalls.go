package main

import (
	"fmt"
	"image"
	"math/rand/v2"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
)

// placedWall is a wall of "pathfind edits" and the path it was put across.
type placedWall struct {
	rect image.Rectangle
	path []image.Point // a grid path between two cells of one region
	at   int           // the index of the path cell the wall is centred on
}

const (
	// pairTries is how many random pairs of cells are drawn for one long
	// pair; when none is long enough, the longest is taken.
	pairTries = 300
	// wallTries is how many paths are tried for one wall before
	// placeWalls gives up.
	wallTries = 200
)

// placeWalls places n walls of k×1 or 1×k cells on g, each across a random
// long path, where all its cells are free: putting one up blocks them all,
// and taking it down frees them again, which gives back the cells of g as
// they were. Each wall is placed while the one before it still stands,
// and does not overlap it. The walls depend on g and seed alone.
func placeWalls(g *grid.Grid, k, n int, seed uint64) ([]placedWall, error) {
	p := &wallPlacer{
		g:    g,
		k:    k,
		rng:  rand.New(rand.NewPCG(seed, 0x6564697473)),
		s:    grid.NewSearcher(g),
		long: float64(max(g.Width(), g.Height())) / 4,
	}
	walls := make([]placedWall, 0, n)
	for len(walls) < n {
		var standing []image.Rectangle
		if len(walls) > 0 {
			standing = []image.Rectangle{walls[len(walls)-1].rect}
		}
		w, ok := p.place(standing)
		if !ok {
			return nil, fmt.Errorf("placed %d of %d walls of %d×1 or 1×%d cells: no place for the next across %d random paths",
				len(walls), n, k, k, wallTries)
		}
		walls = append(walls, w)
	}
	return walls, nil
}

// wallPlacer puts walls across random long paths of a grid.
type wallPlacer struct {
	g    *grid.Grid
	k    int
	rng  *rand.Rand
	s    *grid.Searcher
	long float64 // how far apart a long pair's cells are: a quarter of the map's larger side
}

// place returns a wall across a random long path, where every cell is free
// and none is in a standing wall; false after wallTries paths without one.
func (p *wallPlacer) place(standing []image.Rectangle) (placedWall, bool) {
	for range wallTries {
		a, b, ok := p.longPair()
		if !ok {
			return placedWall{}, false // no free cell
		}
		path, res, err := p.s.AppendPath(nil, a, b, grid.Query{})
		if err != nil || res.Status != core.Found || len(path) < 3 {
			continue
		}
		if w, ok := p.across(path, standing); ok {
			return w, true
		}
	}
	return placedWall{}, false
}

// longPair returns two cells of one region at least p.long apart in octile
// distance, or the farthest apart of pairTries random pairs; false when g
// has no free cell.
func (p *wallPlacer) longPair() (a, b image.Point, ok bool) {
	best := -1.0
	for range pairTries {
		c, ok := p.g.RandomCell(p.rng)
		if !ok {
			return a, b, false
		}
		d, _ := p.g.RandomFree(p.rng, c)
		if o := grid.Octile(c, d); o > best {
			a, b, best = c, d, o
			if o >= p.long {
				break
			}
		}
	}
	return a, b, true
}

// across walks along path from a random cell of its middle half to its
// end, and returns the first wall that fits across it: at a cell whose
// step (from the cell before to the cell after) is mostly horizontal,
// a vertical wall of 1×k cells; at one mostly vertical, a horizontal wall
// of k×1; at a diagonal one, either, at random. The wall is centred on the
// cell, and shifted inside the map where it would cross the map's edge.
func (p *wallPlacer) across(path []image.Point, standing []image.Rectangle) (placedWall, bool) {
	n := len(path)
	lo, hi := max(1, n/4), min(n-2, n-1-n/4) // the middle half, inner cells only
	if hi < lo {
		return placedWall{}, false
	}
	for i := lo + p.rng.IntN(hi-lo+1); i < n-1; i++ {
		d := path[i+1].Sub(path[i-1])
		dx, dy := max(d.X, -d.X), max(d.Y, -d.Y)
		r := wallAt(path[i], p.k, dx > dy || dx == dy && p.rng.IntN(2) == 0, p.g.Bounds())
		if p.fits(r, standing) {
			return placedWall{rect: r, path: path, at: i}, true
		}
	}
	return placedWall{}, false
}

// wallAt returns the wall of k cells centred on c, vertical (1×k) or
// horizontal (k×1), shifted inside bounds; it sticks out of bounds only
// when k is longer than that side of them.
func wallAt(c image.Point, k int, vertical bool, bounds image.Rectangle) image.Rectangle {
	start := func(c, lo, hi int) int { return max(lo, min(c-k/2, hi-k)) }
	if vertical {
		y := start(c.Y, bounds.Min.Y, bounds.Max.Y)
		return image.Rect(c.X, y, c.X+1, y+k)
	}
	x := start(c.X, bounds.Min.X, bounds.Max.X)
	return image.Rect(x, c.Y, x+k, c.Y+1)
}

// fits reports whether r is inside the map, all its cells are free, and
// it overlaps no standing wall.
func (p *wallPlacer) fits(r image.Rectangle, standing []image.Rectangle) bool {
	if !r.In(p.g.Bounds()) {
		return false
	}
	for _, s := range standing {
		if r.Overlaps(s) {
			return false
		}
	}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if !p.g.Passable(image.Pt(x, y)) {
				return false
			}
		}
	}
	return true
}
