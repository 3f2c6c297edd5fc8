// Command pathfind answers path queries on Moving AI grid maps and runs
// Moving AI scenario files against the optimal lengths they record.
//
// Usage:
//
//	pathfind route -map FILE -from X,Y -to X,Y [-algo NAME] [-radius R] [-path] [-png FILE]
//	pathfind route -mesh FILE -from X,Y -to X,Y [-algo navmesh|corridor] [-path] [-png FILE]
//	pathfind scen -map FILE -scen FILE [-algo NAME] [-radius R] [-every K] [-paths FILE] [-json]
//	pathfind edits -map FILE [-n N] [-size K] [-hpa [-level-factor F] | -graph FILE] [-navmesh [-tile T]] [-queries Q] [-check=false] [-json]
//	pathfind crowd -map FILE [-agents N] [-frames F] [-edits K] [-trace FILE] [-json]
//	pathfind flow -map FILE -goal X,Y [-dist FILE] [-png FILE]
//	pathfind serve -map FILE [-graph FILE] [-mesh FILE] [-addr HOST:PORT] [-workers N] [-queue N]
//	pathfind demo [-size N] [-seed S] [-o FILE.png]
//
// Run "pathfind -h" or "pathfind COMMAND -h" for the flags. Bad input gives
// one line on stderr starting with "pathfind: " and exit status 2 for usage
// errors, 1 for others; scen also exits 1 when a router returns an illegal
// path, which is a bug.
package main

