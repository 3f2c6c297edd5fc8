// Command mapgen makes Moving AI .map files for demos and benchmarks: a
// generated game-like world (mapgen.World), or an existing map enlarged k
// times (mapgen.Scale).
//
// Usage:
//
//	mapgen world -o FILE.map [-size N] [-seed S]
//	mapgen scale -map IN.map -k K -o OUT.map
//
// It writes the map atomically (a temporary file in the same directory,
// synced, then renamed over the target) and prints the map's size, its
// fraction of free cells, its connected regions and the times taken on
// stdout. Bad input gives one line on stderr starting with "mapgen: " and
// exit status 2 for usage errors, 1 for others.
package main

import (
	"errors"
	"flag"
	"fmt"
	"image"
	"io"
	"math"
	"os"
	"time"

	"github.com/cairn-nav/cairn/cmd/internal/cli"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/atomicfile"
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

world  generates a deterministic game-like world of N×N cells
scale  enlarges a map K times, each cell becoming K×K cells

"mapgen COMMAND -h" lists a command's flags. Errors give one line on
stderr and exit status 2 (usage) or 1 (other).
`

func dispatch(args []string, stdout io.Writer) error {
	if len(args) == 0 {
		return cli.Usagef("no command; want world or scale (see mapgen -h)")
	}
	switch args[0] {
	case "world":
		return world(args[1:], stdout)
	case "scale":
		return scale(args[1:], stdout)
	case "-h", "-help", "--help", "help":
		_, err := io.WriteString(stdout, usage)
		return err
	}
	return cli.Usagef("unknown command %q; want world or scale (see mapgen -h)", args[0])
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
	if help, err := parse(fs, "mapgen scale -map IN.map -k K -o OUT.map", args, stdout); help || err != nil {
		return err
	}
	switch {
	case *in == "":
		return cli.Usagef("scale: -map is required")
	case *out == "":
		return cli.Usagef("scale: -o is required")
	case *k < 1:
		return cli.Usagef("scale: -k %d, want 1 or more", *k)
	case sameFile(*in, *out):
		return cli.Usagef("scale: -o %s is the input map itself", *out)
	}
	if err := atomicfile.Check(*out); err != nil {
		return fmt.Errorf("scale: -o %w", err)
	}
	t0 := time.Now()
	g, err := grid.LoadMap(*in, grid.Options{})
	if err != nil {
		return err
	}
	s, err := mapgen.Scale(g, *k)
	if err != nil {
		return err
	}
	gen := time.Since(t0)
	return save(stdout, *out, s, fmt.Sprintf("%s (%d×%d) scaled %d times", *in, g.Width(), g.Height(), *k), gen)
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

// sameFile reports whether a and b name one existing file.
func sameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
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
