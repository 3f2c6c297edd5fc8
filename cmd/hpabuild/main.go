// Command hpabuild builds the HPA* abstract graph of a Moving AI grid map
// offline and writes it to a graph file, which hpa.Read and
// "pathfind -algo hpa -graph FILE" load instead of building it again.
//
// Usage:
//
//	hpabuild -map FILE.map -o FILE.hpa [-cluster N] [-max-entrance N] [-levels L] [-level-factor F] [-png FILE]
//	hpabuild -map FILE.map -o FILE.hpn -sizes K,... [-cluster N] [-max-entrance N] [-levels L] [-level-factor F]
//
// With -sizes it builds instead one annotated graph (hpa.BuildAnnotated)
// for units of those sizes, which share its nodes and edges, and writes it
// in the annotated-graph format, which hpa.ReadAnnotated and "pathfind
// route -algo hpa -size K -graph FILE.hpn" load.
//
// It checks first that the graph file can be written (its directory exists
// and takes files, and it is not a directory itself), then builds, writes
// the file atomically (a temporary file .FILE.hpa.tmpNNN in the same
// directory, synced, then renamed over the target) and prints the graph's
// statistics, the build time and the file size on stdout. A process killed
// while writing leaves that temporary file behind; the next write of the
// same file removes it once it is an hour old, and it is safe to delete.
// While it builds, a progress bar runs on stderr when stderr is a terminal.
//
// With -png it then draws the graph, scaled like pathfind's pictures: the
// map, the level-1 cluster borders, the borders of the clusters of higher
// levels in a darker colour, the level-1 edges as thin lines from node to
// node, and every abstract node as a square coloured by its highest level.
// The edges are left out when the picture has fewer than 2 pixels a cell
// (maps over 512 cells a side), where they would hide the map. The picture
// is written atomically too, and checked like the graph file before the
// build starts.
//
// Bad input gives one line on stderr starting with "hpabuild: " and exit
// status 2 for usage errors, 1 for others.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/cairn-nav/cairn/cmd/internal/cli"
	"github.com/cairn-nav/cairn/cmd/internal/mapflag"
	"github.com/cairn-nav/cairn/cmd/internal/picture"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
	"github.com/cairn-nav/cairn/internal/atomicfile"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run is the whole command, with its exit status as result.
func run(args []string, stdout, stderr io.Writer) int {
	return cli.Program{Name: "hpabuild"}.ExitStatus(stderr, build(args, stdout, stderr))
}

// flags holds the command line.
type flags struct {
	mapPath, out string
	png          string // picture to write; empty for none
	opt          hpa.Options
	maps         *mapflag.Flags
	sizes        string // -sizes: an annotated graph of these unit sizes; empty for a Graph
}

func newFlagSet(f *flags) *flag.FlagSet {
	fs := flag.NewFlagSet("hpabuild", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&f.mapPath, "map", "", "map `file` to build the graph of: Moving AI .map, Tiled .tmx/.tmj or an image (required)")
	f.maps = mapflag.Add(fs)
	fs.StringVar(&f.out, "o", "", "graph `file` to write (required)")
	fs.IntVar(&f.opt.ClusterSize, "cluster", hpa.DefaultClusterSize, fmt.Sprintf("cluster side in cells, `N` from 1 to %d", hpa.MaxClusterSize))
	fs.IntVar(&f.opt.MaxEntrance, "max-entrance", hpa.DefaultMaxEntrance, "longest entrance with one transition; longer ones get two (`N` ≥ 1)")
	fs.IntVar(&f.opt.Levels, "levels", 0, fmt.Sprintf("levels of the hierarchy, `L` from 1 to %d; 0 chooses from the map size", hpa.MaxLevels))
	fs.IntVar(&f.opt.LevelFactor, "level-factor", 0, fmt.Sprintf("each level's cluster is `F`×F clusters of the level below, F from 2 to %d; smaller F makes\n"+
		"in-place updates cheaper and long queries dearer; 0 chooses from the map size, 4 or 2 (see hpa.Options.LevelFactor)", hpa.MaxLevelFactor))
	fs.StringVar(&f.sizes, "sizes", "", fmt.Sprintf("build one annotated graph for units of the sizes `K,...` (distinct, 1 to %d, such as 1,2,3), a K×K unit anchored\n"+
		"at its top-left cell, and write it in the annotated-graph format (for hpa.ReadAnnotated); not with -png", cli.MaxSize))
	fs.StringVar(&f.png, "png", "", "also draw the graph to PNG `file`: the map, cluster borders (higher levels darker), level-1 edges as thin\n"+
		"grey-blue lines, nodes coloured by their highest level (1 grey-blue, 2 teal, 3 orange, 4 brown); edges are left\n"+
		"out below 2 pixels a cell (maps over 512 cells a side); maps over 1024 cells a side are scaled down")
	return fs
}

