package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"image"
	"io"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"time"

	"github.com/cairn-nav/cairn/agent"
	"github.com/cairn-nav/cairn/cmd/internal/cli"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
	"github.com/cairn-nav/cairn/internal/atomicfile"
	"github.com/go-gl/mathgl/mgl64"
)

// crowdFlags holds the flags of "pathfind crowd".
type crowdFlags struct {
	mapPath   string
	agents    int
	frames    int
	edits     int
	wall      int
	seed      uint64
	speed     float64
	lookahead float64
	reach     int
	budget    int
	budgetUS  int
	scan      bool
	useHPA    bool
	refill    bool
	annotated bool
	profile   string
	trace     string
	sizes     string
	asJSON    bool
}

// setupCrowd defines the flags of "pathfind crowd".
func setupCrowd(fs *flag.FlagSet) func(io.Writer) error {
	f := &crowdFlags{}
	fs.StringVar(&f.mapPath, "map", "", "Moving AI .map `file` (required)")
	fs.IntVar(&f.agents, "agents", 200, "`N` agents")
	fs.IntVar(&f.frames, "frames", 600, "`F` frames")
	fs.IntVar(&f.edits, "edits", 0, "put up `K` walls across agents' paths during the run, each taken down again later: 2K edits")
	fs.IntVar(&f.wall, "wall", 12, "the walls' length in cells")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of the agents' places and goals and of the walls")
	fs.Float64Var(&f.speed, "speed", 0.5, "the agents' speed, in cells a frame")
	fs.Float64Var(&f.lookahead, "lookahead", 4, "the steering's lookahead along the path, in cells")
	fs.IntVar(&f.reach, "reach", 128, "each goal is drawn within `D` cells (Chebyshev) of the agent where the region allows; 0: anywhere")
	fs.IntVar(&f.budget, "budget", 4096, "the path searches' budget of expansions a frame")
	fs.IntVar(&f.budgetUS, "budget-us", 0, "also cap the path searches' time a frame at `US` microseconds less what the frame's edits took\n"+
		"(0: no cap)")
	fs.BoolVar(&f.scan, "scan", false, "search without the grid's JPS+ table (jump points scan the rows): slower searches, cheaper edits")
	fs.BoolVar(&f.useHPA, "hpa", false, "answer the queued requests by HPA* (agent.Queue.UseGraph) on a graph of each size's grid (one hpa.Classes), built\n"+
		"at the start (its tables and paths filled at load) and updated in place after each edit (part of the edit's frame)")
	fs.BoolVar(&f.refill, "refill", false, "with -hpa, find again in each edit's frame the tables and paths the update dropped (hpa.Classes.Refill,\n"+
		"or hpa.AnnotatedSearcher.Refill), "+
		"which the queries of the frames after it would otherwise find, allocating")
	fs.BoolVar(&f.annotated, "annotated", false, "with -hpa, one annotated graph (hpa.BuildAnnotated) serves every size through sliced queries (agent.Queue.UseAnnotated),\n"+
		"instead of a graph per size (its paths filled at load, hpa.Annotated.FillPaths)")
	fs.StringVar(&f.profile, "cpuprofile", "", "write a CPU profile of the frames to `file`, for go tool pprof")
	fs.StringVar(&f.trace, "trace", "", "write the edits and every agent's position each frame to `file`: lines\n"+
		"\"edit F x0 y0 x1 y1 block|free\" (a half-open cell rectangle, applied before frame F) and \"pos F A x y\"")
	fs.StringVar(&f.sizes, "sizes", "1", "the agents' unit sizes `K,...`, taken in turn: a unit of size K stands on the K×K cells from its anchor\n"+
		"cell, and searches the map's sized grid; with more than one size, the trace starts with lines \"size A K\"")
	fs.BoolVar(&f.asJSON, "json", false, "print the summary as one JSON object")
	return f.run
}

