// Command navbuild builds a navmesh offline and writes it to a mesh file,
// which navmesh.Read (or navmesh.ReadFor, which also checks the map) and
// "pathfind -algo navmesh -mesh FILE" load instead of building it again.
//
// Usage:
//
//	navbuild -map FILE.map [-radius R] [-cell C] [-rectangles] -o FILE.nav [-png FILE]
//	navbuild -geojson FILE.json [-radius R] [-cell C] -o FILE.nav
//
// From a Moving AI map it builds navmesh.FromGrid's mesh; the file is bound
// to that map and radius, and a reader for another map or radius refuses
// it. From GeoJSON it builds navmesh.FromPolygons's mesh of the union of
// the file's Polygon and MultiPolygon geometries (a FeatureCollection, a
// Feature or a bare geometry), their coordinates taken as world
// coordinates as they are (x right, y down, as on a map); other geometries
// are ignored, and a file with none is an error.
//
// It checks first that the outputs can be written, then builds, writes the
// mesh atomically (a temporary file in the same directory, synced, then
// renamed over the target) and prints the mesh's counts, the build time and
// the file size. With -png it draws the map and the mesh's polygons (maps
// only). Bad input gives one line on stderr starting with "navbuild: " and
// exit status 2 for usage errors, 1 for others.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/cairn-nav/cairn/cmd/internal/cli"
	"github.com/cairn-nav/cairn/cmd/internal/mapflag"
	"github.com/cairn-nav/cairn/cmd/internal/picture"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/atomicfile"
	"github.com/cairn-nav/cairn/navmesh"
	"github.com/cairn-nav/cairn/navmesh/navjson"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run is the whole command, with its exit status as result.
func run(args []string, stdout, stderr io.Writer) int {
	return cli.Program{Name: "navbuild"}.ExitStatus(stderr, build(args, stdout))
}

// flags holds the command line.
type flags struct {
	mapPath, geoPath, out, png string
	opt                        navmesh.Options
	landmarks                  int
	maps                       *mapflag.Flags
}

func newFlagSet(f *flags) *flag.FlagSet {
	fs := flag.NewFlagSet("navbuild", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&f.mapPath, "map", "", "map `file` to build the mesh of: Moving AI .map, Tiled .tmx/.tmj or an image (this or -geojson)")
	f.maps = mapflag.Add(fs)
	fs.StringVar(&f.geoPath, "geojson", "", "GeoJSON `file` of the walkable polygons, with holes, to build the mesh of")
	fs.StringVar(&f.out, "o", "", "mesh `file` to write (required)")
	fs.Float64Var(&f.opt.Radius, "radius", 0, "the agent's radius `R`: the mesh keeps the points at least R from every wall (0: a point agent)")
	fs.Float64Var(&f.opt.CellSize, "cell", 0, "with -radius, the side `C` of the subcells the walls are offset on, rounded down to a power of two\n"+
		"(0: R/4 for maps, R/2 for polygons)")
	fs.BoolVar(&f.opt.Rectangles, "rectangles", false, "with -map, keep the rectangles of cells instead of merging them into convex polygons")
	fs.IntVar(&f.opt.TileSize, "tile", 0, "with -map and a point agent, build the mesh in square tiles of `T` cells, which a game that reads it\n"+
		"with navmesh.ReadFor(…, Options{TileSize: T}) can update tile by tile after an edit (Mesh.Update); 0: no tiles")
	fs.IntVar(&f.landmarks, "landmarks", 0, "measure `K` landmarks (0 to 32) for the exact search's estimate, and the corridor search's on queries\n"+
		"1 024 cells long or more, and keep them in the file: fewer expansions on long queries of big maps, at the cost of\n"+
		"K searches over the whole mesh and 4·K bytes a vertex (navmesh.Mesh.WithLandmarks)")
	fs.StringVar(&f.png, "png", "", "with -map, also draw the map and the mesh's polygons to PNG `file`")
	return fs
}

func printUsage(w io.Writer) {
	fmt.Fprintf(w, "usage: navbuild -map FILE.map | -geojson FILE.json [-radius R] [-cell C] [-rectangles] [-tile T] -o FILE.nav [-png FILE]\n\n")
	fmt.Fprintf(w, "Build the navmesh of a Moving AI map or of GeoJSON polygons and write it to a mesh file.\n\nFlags:\n")
	fs := newFlagSet(&flags{})
	fs.SetOutput(w)
	fs.PrintDefaults()
	fmt.Fprintf(w, "\nErrors give one line on stderr and exit status 2 (usage) or 1 (other).\n")
}

