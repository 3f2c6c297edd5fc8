package main

import (
	"bufio"
	"flag"
	"fmt"
	"image"
	"io"
	"slices"
	"time"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/cairn-nav/cairn/cmd/internal/cli"
	"github.com/cairn-nav/cairn/cmd/internal/picture"
	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
	"github.com/cairn-nav/cairn/internal/atomicfile"
	"github.com/cairn-nav/cairn/internal/gridcheck"
	"github.com/cairn-nav/cairn/mapgen"
	"github.com/cairn-nav/cairn/navmesh"
)

// plainMaxCells bounds the maps on which the demo runs plain grid A*: on
// the default 4096² world its long query expands millions of cells (the
// demo's own table shows how many, and how long it takes), and on larger
// worlds it would take several times longer.
const plainMaxCells = 4096 * 4096

// Timing of the demo's queries: one untimed run warms a router's scratch,
// then up to demoRuns timed runs, fewer once they have taken demoBudget.
const (
	demoRuns   = 3
	demoBudget = 500 * time.Millisecond
)

// demoRow is one method of the demo's table, and its panel in the picture.
type demoRow struct {
	name    string // as the route command's flags spell it
	skipped string // why the method did not run; empty when it ran
	st      stats
	time    time.Duration // median of the timed runs
	runs    int
	path    []mgl64.Vec2 // in world coordinates, for the picture
	col     picture.Colour
	colour  string // the name of col, for the table
	label   string // the method's name in the picture
}

// setupDemo defines the flags of "pathfind demo".
func setupDemo(fs *flag.FlagSet) func(io.Writer) error {
	size := fs.Int("size", mapgen.DefaultSize, fmt.Sprintf("side of the generated world in cells, `N` ≥ %d", mapgen.MinSize))
	seed := fs.Uint64("seed", 0, "world `seed`: each one gives a different world")
	out := fs.String("o", "demo.png", "write the picture of the world and the paths to PNG `file`")
	times := fs.Bool("times", true, "write the query times in the picture's legend; without them (-times=false) the picture\n"+
		"depends only on -size and -seed, byte for byte")
	return func(stdout io.Writer) error {
		switch {
		case *size < mapgen.MinSize:
			return cli.Usagef("-size %d, want %d or more", *size, mapgen.MinSize)
		case *size > grid.MaxCells / *size:
			return cli.Usagef("-size %d, want a world of at most %d cells", *size, grid.MaxCells)
		case *out == "":
			return cli.Usagef("-o is empty")
		}
		if err := atomicfile.Check(*out); err != nil {
			return fmt.Errorf("-o %w", err)
		}
		return demo(stdout, *size, *seed, *out, *times)
	}
}