// crowdSummary is the result of "pathfind crowd".
type crowdSummary struct {
	Map       string  `json:"map"`
	Agents    int     `json:"agents"`
	Frames    int     `json:"frames"`
	Edits     int     `json:"edits"`
	Budget    int     `json:"budget"`
	HPA       bool    `json:"hpa"`
	Annotated bool    `json:"annotated"`
	FrameP50  float64 `json:"frame_us_p50"`
	FrameP99  float64 `json:"frame_us_p99"`
	FrameMax  float64 `json:"frame_us_max"`
	EditMax   float64 `json:"edit_frame_us_max"` // the largest frame with an edit
	Requests  int     `json:"requests"`
	Arrivals  int     `json:"arrivals"`
	Replans   int     `json:"replans"`
	Mended    int     `json:"mended"`
	Lost      int     `json:"lost"`
	NoPath    int     `json:"no_path"`
	AllocsP99 float64 `json:"allocs_per_frame_p99"`
	AllocsMax float64 `json:"allocs_per_frame_max"`
	// AllocFrames counts the frames without an edit that allocated, after
	// the first (when the searchers and paths first grow).
	AllocFrames int     `json:"allocating_frames_without_edit"`
	EditFrames  int     `json:"edit_frames"`
	QuietP99    float64 `json:"frame_us_p99_without_edit"`
	Expansions  int     `json:"expansions"`
	Waiting     int     `json:"requests_waiting_max"`
}

// crowdAgent is one agent of the simulation.
type crowdAgent struct {
	pos, prev mgl64.Vec2 // now, and at the start of the last frame
	path      agent.Path
	cl        *crowdClass
}

// crowdClass is what the agents of one size share: the grid of the cells
// where such a unit may stand (the map itself for size 1), and its queue
// and planner.
type crowdClass struct {
	k  int
	g  *grid.Grid
	hg *hpa.Graph // with -hpa
	q  *agent.Queue
	pl *agent.Planner
}

// crowd is a running simulation.
type crowd struct {
	f       *crowdFlags
	g       *grid.Grid
	r       *rand.Rand
	classes []*crowdClass
	hc      *hpa.Classes           // with -hpa: the sizes' graphs, in the order of classes
	ha      *hpa.Annotated         // with -hpa -annotated: the one graph of every size
	hr      *hpa.AnnotatedSearcher // with -annotated -refill: its Refill's
	agents  []crowdAgent
	sum     crowdSummary
	trace   bytes.Buffer
	walls   []crowdWall
}