func printUsage(w io.Writer) {
	fmt.Fprintf(w, "usage: hpabuild -map FILE.map -o FILE.hpa [-cluster N] [-max-entrance N] [-levels L] [-level-factor F] [-png FILE]\n")
	fmt.Fprintf(w, "       hpabuild -map FILE.map -o FILE.hpn -sizes K,... [-cluster N] [-max-entrance N] [-levels L] [-level-factor F]\n\n")
	fmt.Fprintf(w, "Build the HPA* graph of a Moving AI map and write it to a graph file; with -sizes, one annotated graph\nfor units of those sizes.\n\nFlags:\n")
	fs := newFlagSet(&flags{})
	fs.SetOutput(w)
	fs.PrintDefaults()
	fmt.Fprintf(w, "\nErrors give one line on stderr and exit status 2 (usage) or 1 (other).\n")
}

// isTerminal reports whether w is a terminal, where a progress bar may be
// drawn. Tests replace it.
var isTerminal = cli.IsTerminal

func build(args []string, stdout, stderr io.Writer) error {
	var f flags
	fs := newFlagSet(&f)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printUsage(stdout)
			return nil
		}
		return cli.Usagef("%v (see hpabuild -h)", err)
	}
	switch {
	case fs.NArg() > 0:
		return cli.Usagef("unexpected argument %q (see hpabuild -h)", fs.Arg(0))
	case f.mapPath == "":
		return cli.Usagef("-map is required")
	case f.out == "":
		return cli.Usagef("-o is required")
	case f.opt.ClusterSize < 1 || f.opt.ClusterSize > hpa.MaxClusterSize:
		return cli.Usagef("-cluster %d, want 1 to %d", f.opt.ClusterSize, hpa.MaxClusterSize)
	case f.opt.MaxEntrance < 1:
		return cli.Usagef("-max-entrance %d, want 1 or more", f.opt.MaxEntrance)
	case f.opt.Levels < 0 || f.opt.Levels > hpa.MaxLevels:
		return cli.Usagef("-levels %d, want 0 to %d", f.opt.Levels, hpa.MaxLevels)
	case f.opt.LevelFactor != 0 && (f.opt.LevelFactor < 2 || f.opt.LevelFactor > hpa.MaxLevelFactor):
		return cli.Usagef("-level-factor %d, want 0 or 2 to %d", f.opt.LevelFactor, hpa.MaxLevelFactor)
	case cli.SameFile(f.mapPath, f.out):
		return cli.Usagef("-o %s is the map itself", f.out)
	case f.png != "" && cli.SameFile(f.mapPath, f.png):
		return cli.Usagef("-png %s is the map itself", f.png)
	case f.png != "" && (filepath.Clean(f.png) == filepath.Clean(f.out) || cli.SameFile(f.png, f.out)):
		return cli.Usagef("-png %s is the graph file too", f.png)
	case f.png != "" && f.sizes != "":
		return cli.Usagef("-png draws a graph of one class, not the annotated graph of -sizes")
	}
	var sizes []int
	if f.sizes != "" {
		var err error
		if sizes, err = cli.ParseSizes(f.sizes); err != nil {
			return err
		}
	}
	// Fail before the build, not after it.
	if err := atomicfile.Check(f.out); err != nil {
		return fmt.Errorf("-o %w", err)
	}
	if f.png != "" {
		if err := atomicfile.Check(f.png); err != nil {
			return fmt.Errorf("-png %w", err)
		}
	}

	lo, err := f.maps.Options()
	if err != nil {
		return cli.Usagef("%v", err)
	}
	g, err := grid.Load(f.mapPath, lo)
	if err != nil {
		return err
	}
	var bar *progressbar.ProgressBar
	if isTerminal(stderr) {
		f.opt.Progress = func(done, total int) {
			if bar == nil {
				bar = progressbar.NewOptions(total,
					progressbar.OptionSetWriter(stderr),
					progressbar.OptionSetDescription("clusters"),
					progressbar.OptionShowCount(),
					progressbar.OptionThrottle(100*time.Millisecond),
					progressbar.OptionClearOnFinish(),
				)
			}
			bar.Set(done)
		}
	}
	if sizes != nil {
		return buildAnnotated(stdout, &f, g, sizes, func() {
			if bar != nil {
				bar.Finish()
			}
		})
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	t0 := time.Now()
	hg, err := hpa.Build(g, f.opt)
	elapsed := time.Since(t0)
	runtime.GC()
	runtime.ReadMemStats(&after)
	if bar != nil {
		bar.Finish()
	}
	if err != nil {
		return err
	}
	size, err := writeGraph(f.out, hg)
	if err != nil {
		return err
	}
	var pictureNote string
	if f.png != "" {
		c, edges := drawGraph(hg)
		if err := c.WritePNG(f.png); err != nil {
			return err
		}
		pictureNote = c.ScaleNote()
		if !edges {
			pictureNote += fmt.Sprintf("; edges left out below %d pixels a cell", minEdgePixels)
		}
	}

	st := hg.Stats()
	opt := hg.Options()
	w := &errWriter{w: stdout}
	w.printf("map           %s (%d×%d, %v)\n", f.mapPath, g.Width(), g.Height(), g.Connectivity())
	w.printf("graph         %s\n", f.out)
	w.printf("cluster size  %d\n", opt.ClusterSize)
	w.printf("max entrance  %d\n", opt.MaxEntrance)
	w.printf("levels        %d\n", opt.Levels)
	w.printf("level factor  %d\n", opt.LevelFactor)
	w.printf("clusters      %d\n", st.Clusters)
	w.printf("entrances     %d\n", st.Entrances)
	w.printf("nodes         %d\n", st.Nodes)
	w.printf("edges         %d\n", st.Edges)
	for l := 2; l <= hg.Levels(); l++ {
		c, n, e := hg.LevelStats(l)
		w.printf("level %d       %d clusters, %d nodes, %d edges\n", l, c, n, e)
	}
	w.printf("build         %.1f ms\n", float64(elapsed.Microseconds())/1e3)
	w.printf("graph memory  %.1f MiB (heap after the build less before)\n", float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/(1<<20))
	w.printf("file size     %d bytes (%.1f KiB)\n", size, float64(size)/1024)
	if f.png != "" {
		w.printf("picture       %s (%s)\n", f.png, pictureNote)
	}
	return w.err
}