// demo generates the world, answers its long query with grid A* (jump
// points, then plain), HPA* with smoothing and the navmesh, prints the
// table and writes the picture, with the times in its legend when times is
// set.
func demo(stdout io.Writer, size int, seed uint64, out string, times bool) error {
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	t0 := time.Now()
	g, err := mapgen.World(mapgen.WorldOptions{Seed: seed, Width: size, Height: size})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "world   %d×%d cells, seed %d (mapgen.World), generated in %s\n", size, size, seed, formatDuration(time.Since(t0)))
	from, to, ok := mapgen.FarPair(g)
	if !ok {
		return fmt.Errorf("the world of seed %d has no free cell", seed)
	}
	fmt.Fprintf(w, "query   %s to %s (mapgen.FarPair)\n", pointString(from), pointString(to))
	w.Flush()

	// One searcher serves both grid rows: its scratch is 16 bytes a cell.
	s := grid.NewSearcher(g)
	var rows []demoRow
	row, err := demoRun(g, "astar", &gridRouter{s: s}, from, to)
	if err != nil {
		return err
	}
	row.col, row.colour, row.label = picture.Path, "blue", "A* (jump points)"
	rows = append(rows, row)

	if size*size <= plainMaxCells {
		row, err = demoRun(g, "astar -plain", &gridRouter{s: s, q: grid.Query{Plain: true}}, from, to)
		if err != nil {
			return err
		}
	} else {
		row = demoRow{name: "astar -plain", skipped: fmt.Sprintf("skipped: over %d cells, it would take seconds", plainMaxCells)}
	}
	row.col, row.colour, row.label = picture.Plain, "orange", "A* (plain)"
	rows = append(rows, row)

	t1 := time.Now()
	hg, err := buildWithProgress(g)
	if err != nil {
		return err
	}
	_, nodes, _ := hg.LevelStats(1)
	fmt.Fprintf(w, "graph   HPA* (hpa.Build), clusters of %d, levels %d, nodes %d, built in %s\n",
		hg.ClusterSize(), hg.Levels(), nodes, formatDuration(time.Since(t1)))
	row, err = demoRun(g, "hpa -smooth", newHPARouterFor(g, hg, true), from, to)
	if err != nil {
		return err
	}
	row.col, row.colour, row.label = picture.Smooth, "red", "HPA* + smoothing"
	rows = append(rows, row)

	w.Flush()

	row, err = demoNavmesh(w, g, from, to)
	if err != nil {
		return err
	}
	row.col, row.colour, row.label = picture.Navmesh, "magenta", "navmesh (any-angle)"
	rows = append(rows, row)

	fmt.Fprintln(w)
	printDemoTable(w, rows)
	fmt.Fprintln(w)

	c := drawDemo(g, seed, from, to, rows, times)
	if err := c.WritePNG(out); err != nil {
		return err
	}
	fmt.Fprintf(w, "picture %s (%s; a panel a method, start S green, goal G cyan)\n", out, c.ScaleNote())
	fmt.Fprintf(w, "total   %s\n", formatDuration(time.Since(t0)))
	return w.Flush()
}

// drawDemo draws the demo's picture: a panel for each method, in rows of
// two, its path drawn over the other methods' paths in grey and its start
// and goal pinned; a title naming the world and the query; a legend of the
// methods with the length of each path, and its time when times is set;
// and one of the pins and the grey paths. Small multiples rather than one
// map with the paths overlaid: on the 4096² world at 4 cells a pixel the
// four paths share most of their pixels, and the one drawn last hid the
// others; a panel each shows every path whole, the grey ones showing where
// it departs from the rest. Without times the picture depends only on the
// world and the query.
func drawDemo(g *grid.Grid, seed uint64, from, to image.Point, rows []demoRow, times bool) *picture.Canvas {
	panels := picture.NewPanels(g, len(rows), 2)
	keys := make([]picture.Key, len(rows))
	for i, p := range panels {
		for j, r := range rows {
			if j != i {
				p.Polyline(r.path, 1, picture.Ghost)
			}
		}
		r := rows[i]
		p.Polyline(r.path, p.LineWidth(false)+1, r.col)
		p.Pin(from, picture.Start, "S")
		p.Pin(to, picture.Goal, "G")
		label := r.label
		switch {
		case r.skipped != "":
			label += " · " + r.skipped
		case r.st.status != core.Found:
			label += " · " + r.st.status.String()
		default:
			label += fmt.Sprintf(" · length %.1f", r.st.cost)
			if times {
				label += " · " + formatDuration(r.time)
			}
		}
		p.Caption(picture.Key{Colour: r.col, Label: r.label})
		keys[i] = picture.Key{Colour: r.col, Label: label}
	}
	c := panels[0]
	c.Title(fmt.Sprintf("pathfind demo · world %d×%d, seed %d · %s to %s", g.Width(), g.Height(), seed, pointString(from), pointString(to)))
	c.Legend(keys)
	c.Legend([]picture.Key{
		{Colour: picture.Start, Label: "start " + pointString(from), Letter: "S"},
		{Colour: picture.Goal, Label: "goal " + pointString(to), Letter: "G"},
		{Colour: picture.Ghost, Label: "the other methods' paths"},
		{Colour: picture.Blocked, Label: "blocked"},
	})
	return c
}

// demoTime calls answer once untimed, to warm the scratch it uses, then up
// to demoRuns times timed, fewer once they have taken demoBudget, and
// returns the median time and the timed runs.
func demoTime(answer func() error) (time.Duration, int, error) {
	var times []time.Duration
	var total time.Duration
	for i := 0; i <= demoRuns && (i < 2 || total < demoBudget); i++ {
		t := time.Now()
		err := answer()
		d := time.Since(t)
		if err != nil {
			return 0, 0, err
		}
		if i > 0 {
			times = append(times, d)
			total += d
		}
	}
	slices.Sort(times)
	return times[len(times)/2], len(times), nil
}