import (
	"errors"
	"flag"
	"fmt"
	"image"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/cairn-nav/cairn/cmd/internal/cli"
	"github.com/cairn-nav/cairn/cmd/internal/mapflag"
	"github.com/cairn-nav/cairn/grid"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// command is one subcommand: setup defines its flags on fs and returns the
// action to run once they are parsed.
type command struct {
	name     string
	synopsis string
	summary  string
	notes    string // printed after the summary in the help, when set
	setup    func(fs *flag.FlagSet) func(stdout io.Writer) error
}

var commands = []command{
	{
		name: "route",
		synopsis: "route -map FILE -from X,Y -to X,Y [flags]\n" +
			"pathfind route -mesh FILE -from X,Y -to X,Y [-algo navmesh|corridor] [-path] [-png FILE]",
		summary: "find one path and print its cost, steps, expansions and time",
		notes: "-algo navmesh answers from the centre of the start cell to that of the goal cell; its cost is the\n" +
			"path's length and its steps are legs. With -radius R, an end nearer than R to a wall or the map's\n" +
			"edge is an error (exit status 1): an agent of radius R cannot stand there.\n\n" +
			"With -mesh FILE and no -map, -from and -to are points in world units (10.5,20.25; 3,3 is the point\n" +
			"(3,3), not a cell's centre) on the mesh of any navbuild file, of a map or of GeoJSON polygons, read\n" +
			"with no map to check its binding against (the output says what the file was built from); -algo is\n" +
			"navmesh (the default) or corridor. The path is checked exactly against the mesh's polygons; an end\n" +
			"off the mesh or an illegal answer is an error (exit status 1), and flags that need a map are usage\n" +
			"errors.",
		setup: setupRoute,
	},
	{
		name:     "scen",
		synopsis: "scen -map FILE -scen FILE [flags]",
		summary:  "run a Moving AI scenario file and summarise matches and timings",
		notes: "Every answer is checked against the map; an illegal one makes the exit status 1. A found path\n" +
			"is matched when its cost is the scenario's optimum, within the file's printed precision, and\n" +
			"mismatched when not; -algo hpa counts a longer path as suboptimal (and, with -smooth, a shorter\n" +
			"smoothed one as shorter) and adds the mean and worst excess (subopt). -algo navmesh paths are\n" +
			"any-angle, from cell centre to cell centre, and usually shorter than the 8-connected optimum: one\n" +
			"is matched when it is not longer than the optimum (within that precision), and mismatched and\n" +
			"counted as longer when it is; the summary adds the mean and largest ratio of length to optimum.\n" +
			"With -radius R, a scenario with an end nearer than R to a wall counts as no path (none in -paths),\n" +
			"and paths that keep R from walls may be longer than the point agent's optimum.",
		setup: setupScen,
	},
	{
		name:     "edits",
		synopsis: "edits -map FILE [-n N] [-size K] [-hpa [-level-factor F] | -graph FILE] [-navmesh [-tile T]] [-queries Q] [-check=false] [-json]",
		summary:  "put up and take down walls across long paths in place, timing each edit of the grid and what follows it",
		notes: "Each wall is K×1 or 1×K cells, put across a random long path where all its cells are free, so\n" +
			"every edit changes all of them and taking it down gives back the map. The grid (with its jump table,\n" +
			"which edits keep up to date), the HPA* graph (-hpa or -graph) and the navmesh (-navmesh) are first\n" +
			"built from scratch, timed; then each edit is followed by hpa.Graph.Update and navmesh.Mesh.Update of\n" +
			"the tiles it touches (-tile 0: a new navmesh.FromGrid). After every edit, each layer must answer Q\n" +
			"random queries as a fresh build of the edited map does (not timed); mismatches are reported on\n" +
			"stderr and make the exit status 1, after the summary. Times are wall-clock; bytes are those\n" +
			"allocated during the work.",
		setup: setupEdits,
	},
	{
		name:     "crowd",
		synopsis: "crowd -map FILE [-agents N] [-frames F] [-edits K] [-trace FILE] [-json]",
		summary:  "simulate agents walking to random goals through the request queue, with walls put up across their paths",
		notes: "Each frame runs the queue's searches under -budget expansions, then steers and moves every agent; an\n" +
			"agent that arrives asks for a new goal. A wall goes across a random agent's path where no agent stands,\n" +
			"the paths it breaks are mended in place or searched again, and it comes down later. Frame times are\n" +
			"wall-clock, from the edit to the last agent's move; allocations are counted per frame.",
		setup: setupCrowd,
	},
	{
		name:     "flow",
		synopsis: "flow -map FILE -goal X,Y [-dist FILE] [-png FILE]",
		summary:  "compute the flow field of one goal and print the cells that reach it, the largest distance and the time",
		setup:    setupFlow,
	},
	{
		name:     "serve",
		synopsis: "serve -map FILE [-graph FILE] [-mesh FILE] [-addr HOST:PORT] [-workers N] [-queue N]",
		summary:  "serve a web page of the map that compares the searches' paths and lets you edit walls",
		notes: "With -mesh FILE the navmesh routes run on the mesh of that file, which navbuild -map must have\n" +
			"built for this map and a point agent (no -radius); another is refused at startup. Edits build the\n" +
			"mesh of the edited map, and a reset goes back to the file's.",
		setup: setupServe,
	},
	{
		name:     "demo",
		synopsis: "demo [-size N] [-seed S] [-o FILE.png]",
		summary:  "generate a world, answer one long query with grid A*, plain A*, HPA* and the navmesh, print a table and draw a picture",
		setup:    setupDemo,
	},
}

// run is the whole command, with its exit status as result.
func run(args []string, stdout, stderr io.Writer) int {
	return cli.Program{Name: "pathfind"}.ExitStatus(stderr, dispatch(args, stdout))
}

func dispatch(args []string, stdout io.Writer) error {
	if len(args) == 0 {
		return cli.Usagef("no command (want %s; see pathfind -h)", commandNames())
	}
	name := args[0]
	switch name {
	case "-h", "-help", "--help", "help":
		if name == "help" && len(args) > 1 {
			return dispatch([]string{args[1], "-h"}, stdout)
		}
		printUsage(stdout)
		return nil
	}
	c, ok := lookupCommand(name)
	if !ok {
		return cli.Usagef("unknown command %q (want %s; see pathfind -h)", name, commandNames())
	}
	fs := newFlagSet(c)
	action := c.setup(fs)
	var mf *mapflag.Flags
	if fs.Lookup("map") != nil {
		mf = mapflag.Add(fs)
	}
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printCommandUsage(stdout, c)
			return nil
		}
		return cli.Usagef("%s: %v (see pathfind %s -h)", c.name, err, c.name)
	}
	if fs.NArg() > 0 {
		return cli.Usagef("%s: unexpected argument %q (see pathfind %s -h)", c.name, fs.Arg(0), c.name)
	}
	loadOptions = grid.LoadOptions{}
	if mf != nil {
		lo, err := mf.Options()
		if err != nil {
			return cli.Usagef("%s: %s", c.name, err.Error())
		}
		loadOptions = lo
	}
	if err := action(stdout); err != nil {
		if ue, ok := errors.AsType[*cli.UsageError](err); ok {
			return cli.Usagef("%s: %s", c.name, ue.Error())
		}
		return err
	}
	return nil
}

