package main

import (
	"flag"
	"fmt"
	"image"
	"io"
	"math/rand/v2"
	"path/filepath"
	"time"

	"github.com/cairn-nav/cairn/cmd/internal/cli"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/atomicfile"
)

// maxPairs is the most pairs a file gets (each costs a grid search).
const maxPairs = 1_000_000

// maxDraws bounds the draws of pairs, per pair wanted, before pairs gives
// up on a distance the region does not allow often enough.
const maxDraws = 100_000

// pairs writes a scenario file of random long queries on a map: start and
// goal drawn uniformly from the free cells of its largest region, at
// least -apart cells apart along one axis, each with its optimal length
// from the exact grid search.
func pairs(args []string, stdout io.Writer) error {
	const synopsis = "mapgen pairs -map M.map -o M.map.scen [-n N] [-apart D] [-seed S]"
	fs := flag.NewFlagSet("pairs", flag.ContinueOnError)
	in := fs.String("map", "", "Moving AI .map `file` to draw the pairs on (required)")
	out := fs.String("o", "", "Moving AI .scen `file` to write (required)")
	n := fs.Int("n", 20, "`N` pairs")
	apart := fs.Int("apart", 0, "each pair's start and goal at least `D` cells apart along the x or the y axis (Chebyshev)")
	seed := fs.Uint64("seed", 1, "`S` selects the pairs; the same map, seed, n and apart give the same file")
	if help, err := parse(fs, synopsis, args, stdout); help || err != nil {
		return err
	}
	switch {
	case *in == "":
		return cli.Usagef("pairs: -map is required")
	case *out == "":
		return cli.Usagef("pairs: -o is required")
	case cli.SameFile(*in, *out):
		return cli.Usagef("pairs: -o %s is the map itself", *out)
	case *n < 1 || *n > maxPairs:
		return cli.Usagef("pairs: -n %d, want 1 to %d", *n, maxPairs)
	case *apart < 0:
		return cli.Usagef("pairs: -apart %d, want 0 or more", *apart)
	}
	if err := atomicfile.Check(*out); err != nil {
		return fmt.Errorf("pairs: -o %w", err)
	}
	g, err := grid.Load(*in, grid.LoadOptions{})
	if err != nil {
		return err
	}
	t0 := time.Now()
	scens, err := drawPairs(g, *n, *apart, *seed, filepath.Base(*in))
	if err != nil {
		return err
	}
	took := time.Since(t0)
	if _, err := atomicfile.Write(*out, func(w io.Writer) error { return grid.WriteScenarios(w, scens) }); err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "scenarios %s: %d pairs at least %d apart, optima by the grid search in %.1f s\n", *out, len(scens), *apart, took.Seconds())
	return err
}

// drawPairs returns n scenarios on g, named name: pairs of free cells of
// g's largest region at least apart cells apart along one axis, drawn
// with seed, each with its optimal length. It fails when the region has
// no free cell, or when maxDraws draws a pair give too few such pairs.
func drawPairs(g *grid.Grid, n, apart int, seed uint64, name string) ([]grid.Scenario, error) {
	cell, size := g.LargestRegion()
	if size == 0 {
		return nil, fmt.Errorf("pairs: the map has no free cell")
	}
	r := rand.New(rand.NewPCG(seed, 0x7061697273))
	s := grid.NewSearcher(g)
	var path []image.Point
	scens := make([]grid.Scenario, 0, n)
	for draws := 0; len(scens) < n; draws++ {
		if draws == maxDraws*n {
			return nil, fmt.Errorf("pairs: %d draws gave only %d of %d pairs at least %d apart in the largest region (%d cells)", draws, len(scens), n, apart, size)
		}
		a, _ := g.RandomFree(r, cell)
		b, _ := g.RandomFree(r, cell)
		if d := a.Sub(b); max(d.X, -d.X, d.Y, -d.Y) < apart {
			continue
		}
		var res grid.Result
		var err error
		if path, res, err = s.AppendPath(path[:0], a, b, grid.Query{}); err != nil {
			return nil, err
		}
		scens = append(scens, grid.Scenario{Map: name, Width: g.Width(), Height: g.Height(), Start: a, Goal: b,
			Optimal: res.Cost, Decimals: 8, Bucket: int(res.Cost / 4)})
	}
	return scens, nil
}