func (f *crowdFlags) run(stdout io.Writer) error {
	switch {
	case f.mapPath == "":
		return cli.Usagef("-map is required")
	case f.agents < 1:
		return cli.Usagef("-agents %d, want 1 or more", f.agents)
	case f.frames < 1:
		return cli.Usagef("-frames %d, want 1 or more", f.frames)
	case f.edits < 0:
		return cli.Usagef("-edits %d, want 0 or more", f.edits)
	case f.wall < 1:
		return cli.Usagef("-wall %d, want 1 or more", f.wall)
	case !(f.speed > 0) || f.speed > 100:
		return cli.Usagef("-speed %v, want a number in (0, 100]", f.speed)
	case !(f.lookahead >= 0) || f.lookahead > 1000:
		return cli.Usagef("-lookahead %v, want a number in [0, 1000]", f.lookahead)
	case f.reach < 0:
		return cli.Usagef("-reach %d, want 0 or more", f.reach)
	case f.budget < 1:
		return cli.Usagef("-budget %d, want 1 or more", f.budget)
	case f.budgetUS < 0:
		return cli.Usagef("-budget-us %d, want 0 or more", f.budgetUS)
	case f.refill && !f.useHPA:
		return cli.Usagef("-refill goes with -hpa")
	case f.annotated && !f.useHPA:
		return cli.Usagef("-annotated goes with -hpa")
	}
	sizes, err := cli.ParseSizes(f.sizes)
	if err != nil {
		return err
	}
	for _, o := range []struct{ flag, path string }{{"-trace", f.trace}, {"-cpuprofile", f.profile}} {
		if o.path != "" {
			if err := atomicfile.Check(o.path); err != nil {
				return fmt.Errorf("%s %w", o.flag, err)
			}
		}
	}
	g, err := loadMap(f.mapPath)
	if err != nil {
		return err
	}
	if !f.scan {
		g.BuildJumps()
	}
	c := &crowd{f: f, g: g, r: rand.New(rand.NewPCG(f.seed, 0x63726f7764))}
	if f.useHPA {
		// One hpa.Classes serves every size: a sized grid and a graph
		// each, updated together after an edit; or one hpa.Annotated, a
		// sized grid each and one graph.
		hc := make([]hpa.Class, len(sizes))
		for i, k := range sizes {
			hc[i] = hpa.Class{Size: k}
		}
		if f.annotated {
			if c.ha, err = hpa.BuildAnnotated(g, hc, hpa.Options{}); err == nil {
				err = c.ha.FillPaths() // at load, not in the first frames
				c.hr = hpa.NewAnnotatedSearcher(c.ha)
			}
		} else {
			c.hc, err = hpa.BuildClasses(g, hc, hpa.Options{})
		}
		if err != nil {
			return err
		}
	}
	for i, k := range sizes {
		sg := g
		switch {
		case c.hc != nil:
			sg = c.hc.Grid(i)
		case c.ha != nil:
			sg = c.ha.Grid(i)
		case k > 1:
			if sg, err = g.Sized(k); err != nil {
				return err
			}
		}
		if k > 1 && !f.scan {
			sg.BuildJumps()
		}
		cl := &crowdClass{k: k, g: sg, q: agent.NewQueue(sg), pl: agent.NewPlanner(sg)}
		cl.q.Query.Scan, cl.pl.Query.Scan = f.scan, f.scan
		if c.hc != nil {
			cl.hg = c.hc.Graph(i)
			cl.hg.FillTables() // at load, not in the first frames
			if err := cl.hg.FillPaths(); err != nil {
				return err
			}
			if err := cl.q.UseGraph(cl.hg); err != nil {
				return err
			}
		}
		if c.ha != nil {
			if err := cl.q.UseAnnotated(c.ha, i); err != nil {
				return err
			}
		}
		c.classes = append(c.classes, cl)
	}
	if err := c.spawn(); err != nil {
		return err
	}
	if err := profileTo(f.profile, func() error { c.run(); return nil }); err != nil {
		return err
	}
	if f.trace != "" {
		if _, err := atomicfile.Write(f.trace, func(w io.Writer) error { _, err := w.Write(c.trace.Bytes()); return err }); err != nil {
			return err
		}
	}
	if f.asJSON {
		return json.NewEncoder(stdout).Encode(&c.sum)
	}
	return c.sum.print(stdout)
}

// spawn places the agents at random in the largest region and asks for
// their first paths; the walls get their frames.
func (c *crowd) spawn() error {
	c.sum = crowdSummary{Map: c.f.mapPath, Agents: c.f.agents, Frames: c.f.frames, Edits: 2 * c.f.edits, Budget: c.f.budget, HPA: c.f.useHPA, Annotated: c.f.annotated}
	cells := make([]image.Point, len(c.classes))
	for i, cl := range c.classes {
		cell, size := cl.g.LargestRegion()
		if size < 2 {
			return fmt.Errorf("%s: the largest region of units of size %d has %d cells, too few for a crowd", c.f.mapPath, cl.k, size)
		}
		cells[i] = cell
	}
	c.agents = make([]crowdAgent, c.f.agents)
	for i := range c.agents {
		a := &c.agents[i]
		a.cl = c.classes[i%len(c.classes)]
		p, _ := a.cl.g.RandomFree(c.r, cells[i%len(c.classes)])
		if len(c.classes) > 1 {
			fmt.Fprintf(&c.trace, "size %d %d\n", i, a.cl.k)
		}
		a.pos = agent.Centre(p)
		a.prev = a.pos
		a.path.Lookahead = c.f.lookahead
		a.path.Grow(4096)
		c.request(a, 0)
	}
	// Walls go up at even intervals and come down halfway to the next.
	for k := range c.f.edits {
		up := (k + 1) * c.f.frames / (c.f.edits + 1)
		down := up + max(c.f.frames/(c.f.edits+1)/2, 1)
		c.walls = append(c.walls, crowdWall{up: up, down: down})
	}
	return nil
}