// demoRun times the answers of r from from to to, checks the last against
// the map and returns its row.
func demoRun(g *grid.Grid, name string, r router, from, to image.Point) (demoRow, error) {
	row := demoRow{name: name}
	var path []image.Point
	var err error
	row.time, row.runs, err = demoTime(func() error {
		var err error
		path, row.st, err = r.route(path[:0], from, to)
		return err
	})
	if err != nil {
		return row, err
	}
	if err := verify(g, path, from, to, row.st); err != nil {
		return row, fmt.Errorf("%s answered %s to %s wrongly: %w", name, pointString(from), pointString(to), err)
	}
	for _, p := range path {
		row.path = append(row.path, picture.Centre(p))
	}
	return row, nil
}

// demoNavmesh builds the navmesh of g, prints a line about it, times its
// any-angle answers from the centre of cell from to that of cell to, and
// checks the last against the map.
func demoNavmesh(w io.Writer, g *grid.Grid, from, to image.Point) (demoRow, error) {
	row := demoRow{name: "navmesh"}
	t := time.Now()
	r, err := newNavmeshRouterFor(g, navmesh.Options{})
	if err != nil {
		return row, err
	}
	fmt.Fprintf(w, "mesh    navmesh (navmesh.FromGrid), polygons %d, built in %s\n", r.mesh().NumPolys(), formatDuration(time.Since(t)))
	row.time, row.runs, err = demoTime(func() error {
		var err error
		row.path, row.st, err = r.routePoints(row.path[:0], from, to)
		return err
	})
	if err != nil {
		return row, err
	}
	if err := verifyPoints(gridcheck.New(g, 0), row.path, from, to, row.st); err != nil {
		return row, fmt.Errorf("navmesh answered %s to %s wrongly: %w", pointString(from), pointString(to), err)
	}
	return row, nil
}

// buildWithProgress builds the HPA* graph of g with the default options,
// with a progress bar when progressOut is a terminal.
func buildWithProgress(g *grid.Grid) (*hpa.Graph, error) {
	var opt hpa.Options
	var bar *progress
	if isTerminal(progressOut) {
		opt.Progress = func(done, total int) {
			if bar == nil {
				bar = startProgress(total, "hpa clusters")
			}
			bar.set(done)
		}
	}
	hg, err := hpa.Build(g, opt)
	bar.finish()
	return hg, err
}

func printDemoTable(w io.Writer, rows []demoRow) {
	var optimal float64
	for _, r := range rows {
		if r.name == "astar" && r.st.status == core.Found {
			optimal = r.st.cost
		}
	}
	fmt.Fprintf(w, "%-13s %10s %5s %9s %9s %9s  %s\n", "method", "time", "runs", "expanded", "length", "vs astar", "path in picture")
	for _, r := range rows {
		if r.skipped != "" {
			fmt.Fprintf(w, "%-13s %s\n", r.name, r.skipped)
			continue
		}
		length, vs := "-", "-"
		if r.st.status == core.Found {
			length = fmt.Sprintf("%.1f", r.st.cost)
			if optimal > 0 {
				vs = fmt.Sprintf("%+.1f %%", 100*(r.st.cost/optimal-1))
			}
		}
		fmt.Fprintf(w, "%-13s %10s %5d %9d %9s %9s  %s\n", r.name, formatDuration(r.time), r.runs, r.st.expanded, length, vs, r.colour)
	}
	fmt.Fprintf(w, "\ntime: median of the timed runs, after one untimed run; length in cells, Euclidean for the\n"+
		"smoothed and navmesh paths; vs astar: against the optimal 8-connected path.\n")
}

// formatDuration formats d in µs, ms or s with a few significant digits.
func formatDuration(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return fmt.Sprintf("%.0f µs", float64(d.Nanoseconds())/1e3)
	case d < time.Second:
		return fmt.Sprintf("%.1f ms", float64(d.Nanoseconds())/1e6)
	}
	return fmt.Sprintf("%.2f s", d.Seconds())
}
