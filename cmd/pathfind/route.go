package main

import (
	"flag"
	"fmt"
	"image"
	"io"
	"time"

	"github.com/cairn-nav/cairn/grid"
)

// setupRoute defines the flags of "pathfind route".
func setupRoute(fs *flag.FlagSet) func(io.Writer) error {
	mapPath := fs.String("map", "", "Moving AI .map `file` (required)")
	var from, to pointFlag
	fs.Var(&from, "from", "start cell `x,y` (required)")
	fs.Var(&to, "to", "goal cell `x,y` (required)")
	showPath := fs.Bool("path", false, "also print the path's cells as x,y tokens")
	pngPath := fs.String("png", "", "also draw the map, the search and the path to PNG `file`: cells expanded light blue and left open yellow\n"+
		"(grid searches), cluster borders, abstract nodes coloured by level and the abstract path purple (hpa), the path blue,\n"+
		"smoothed red, start green, goal cyan; maps over 1024 cells a side are scaled down")
	rf := addRouterFlags(fs)
	return func(stdout io.Writer) error {
		switch {
		case *mapPath == "":
			return usagef("-map is required")
		case !from.set:
			return usagef("-from is required")
		case !to.set:
			return usagef("-to is required")
		}
		if err := rf.check(); err != nil {
			return err
		}
		if *pngPath != "" {
			if err := checkOutDir("-png", *pngPath); err != nil {
				return err
			}
		}
		g, err := grid.LoadMap(*mapPath, grid.Options{})
		if err != nil {
			return err
		}
		if err := checkEnd(g, from.p, "start"); err != nil {
			return fmt.Errorf("%s: %w", *mapPath, err)
		}
		if err := checkEnd(g, to.p, "goal"); err != nil {
			return fmt.Errorf("%s: %w", *mapPath, err)
		}
		r, err := rf.build(g)
		if err != nil {
			return err
		}

		t0 := time.Now()
		path, st, err := r.route(nil, from.p, to.p)
		elapsed := time.Since(t0)
		if err != nil {
			return err
		}
		if err := verify(g, path, from.p, to.p, st); err != nil {
			return fmt.Errorf("-algo %s answered %s to %s wrongly: %w", rf.algo, pointString(from.p), pointString(to.p), err)
		}

		cost := "-"
		if len(path) > 0 {
			cost = fmt.Sprintf("%.5f", st.cost)
		}
		steps := max(len(path)-1, 0)
		fmt.Fprintf(stdout, "status    %s\n", st.status)
		fmt.Fprintf(stdout, "cost      %s\n", cost)
		fmt.Fprintf(stdout, "steps     %d\n", steps)
		fmt.Fprintf(stdout, "expanded  %d\n", st.expanded)
		fmt.Fprintf(stdout, "time      %s\n", formatMicros(elapsed))
		if *showPath {
			line := appendPathLine([]byte("path      "), path)
			if _, err := stdout.Write(append(line, '\n')); err != nil {
				return err
			}
		}
		if *pngPath != "" {
			c, err := routePicture(g, r, path, from.p, to.p, st)
			if err != nil {
				return err
			}
			if err := c.writePNG(*pngPath); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "picture   %s (%s)\n", *pngPath, c.scaleNote())
		}
		return nil
	}
}

// routePicture draws the picture of a route answered by r. A router that
// can trace answers the query again with tracing on, so that the time
// printed is that of an untraced query.
func routePicture(g *grid.Grid, r router, path []image.Point, from, to image.Point, st stats) (*canvas, error) {
	tr, ok := r.(tracer)
	if !ok {
		return drawRoute(g, path, from, to, st.turns, nil), nil
	}
	var t trace
	if _, _, err := tr.traceRoute(nil, from, to, &t); err != nil {
		return nil, err
	}
	return drawRoute(g, path, from, to, st.turns, &t), nil
}

// formatMicros formats d in microseconds with one decimal.
func formatMicros(d time.Duration) string {
	return fmt.Sprintf("%.1f µs", float64(d.Nanoseconds())/1e3)
}
