package main

import (
	"errors"
	"flag"
	"fmt"
	"image"
	"io"
	"path/filepath"
	"time"

	"github.com/cairn-nav/cairn/cmd/internal/cli"
	"github.com/cairn-nav/cairn/cmd/internal/picture"
	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
	"github.com/cairn-nav/cairn/internal/atomicfile"
	"github.com/cairn-nav/cairn/navmesh"
)

// setupRoute defines the flags of "pathfind route".
func setupRoute(fs *flag.FlagSet) func(io.Writer) error {
	mapPath := fs.String("map", "", "Moving AI .map `file` (required, unless -mesh FILE routes between points of a mesh alone)")
	var from, to endFlag
	fs.Var(&from, "from", "start `x,y` (required): with -map a cell, integers, the query running from its centre; with -mesh and no\n"+
		"-map a point in world units, such as 10.5,20.25 (3,3 is the point (3,3), not a cell)")
	fs.Var(&to, "to", "goal `x,y` (required), as -from")
	showPath := fs.Bool("path", false, "also print the path's cells as x,y tokens (-algo navmesh: its waypoints, x,y with six decimals)")
	pngPath := fs.String("png", "", "also draw the map, the search and the path to PNG `file`: cells expanded light blue and left open yellow\n"+
		"(grid searches), cluster borders, abstract nodes coloured by level and the abstract path purple (hpa), the path blue,\n"+
		"smoothed red, the mesh's polygons outlined grey-blue with portals green and the path magenta (navmesh; outlines\n"+
		"only at a pixel or more a cell), start green, goal cyan; maps over 1024 cells a side are scaled down; with -mesh\n"+
		"and no -map, the mesh's bounding box, its area light, fitted within 1024 pixels")
	rf := addRouterFlags(fs)
	size := addSizeFlag(fs)
	filter := addFilterFlag(fs)
	return func(stdout io.Writer) error {
		switch {
		case *mapPath == "" && rf.mesh == "":
			return cli.Usagef("-map is required (or -mesh FILE alone, to route between points of the mesh)")
		case !from.set:
			return cli.Usagef("-from is required")
		case !to.set:
			return cli.Usagef("-to is required")
		case *mapPath == "":
			return routeMeshAlone(stdout, fs, rf, from.v, to.v, *showPath, *pngPath)
		}
		fromCell, err := from.cell("from")
		if err != nil {
			return err
		}
		toCell, err := to.cell("to")
		if err != nil {
			return err
		}
		if err := rf.check(); err != nil {
			return err
		}
		if err := checkSize(*size, rf); err != nil {
			return err
		}
		if err := filter.parse(); err != nil {
			return err
		}
		onMesh := rf.algo == "navmesh" || rf.algo == "corridor"
		if filter.f != nil && onMesh && (rf.radius != 0 || *size != 1) {
			return cli.Usagef("-filter goes with -algo %s without -radius or -size (a mesh for a radius has no area types)", rf.algo)
		}
		if filter.f != nil && rf.algo == "navmesh" && filter.weighs() {
			return cli.Usagef("-algo navmesh takes -filter exclusions (x) only, as its paths are shortest, not cheapest; -algo corridor weighs by multipliers")
		}
		if filter.f != nil && rf.algo == "hpa" && (rf.graph != "" || rf.smooth || *pngPath != "") {
			return cli.Usagef("-filter with -algo hpa takes neither -graph, -smooth nor -png: the class's graph is built for the filter and -size")
		}
		if filter.f != nil && !onMesh && rf.algo != "hpa" && ((rf.algo != "astar" && rf.algo != "dijkstra") || *size != 1 || *pngPath != "" || rf.plain) {
			return cli.Usagef("-filter goes with -algo astar or dijkstra (without -size, -png or -plain), hpa (with -size too), navmesh or corridor")
		}
		if *pngPath != "" {
			if err := atomicfile.Check(*pngPath); err != nil {
				return fmt.Errorf("-png %w", err)
			}
		}
		g, err := loadMap(*mapPath)
		if err != nil {
			return err
		}
		if rf.algo == "hpa" && rf.graph != "" && (*size != 1 || isAnnotatedFile(rf.graph)) {
			switch {
			case !isAnnotatedFile(rf.graph):
				return cli.Usagef("-size %d with -graph takes an annotated graph file (hpabuild -sizes); %s is not one", *size, rf.graph)
			case rf.smooth || *pngPath != "":
				return cli.Usagef("-graph %s is an annotated graph, which takes neither -smooth nor -png", rf.graph)
			}
			for _, end := range [2]struct {
				p    image.Point
				what string
			}{{fromCell, "start"}, {toCell, "goal"}} {
				if err := checkEnd(g, end.p, end.what); err != nil {
					return fmt.Errorf("%s: %w", *mapPath, err)
				}
			}
			if err := routeAnnotated(stdout, g, rf.graph, *size, fromCell, toCell, hpa.Query{Weight: rf.hpaWeight}, *showPath); err != nil {
				return fmt.Errorf("%s: %w", *mapPath, err)
			}
			return nil
		}
		if filter.f != nil && rf.algo == "hpa" {
			if err := checkEnd(g, fromCell, "start"); err != nil {
				return fmt.Errorf("%s: %w", *mapPath, err)
			}
			if err := routeClass(stdout, g, filter.f, *size, fromCell, toCell, hpa.Query{Weight: rf.hpaWeight}, *showPath); err != nil {
				return fmt.Errorf("%s: %w", *mapPath, err)
			}
			return nil
		}
		if filter.f != nil && onMesh {
			if rf.filter, err = meshFilter(g, filter.f); err != nil {
				return fmt.Errorf("%s: %w", *mapPath, err)
			}
		} else if filter.f != nil {
			if err := routeFiltered(stdout, g, filter.f, fromCell, toCell, rf, *showPath); err != nil {
				return fmt.Errorf("%s: %w", *mapPath, err)
			}
			return nil
		}
		if err := checkEnd(g, fromCell, "start"); err != nil {
			return fmt.Errorf("%s: %w", *mapPath, err)
		}
		if err := checkEnd(g, toCell, "goal"); err != nil {
			return fmt.Errorf("%s: %w", *mapPath, err)
		}
		sg, err := sizedGrid(g, *size, fromCell, toCell)
		if err != nil {
			return fmt.Errorf("%s: %w", *mapPath, err)
		}
		ans, err := rf.build(sg)
		if err != nil {
			return err
		}

		t0 := time.Now()
		st, err := ans.answer(fromCell, toCell)
		elapsed := time.Since(t0)
		if off, ok := errors.AsType[*offMeshError](err); ok {
			if verr := verifyOffMesh(ans.check, off); verr != nil {
				return fmt.Errorf("-algo %s answered %s to %s wrongly: %w", rf.algo, pointString(fromCell), pointString(toCell), verr)
			}
			return fmt.Errorf("%s: %w", *mapPath, err)
		}
		if err != nil {
			return err
		}
		if err := verifySized(ans, g, fromCell, toCell, st, *size); err != nil {
			return fmt.Errorf("-algo %s answered %s to %s wrongly: %w", rf.algo, pointString(fromCell), pointString(toCell), err)
		}

		cost := "-"
		if ans.hasPath() {
			cost = fmt.Sprintf("%.5f", st.cost)
		}
		fmt.Fprintf(stdout, "status    %s\n", st.status)
		if st.status == core.Unreachable {
			fmt.Fprintf(stdout, "why       %s\n", routeWhy(g, fromCell, toCell, rf.radius, *size))
		}
		fmt.Fprintf(stdout, "cost      %s\n", cost)
		fmt.Fprintf(stdout, "steps     %d\n", ans.steps())
		fmt.Fprintf(stdout, "expanded  %d\n", st.expanded)
		fmt.Fprintf(stdout, "time      %s\n", formatMicros(elapsed))
		if *showPath {
			line := ans.appendPath([]byte("path      "))
			if _, err := stdout.Write(append(line, '\n')); err != nil {
				return err
			}
		}
		if *pngPath != "" {
			c, err := routePicture(g, ans, fromCell, toCell, st)
			if err != nil {
				return err
			}
			// The title the picture guessed from what it drew, named
			// exactly: the map's file and the -algo flag.
			algo := "-algo " + rf.algo
			if rf.smooth {
				algo += " -smooth"
			}
			c.Title(fmt.Sprintf("%s · %s to %s · %s", filepath.Base(*mapPath), pointString(fromCell), pointString(toCell), algo))
			if err := c.WritePNG(*pngPath); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "picture   %s (%s)\n", *pngPath, c.ScaleNote())
		}
		return nil
	}
}

// routePicture draws the picture of the route ans answered last. A router
// that can trace answers the query again with tracing on, so that the time
// printed is that of an untraced query; a navmesh router shows its mesh.
func routePicture(g *grid.Grid, ans *answerer, from, to image.Point, st stats) (*picture.Canvas, error) {
	if ans.anyAngle() {
		var m *navmesh.Mesh
		if mr, ok := ans.points.(meshRouter); ok {
			m = mr.mesh()
		}
		return drawMeshRoute(g, m, ans.pointPath, from, to), nil
	}
	r, path := ans.cells, ans.cellPath
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

// unreachableWhy says why no path joins from and to, both free cells of g,
// for an agent of the given radius.
func unreachableWhy(g *grid.Grid, from, to image.Point, radius float64) string {
	if !g.Connected(from, to) {
		return fmt.Sprintf("start and goal are in different connected regions of the map (%d and %d of %d)",
			g.Region(from), g.Region(to), g.NumRegions())
	}
	return fmt.Sprintf("every way from start to goal passes nearer than -radius %g to a wall", radius)
}
