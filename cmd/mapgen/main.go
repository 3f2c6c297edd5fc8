// Command mapgen makes Moving AI .map files for demos and benchmarks: a
// generated game-like world (mapgen.World), or an existing map enlarged k
// times (mapgen.Scale).
//
// Usage:
//
//	mapgen world -o FILE.map [-size N] [-seed S]
//	mapgen scale -map IN.map -k K -o OUT.map [-scen IN.scen -scen-o OUT.scen [-longest N]]
//	mapgen pairs -map M.map -o M.map.scen [-n N] [-apart D] [-seed S]
//
// With -scen, scale also writes the map's scenarios for the scaled map: each
// start and goal moved to the middle of its k×k block, and each optimal
// length computed again on the scaled map by the plain reference A* (a
// scaled map's optimum can be shorter than k times the original's, since
// paths can hug corners more tightly).
//
// pairs writes a scenario file of n random queries for benchmarks on a map
// without one (a generated world): start and goal drawn uniformly from the
// free cells of the largest region, at least D cells apart along one axis,
// each optimal length from the exact grid search (jump points, which
// match every Moving AI optimum).
//
// It writes its files atomically (a temporary file in the same directory,
// synced, then renamed over the target) and prints the map's size, its
// fraction of free cells, its connected regions and the times taken on
// stdout. Bad input gives one line on stderr starting with "mapgen: " and
// exit status 2 for usage errors, 1 for others.
package main

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"image"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/cairn-nav/cairn/cmd/internal/cli"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/atomicfile"
	"github.com/cairn-nav/cairn/internal/baseline"
	"github.com/cairn-nav/cairn/mapgen"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run is the whole command, with its exit status as result. Errors from
// package mapgen already start with "mapgen: ", which is not said twice.
func run(args []string, stdout, stderr io.Writer) int {
	return cli.Program{Name: "mapgen", TrimPrefix: "mapgen: "}.ExitStatus(stderr, dispatch(args, stdout))
}

const usage = `usage:
  mapgen world -o FILE.map [-size N] [-seed S]
  mapgen scale -map IN.map -k K -o OUT.map
  mapgen pairs -map M.map -o M.map.scen [-n N] [-apart D] [-seed S]

world  generates a deterministic game-like world of N×N cells
scale  enlarges a map K times, each cell becoming K×K cells
pairs  writes N random long queries of a map's largest region, with optima

"mapgen COMMAND -h" lists a command's flags. Errors give one line on
stderr and exit status 2 (usage) or 1 (other).
`

func dispatch(args []string, stdout io.Writer) error {
	if len(args) == 0 {
		return cli.Usagef("no command; want world, scale or pairs (see mapgen -h)")
	}
	switch args[0] {
	case "world":
		return world(args[1:], stdout)
	case "scale":
		return scale(args[1:], stdout)
	case "pairs":
		return pairs(args[1:], stdout)
	case "-h", "-help", "--help", "help":
		_, err := io.WriteString(stdout, usage)
		return err
	}
	return cli.Usagef("unknown command %q; want world, scale or pairs (see mapgen -h)", args[0])
}

// parse parses a command's flags; help is true after -h, which printed the
// command's usage on stdout.
func parse(fs *flag.FlagSet, synopsis string, args []string, stdout io.Writer) (help bool, err error) {
	fs.SetOutput(io.Discard)
	err = fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprintf(stdout, "usage: %s\n\nFlags:\n", synopsis)
		fs.SetOutput(stdout)
		fs.PrintDefaults()
		return true, nil
	}
	if err != nil {
		return false, cli.Usagef("%s: %v (see mapgen %s -h)", fs.Name(), err, fs.Name())
	}
	if fs.NArg() > 0 {
		return false, cli.Usagef("%s: unexpected argument %q (see mapgen %s -h)", fs.Name(), fs.Arg(0), fs.Name())
	}
	return false, nil
}