// minEdgePixels is the fewest pixels a cell at which drawGraph draws the
// level-1 edges; with fewer, the lines would cover the map.
const minEdgePixels = 2

// drawGraph draws hg over its map: the borders of the clusters of levels 2
// and up, then those of level 1 (which paint only the pixels still free, so
// the stronger colour wins where borders meet); the level-1 edges, once per
// pair of nodes, when the picture has minEdgePixels or more a cell; then
// the nodes. It reports whether it drew the edges.
func drawGraph(hg *hpa.Graph) (c *picture.Canvas, edges bool) {
	c = picture.New(hg.Grid())
	side := hg.ClusterSize()
	for range hg.Levels() - 1 {
		side *= hg.LevelFactor()
		c.GridLines(side, picture.LevelBorder)
	}
	c.GridLines(hg.ClusterSize(), picture.Border)
	edges = c.PixelsPerCell() >= minEdgePixels
	if edges {
		var targets []hpa.NodeID
		for n := range hpa.NodeID(hg.NodeIDs()) {
			a := picture.Centre(hg.NodeCell(n))
			targets = hg.AppendEdges(targets[:0], n, 1)
			for _, m := range targets {
				if m > n { // each edge has its reverse
					c.Line(a, picture.Centre(hg.NodeCell(m)), 1, picture.Edge)
				}
			}
		}
	}
	c.Nodes(hg)
	return c, edges
}

// writeGraph writes hg to path atomically and returns the file's size.
func writeGraph(path string, hg *hpa.Graph) (int64, error) {
	return atomicfile.Write(path, func(w io.Writer) error {
		_, err := hg.WriteTo(w)
		return err
	})
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