func build(args []string, stdout io.Writer) error {
	var f flags
	fs := newFlagSet(&f)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printUsage(stdout)
			return nil
		}
		return cli.Usagef("%v (see navbuild -h)", err)
	}
	in := f.mapPath
	if in == "" {
		in = f.geoPath
	}
	switch {
	case fs.NArg() > 0:
		return cli.Usagef("unexpected argument %q (see navbuild -h)", fs.Arg(0))
	case (f.mapPath == "") == (f.geoPath == ""):
		return cli.Usagef("give one of -map and -geojson")
	case f.out == "":
		return cli.Usagef("-o is required")
	case math.IsNaN(f.opt.Radius) || math.IsInf(f.opt.Radius, 0) || f.opt.Radius < 0:
		return cli.Usagef("-radius %v, want a finite value ≥ 0", f.opt.Radius)
	case math.IsNaN(f.opt.CellSize) || math.IsInf(f.opt.CellSize, 0) || f.opt.CellSize < 0:
		return cli.Usagef("-cell %v, want a finite value ≥ 0", f.opt.CellSize)
	case f.geoPath != "" && (f.png != "" || f.opt.Rectangles || f.opt.TileSize != 0):
		return cli.Usagef("-png, -rectangles and -tile go with -map")
	case f.landmarks < 0 || f.landmarks > navmesh.MaxLandmarks:
		return cli.Usagef("-landmarks %d, want 0 to %d", f.landmarks, navmesh.MaxLandmarks)
	case f.opt.TileSize < 0:
		return cli.Usagef("-tile %d, want 0 or more", f.opt.TileSize)
	case f.opt.TileSize > 0 && f.opt.Radius != 0 && !f.opt.Rectangles:
		return cli.Usagef("-tile needs a point agent (no -radius), or -rectangles")
	case filepath.Clean(in) == filepath.Clean(f.out) || cli.SameFile(in, f.out):
		return cli.Usagef("-o %s is the input itself", f.out)
	case f.png != "" && (filepath.Clean(in) == filepath.Clean(f.png) || cli.SameFile(in, f.png) || filepath.Clean(f.png) == filepath.Clean(f.out)):
		return cli.Usagef("-png %s is the input or the mesh file", f.png)
	}
	if err := atomicfile.Check(f.out); err != nil {
		return fmt.Errorf("-o %w", err)
	}
	if f.png != "" {
		if err := atomicfile.Check(f.png); err != nil {
			return fmt.Errorf("-png %w", err)
		}
	}
	var g *grid.Grid
	var m *navmesh.Mesh
	var t0 time.Time
	if f.mapPath != "" {
		var err error
		lo, err := f.maps.Options()
		if err != nil {
			return cli.Usagef("%v", err)
		}
		if g, err = grid.Load(f.mapPath, lo); err != nil {
			return err
		}
		t0 = time.Now()
		if m, err = navmesh.FromGrid(g, f.opt); err != nil {
			return fmt.Errorf("%s: %w", f.mapPath, err)
		}
	} else {
		data, err := os.ReadFile(f.geoPath)
		if err != nil {
			return err
		}
		mp, err := navjson.Polygons(data)
		if err != nil {
			return fmt.Errorf("%s: %w", f.geoPath, err)
		}
		t0 = time.Now()
		if m, err = navmesh.FromPolygons(mp, f.opt); err != nil {
			return fmt.Errorf("%s: %w", f.geoPath, err)
		}
	}
	elapsed := time.Since(t0)
	var lmTime time.Duration
	if f.landmarks > 0 {
		t1 := time.Now()
		var err error
		if m, err = m.WithLandmarks(f.landmarks); err != nil {
			return err
		}
		lmTime = time.Since(t1)
	}
	n, err := atomicfile.Write(f.out, func(w io.Writer) error { _, err := m.WriteTo(w); return err })
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "input         %s\n", in)
	fmt.Fprintf(stdout, "radius        %g\n", f.opt.Radius)
	fmt.Fprintf(stdout, "polygons      %d\n", m.NumPolys())
	fmt.Fprintf(stdout, "portals       %d\n", m.NumPortals())
	fmt.Fprintf(stdout, "vertices      %d\n", m.NumVertices())
	fmt.Fprintf(stdout, "build time    %s\n", elapsed.Round(time.Microsecond))
	if f.landmarks > 0 {
		fmt.Fprintf(stdout, "landmarks     %d (%s)\n", m.Landmarks(), lmTime.Round(time.Millisecond))
	}
	fmt.Fprintf(stdout, "file size     %d bytes\n", n)
	if f.png != "" {
		c := picture.New(g)
		c.Mesh(m)
		if err := c.WritePNG(f.png); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "picture       %s (%s)\n", f.png, c.ScaleNote())
	}
	return nil
}