func world(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("world", flag.ContinueOnError)
	out := fs.String("o", "", "Moving AI .map `file` to write (required)")
	size := fs.Int("size", mapgen.DefaultSize, fmt.Sprintf("width and height in cells, `N` from %d to %d", mapgen.MinSize, maxSide))
	seed := fs.Uint64("seed", 0, "`S` selects the world; the same seed and size give the same map")
	if help, err := parse(fs, "mapgen world -o FILE.map [-size N] [-seed S]", args, stdout); help || err != nil {
		return err
	}
	switch {
	case *out == "":
		return cli.Usagef("world: -o is required")
	case *size < mapgen.MinSize || *size > maxSide:
		return cli.Usagef("world: -size %d, want %d to %d", *size, mapgen.MinSize, maxSide)
	}
	if err := atomicfile.Check(*out); err != nil {
		return fmt.Errorf("world: -o %w", err)
	}
	t0 := time.Now()
	g, err := mapgen.World(mapgen.WorldOptions{Seed: *seed, Width: *size, Height: *size})
	if err != nil {
		return err
	}
	gen := time.Since(t0)
	return save(stdout, *out, g, fmt.Sprintf("world of seed %d", *seed), gen)
}

// maxSide is the largest side of a square grid.
var maxSide = int(math.Sqrt(grid.MaxCells))

func scale(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("scale", flag.ContinueOnError)
	in := fs.String("map", "", "Moving AI .map `file` to enlarge (required)")
	k := fs.Int("k", 0, "scale factor `K` ≥ 1: each cell becomes K×K cells (required)")
	out := fs.String("o", "", "Moving AI .map `file` to write (required)")
	scenIn := fs.String("scen", "", "Moving AI .scen `file` of the input map, to scale as well")
	scenOut := fs.String("scen-o", "", "Moving AI .scen `file` to write the scaled scenarios to (required with -scen)")
	longest := fs.Int("longest", 0, "with -scen, keep only the `N` scenarios with the longest optima (0: all; each\nscaled optimum costs a plain A* search, about a second at 4096²)")
	if help, err := parse(fs, "mapgen scale -map IN.map -k K -o OUT.map [-scen IN.scen -scen-o OUT.scen [-longest N]]", args, stdout); help || err != nil {
		return err
	}
	switch {
	case *in == "":
		return cli.Usagef("scale: -map is required")
	case *out == "":
		return cli.Usagef("scale: -o is required")
	case *k < 1:
		return cli.Usagef("scale: -k %d, want 1 or more", *k)
	case cli.SameFile(*in, *out):
		return cli.Usagef("scale: -o %s is the input map itself", *out)
	case (*scenIn == "") != (*scenOut == ""):
		return cli.Usagef("scale: -scen and -scen-o go together")
	case *longest < 0:
		return cli.Usagef("scale: -longest %d, want 0 or more", *longest)
	case *longest > 0 && *scenIn == "":
		return cli.Usagef("scale: -longest needs -scen")
	case *scenOut != "" && (cli.SameFile(*scenIn, *scenOut) || cli.SameFile(*in, *scenOut)):
		return cli.Usagef("scale: -scen-o %s is an input file", *scenOut)
	case *scenOut != "" && *scenOut == *out:
		return cli.Usagef("scale: -scen-o and -o are the same file")
	}
	for _, f := range []struct{ flag, path string }{{"-o", *out}, {"-scen-o", *scenOut}} {
		if f.path == "" {
			continue
		}
		if err := atomicfile.Check(f.path); err != nil {
			return fmt.Errorf("scale: %s %w", f.flag, err)
		}
	}
	t0 := time.Now()
	g, err := grid.Load(*in, grid.LoadOptions{})
	if err != nil {
		return err
	}
	var scens []grid.Scenario
	if *scenIn != "" {
		if scens, err = grid.LoadScenarios(*scenIn); err != nil {
			return err
		}
		for i, sc := range scens {
			if err := sc.Check(g); err != nil {
				return fmt.Errorf("%s: scenario %d: %w", *scenIn, i+1, err)
			}
		}
	}
	s, err := mapgen.Scale(g, *k)
	if err != nil {
		return err
	}
	gen := time.Since(t0)
	if err := save(stdout, *out, s, fmt.Sprintf("%s (%d×%d) scaled %d times", *in, g.Width(), g.Height(), *k), gen); err != nil {
		return err
	}
	if *scenIn == "" {
		return nil
	}
	t0 = time.Now()
	scaled, err := scaleScenarios(s, scens, *k, *longest, filepath.Base(*out))
	if err != nil {
		return err
	}
	took := time.Since(t0)
	if _, err := atomicfile.Write(*scenOut, func(w io.Writer) error { return grid.WriteScenarios(w, scaled) }); err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "scenarios %s: %d of %d, optima by plain A* in %.1f s\n", *scenOut, len(scaled), len(scens), took.Seconds())
	return err
}