// newFlagSet returns a silent flag set: run reports parse errors itself, on
// one line, and help goes to stdout.
func newFlagSet(c command) *flag.FlagSet {
	fs := flag.NewFlagSet("pathfind "+c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

func lookupCommand(name string) (command, bool) {
	for _, c := range commands {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

func commandNames() string {
	names := make([]string, len(commands))
	for i, c := range commands {
		names[i] = c.name
	}
	return strings.Join(names, ", ")
}

func printUsage(w io.Writer) {
	fmt.Fprintf(w, "pathfind answers path queries on Moving AI grid maps.\n\n")
	for _, c := range commands {
		printCommandUsage(w, c)
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "Errors give one line on stderr and exit status 2 (usage) or 1 (other).\n")
}

func printCommandUsage(w io.Writer, c command) {
	fmt.Fprintf(w, "pathfind %s\n\n%s.\n\n", c.synopsis, upperFirst(c.summary))
	if c.notes != "" {
		fmt.Fprintf(w, "%s\n\n", c.notes)
	}
	fmt.Fprintf(w, "Flags of %s:\n", c.name)
	fs := newFlagSet(c)
	c.setup(fs)
	if fs.Lookup("map") != nil {
		mapflag.Add(fs)
	}
	fs.SetOutput(w)
	fs.PrintDefaults()
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// pointFlag is a flag.Value for a cell written "x,y".
type pointFlag struct {
	p   image.Point
	set bool
}

func (f *pointFlag) String() string {
	if f == nil || !f.set {
		return ""
	}
	return pointString(f.p)
}

func pointString(p image.Point) string { return fmt.Sprintf("%d,%d", p.X, p.Y) }

func (f *pointFlag) Set(s string) error {
	p, err := parsePoint(s)
	if err != nil {
		return err
	}
	f.p, f.set = p, true
	return nil
}

func parsePoint(s string) (image.Point, error) {
	xs, ys, ok := strings.Cut(s, ",")
	if !ok {
		return image.Point{}, errors.New("want x,y")
	}
	x, errx := strconv.Atoi(strings.TrimSpace(xs))
	y, erry := strconv.Atoi(strings.TrimSpace(ys))
	if errx != nil || erry != nil {
		return image.Point{}, errors.New("want x,y with integer x and y")
	}
	return image.Point{X: x, Y: y}, nil
}

// appendPathLine appends the cells of path as "x,y" tokens separated by
// single spaces, or "none" for an empty path.
func appendPathLine(dst []byte, path []image.Point) []byte {
	if len(path) == 0 {
		return append(dst, "none"...)
	}
	for i, p := range path {
		if i > 0 {
			dst = append(dst, ' ')
		}
		dst = strconv.AppendInt(dst, int64(p.X), 10)
		dst = append(dst, ',')
		dst = strconv.AppendInt(dst, int64(p.Y), 10)
	}
	return dst
}