// goal draws a goal for an agent at cell from, in its region: a cell
// drawn uniformly within -reach (Chebyshev) of it, the first of 64 draws
// that is free and in the region, or else any cell of the region. (Goals
// drawn over the whole region and kept when near, as before, were nearly
// all far on a 4096² map, where a cell within 128 of the agent is one in
// 250.)
func (c *crowd) goal(cl *crowdClass, from image.Point) image.Point {
	if r := c.f.reach; r > 0 {
		box := image.Rect(from.X-r, from.Y-r, from.X+r+1, from.Y+r+1).Intersect(cl.g.Bounds())
		for range 64 {
			p := image.Pt(box.Min.X+c.r.IntN(box.Dx()), box.Min.Y+c.r.IntN(box.Dy()))
			if p != from && cl.g.Passable(p) && cl.g.Connected(from, p) {
				return p
			}
		}
	}
	p, _ := cl.g.RandomFree(c.r, from)
	return p
}

// request asks for a path from the agent's cell to a new goal.
func (c *crowd) request(a *crowdAgent, priority int) {
	from := agent.CellOf(a.pos)
	a.cl.q.Request(&a.path, from, c.goal(a.cl, from), priority)
	c.sum.Requests++
}

// run runs the frames, timing each and counting its allocations.
func (c *crowd) run() {
	times := make([]time.Duration, 0, c.f.frames)
	quiet := make([]time.Duration, 0, c.f.frames)
	allocs := make([]float64, 0, c.f.frames)
	var m0, m1 runtime.MemStats
	if c.f.trace != "" {
		c.trace.Grow((c.f.frames + 1) * len(c.agents) * 64)
	}
	for fr := range c.f.frames {
		// The edits of frame fr come before its positions in the trace:
		// the frame's time is the edits' and then the queue's and moves'.
		runtime.ReadMemStats(&m0)
		t0 := time.Now()
		edited := c.edit(fr)
		dtEdit := time.Since(t0)
		c.writePositions(fr)
		t0 = time.Now()
		waiting := 0
		// With -budget-us, the searches get what the frame's edits left of
		// it, and none when they took it all.
		left := time.Duration(c.f.budgetUS)*time.Microsecond - dtEdit
		for _, cl := range c.classes {
			n := len(c.classes)
			b := agent.Budget{Expansions: max(c.f.budget/n, 1)}
			if c.f.budgetUS > 0 {
				b.Time = left / time.Duration(n)
				if left > 0 {
					b.Time = max(b.Time, 1) // a zero Time would mean no bound
				}
			}
			if c.f.budgetUS == 0 || left > 0 {
				exp, _ := cl.q.Run(b)
				c.sum.Expansions += exp
			}
			waiting += cl.q.Len()
		}
		c.sum.Waiting = max(c.sum.Waiting, waiting)
		for i := range c.agents {
			c.step(&c.agents[i])
		}
		dt := dtEdit + time.Since(t0)
		runtime.ReadMemStats(&m1)
		times = append(times, dt)
		allocs = append(allocs, float64(m1.Mallocs-m0.Mallocs))
		if edited {
			c.sum.EditMax = max(c.sum.EditMax, micros(dt))
			c.sum.EditFrames++
		} else {
			quiet = append(quiet, dt)
			if fr > 0 && m1.Mallocs != m0.Mallocs {
				c.sum.AllocFrames++
			}
		}
	}
	c.writePositions(c.f.frames)
	slices.Sort(times)
	slices.Sort(allocs)
	n := len(times)
	c.sum.FrameP50 = micros(times[(50*n+99)/100-1])
	c.sum.FrameP99 = micros(times[(99*n+99)/100-1])
	c.sum.FrameMax = micros(times[n-1])
	c.sum.AllocsP99 = allocs[(99*n+99)/100-1]
	c.sum.AllocsMax = allocs[n-1]
	if n := len(quiet); n > 0 {
		slices.Sort(quiet)
		c.sum.QuietP99 = micros(quiet[(99*n+99)/100-1])
	}
}