// scaleScenarios returns the scenarios of scens, or the n with the longest
// optima when n > 0 (the longest first, ties in file order), for g, their
// map scaled k times and named name: each start and goal moved to the
// middle of its k×k block, each optimum found again by the plain reference
// A*.
func scaleScenarios(g *grid.Grid, scens []grid.Scenario, k, n int, name string) ([]grid.Scenario, error) {
	scens = slices.Clone(scens)
	if n > 0 {
		slices.SortStableFunc(scens, func(a, b grid.Scenario) int { return cmp.Compare(b.Optimal, a.Optimal) })
		scens = scens[:min(n, len(scens))]
	}
	bs := baseline.New(g)
	mid := image.Pt(k/2, k/2)
	for i := range scens {
		sc := &scens[i]
		sc.Map, sc.Width, sc.Height = name, g.Width(), g.Height()
		sc.Start, sc.Goal = sc.Start.Mul(k).Add(mid), sc.Goal.Mul(k).Add(mid)
		_, cost, _, ok := bs.AppendPath(nil, sc.Start, sc.Goal)
		if !ok {
			return nil, fmt.Errorf("scale: scenario from (%d,%d) to (%d,%d) has no path on the scaled map", sc.Start.X, sc.Start.Y, sc.Goal.X, sc.Goal.Y)
		}
		sc.Optimal, sc.Decimals, sc.Bucket = cost, 8, int(cost/4)
	}
	return scens, nil
}

// save writes g to path and prints what it wrote.
func save(stdout io.Writer, path string, g *grid.Grid, what string, gen time.Duration) error {
	t0 := time.Now()
	n, err := writeMap(path, g)
	if err != nil {
		return err
	}
	write := time.Since(t0)

	free, largest := 0, 0
	size := make([]int, g.NumRegions())
	for y := range g.Height() {
		for x := range g.Width() {
			if r := g.Region(image.Pt(x, y)); r >= 0 {
				size[r]++
				free++
				largest = max(largest, size[r])
			}
		}
	}
	cells := g.Width() * g.Height()
	w := &errWriter{w: stdout}
	w.printf("map       %s\n", path)
	w.printf("source    %s\n", what)
	w.printf("size      %d×%d (%d cells)\n", g.Width(), g.Height(), cells)
	w.printf("free      %.4f (%d cells)\n", float64(free)/float64(cells), free)
	if free > 0 {
		w.printf("regions   %d (largest %.4f of free cells)\n", g.NumRegions(), float64(largest)/float64(free))
	} else {
		w.printf("regions   0\n")
	}
	w.printf("generate  %.1f ms\n", float64(gen.Microseconds())/1e3)
	w.printf("write     %.1f ms (%d bytes)\n", float64(write.Microseconds())/1e3, n)
	return w.err
}

// writeMap writes g as a Moving AI map to path atomically and returns the
// file's size.
func writeMap(path string, g *grid.Grid) (int64, error) {
	return atomicfile.Write(path, func(w io.Writer) error { return grid.WriteMap(w, g) })
}

// errWriter prints until the first error and keeps it.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}