// walk is what one frame does with an agent on its path.
type walk uint8

const (
	walkWait    walk = iota // its first path is still being searched
	walkNoPath              // it has no path: ask for one
	walkArrived             // at its goal: give it another
	walkLost                // pushed where it sees nothing of its path: search again from there
	walkMoved               // it moved toward its target
)

// walkStep steers an agent at pos along p and returns where it moves to,
// at most speed toward the target agent.Path.Steer gives, so that the move
// never enters a blocked cell, the target Steer gave (pos when it did not
// move), and what happened. The crowd command and the viewer's crowd
// share it.
func walkStep(p *agent.Path, pos mgl64.Vec2, speed float64) (next, target mgl64.Vec2, w walk) {
	switch p.Status() {
	case agent.Queued:
		if len(p.Cells()) == 0 {
			return pos, pos, walkWait
		}
	case agent.NoPath, agent.Idle:
		return pos, pos, walkNoPath
	}
	target, done := p.Steer(pos)
	switch {
	case done && p.Status() == agent.Queued:
		return pos, pos, walkWait // a new path is on its way
	case done:
		return pos, pos, walkArrived
	case p.Lost() && p.Status() != agent.Queued:
		return pos, pos, walkLost
	}
	next = target
	if d := target.Sub(pos); d.Len() > speed {
		next = pos.Add(d.Mul(speed / d.Len()))
	}
	return next, target, walkMoved
}

// step steers one agent and moves it, and asks for a new path when it has
// arrived, is lost or has none.
func (c *crowd) step(a *crowdAgent) {
	a.prev = a.pos
	next, _, w := walkStep(&a.path, a.pos, c.f.speed)
	switch w {
	case walkNoPath:
		c.sum.NoPath++
		c.request(a, 1)
	case walkArrived:
		c.sum.Arrivals++
		c.request(a, 0)
	case walkLost:
		c.sum.Lost++
		a.cl.q.Request(&a.path, agent.CellOf(a.pos), a.path.Goal(), 2)
		c.sum.Requests++
	}
	a.pos = next
}

// writePositions writes the agents' positions at the start of frame fr to
// the trace.
func (c *crowd) writePositions(fr int) {
	if c.f.trace == "" {
		return
	}
	var buf [96]byte
	for i := range c.agents {
		b := append(buf[:0], "pos "...)
		b = strconv.AppendInt(b, int64(fr), 10)
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, ' ')
		b = strconv.AppendFloat(b, c.agents[i].pos.X(), 'g', -1, 64)
		b = append(b, ' ')
		b = strconv.AppendFloat(b, c.agents[i].pos.Y(), 'g', -1, 64)
		b = append(b, '\n')
		c.trace.Write(b)
	}
}

func (s *crowdSummary) print(w io.Writer) error {
	_, err := fmt.Fprintf(w, "map            %s\nagents         %d for %d frames, %d edits, a budget of %d expansions a frame\n"+
		"frame          p50 %.1f µs, p99 %.1f µs, max %.1f µs; %d frames with an edit, the largest %.1f µs; p99 of the others %.1f µs\n"+
		"requests       %d (%d arrivals, %d replans after edits, %d mended in place, %d lost, %d without a path)\n"+
		"expansions     %d; at most %d requests waiting\n"+
		"allocations    p99 %.0f a frame, max %.0f; %d frames after the first allocated without an edit\n",
		s.Map, s.Agents, s.Frames, s.Edits, s.Budget, s.FrameP50, s.FrameP99, s.FrameMax, s.EditFrames, s.EditMax, s.QuietP99,
		s.Requests, s.Arrivals, s.Replans, s.Mended, s.Lost, s.NoPath, s.Expansions, s.Waiting, s.AllocsP99, s.AllocsMax, s.AllocFrames)
	return err
}
