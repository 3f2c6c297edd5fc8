package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/cairn-nav/cairn/cmd/internal/cli"
	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/atomicfile"
)

// summary is the result of a scenario run; its JSON form is what -json
// prints. Matched, Mismatched and NoPath split Scenarios: a found path of the
// optimal length, a found path of another length, and no path (unreachable or
// budget spent). Illegal counts answers that fail verification (an illegal
// step, wrong ends, a cost that disagrees with the path, or "unreachable"
// between connected cells); any makes the command exit 1.
//
// For any-angle algorithms (-algo navmesh), whose paths run from cell centre
// to cell centre and are usually shorter than the optimal 8-connected grid
// path the scenario records, a found path is matched when it is not longer
// than that optimum (beyond the tolerance of [grid.Scenario.Matches]) and
// mismatched when it is; Longer counts the mismatched, and should be 0.
// MeanRatio and MaxRatio give the mean and the largest path length over
// optimum, over found paths with a positive optimum. A scenario with an end
// nearer a wall than -radius is a no path; it is not timed.
//
// For algorithms whose paths may be longer than optimal (-algo hpa),
// MeanSubopt and MaxSubopt give the mean and the largest relative excess of
// a found path's cost over the scenario optimum, as fractions (0.021 is 2.1 %
// longer), over found paths with a positive optimum; a cost that matches the
// optimum counts as 0. A smoothed path's cost is its Euclidean length, which
// may be shorter than the optimal grid path, so these may be negative. For
// other algorithms they are absent from the JSON. Their found paths split
// into Matched (the optimal cost), Suboptimal (longer, which the algorithm
// allows) and, with -smooth, Shorter (a smoothed length below the
// 8-connected optimum); Mismatched counts only a cell path shorter than
// the optimum, which would be a bug.
type summary struct {
	Map          string  `json:"map"`
	Scen         string  `json:"scen"`
	Algo         string  `json:"algo"`
	Every        int     `json:"every"`
	MinBucket    int     `json:"min_bucket,omitempty"`
	Repeat       int     `json:"repeat,omitempty"` // runs per query, when more than one
	Scenarios    int     `json:"scenarios"`
	Matched      int     `json:"matched"`
	Mismatched   int     `json:"mismatched"`
	Suboptimal   int     `json:"suboptimal,omitempty"`
	Shorter      int     `json:"shorter,omitempty"`
	NoPath       int     `json:"no_path"`
	Illegal      int     `json:"illegal"`
	MedianUS     float64 `json:"median_us"`
	MeanUS       float64 `json:"mean_us"`
	P95US        float64 `json:"p95_us"`
	MeanExpanded float64 `json:"mean_expanded"`
	TotalSeconds float64 `json:"total_seconds"`

	// Approximate algorithms only.
	MeanSubopt *float64 `json:"mean_subopt,omitempty"`
	MaxSubopt  *float64 `json:"max_subopt,omitempty"`

	// Any-angle algorithms only.
	MeanRatio *float64 `json:"mean_ratio,omitempty"`
	MaxRatio  *float64 `json:"max_ratio,omitempty"`
	Longer    *int     `json:"longer,omitempty"`
}

// maxReported bounds the mismatches listed before a text summary.
const maxReported = 10

// scenProgressMin is the fewest scenarios a run must have to get a progress
// bar (on a terminal); shorter runs end before one would help.
const scenProgressMin = 200

// scenFlags holds the flags of "pathfind scen".
type scenFlags struct {
	mapPath, scenPath string
	every, minBucket  int
	repeat            int    // -repeat: runs of each query, the median timed
	pathsOut          string // -paths: where to write the paths; empty for nowhere
	cpuProfile        string // -cpuprofile: where to write the queries' CPU profile
	asJSON            bool
	rf                *routerFlags
}

// setupScen defines the flags of "pathfind scen".
func setupScen(fs *flag.FlagSet) func(io.Writer) error {
	f := &scenFlags{}
	fs.StringVar(&f.mapPath, "map", "", "Moving AI .map `file` (required)")
	fs.StringVar(&f.scenPath, "scen", "", "Moving AI .scen `file` for the map (required)")
	fs.IntVar(&f.every, "every", 1, "run scenarios 0, K, 2K, … only, for `K` ≥ 1")
	fs.IntVar(&f.minBucket, "min-bucket", 0, "run only the scenarios of bucket `B` or above (the longer ones; a bucket holds\n"+
		"optima from 4B to 4B+4), before -every picks among them")
	fs.StringVar(&f.pathsOut, "paths", "", "write each path run, one line per scenario, to `file`: cells as x,y tokens, or none;\n"+
		"-algo navmesh writes waypoints as x,y with six decimals, from the start cell's centre to the goal cell's")
	fs.BoolVar(&f.asJSON, "json", false, "print the summary as one JSON object")
	fs.IntVar(&f.repeat, "repeat", 1, "run each query `N` times and time it by the median of its runs")
	fs.StringVar(&f.cpuProfile, "cpuprofile", "", "write a CPU profile of the queries (not of loading the map or building a graph) to `file`,\n"+
		"for go tool pprof")
	f.rf = addRouterFlags(fs)
	return f.run
}

// run is the action of "pathfind scen": it runs the scenarios the flags
// pick, writes their paths with -paths and prints the summary. Illegal
// answers make it return an error after the summary.
func (f *scenFlags) run(stdout io.Writer) error {
	if err := f.check(); err != nil {
		return err
	}
	t0 := time.Now()
	g, scens, picked, err := f.load()
	if err != nil {
		return err
	}
	ans, err := f.rf.build(g)
	if err != nil {
		return err
	}
	a, _ := lookupAlgo(f.rf.algo)
	r := &scenRun{f: f, approx: a.approx, ans: ans, stdout: stdout, sum: summary{
		Map: f.mapPath, Scen: f.scenPath, Algo: f.rf.algo, Every: f.every, MinBucket: f.minBucket,
	}}
	if f.repeat > 1 {
		r.sum.Repeat = f.repeat
	}
	if err := profileTo(f.cpuProfile, func() error { return r.runAll(scens, picked) }); err != nil {
		return err
	}
	if err := r.writePaths(); err != nil {
		return err
	}
	sum := r.summarise(a.approx, t0)
	if err := f.print(stdout, sum, len(scens)); err != nil {
		return err
	}
	if r.illegal != nil {
		return fmt.Errorf("%d illegal answers from -algo %s; first: %w", sum.Illegal, f.rf.algo, r.illegal)
	}
	return nil
}

// check validates the flags before any file is read, and checks that the
// -paths file can be written.
func (f *scenFlags) check() error {
	switch {
	case f.mapPath == "":
		return cli.Usagef("-map is required")
	case f.scenPath == "":
		return cli.Usagef("-scen is required")
	case f.every < 1:
		return cli.Usagef("-every %d, want 1 or more", f.every)
	case f.minBucket < 0:
		return cli.Usagef("-min-bucket %d, want 0 or more", f.minBucket)
	case f.repeat < 1:
		return cli.Usagef("-repeat %d, want 1 or more", f.repeat)
	}
	if err := f.rf.check(); err != nil {
		return err
	}
	if f.pathsOut != "" {
		if err := atomicfile.Check(f.pathsOut); err != nil {
			return fmt.Errorf("-paths %w", err)
		}
	}
	if f.cpuProfile != "" {
		if err := atomicfile.Check(f.cpuProfile); err != nil {
			return fmt.Errorf("-cpuprofile %w", err)
		}
	}
	return nil
}

// load reads the map and its scenarios, checks that every scenario fits the
// map, and returns, as picked, the indices in the file of those of bucket
// -min-bucket or above.
func (f *scenFlags) load() (g *grid.Grid, scens []grid.Scenario, picked []int, err error) {
	g, err = loadMap(f.mapPath)
	if err != nil {
		return nil, nil, nil, err
	}
	scens, err = grid.LoadScenarios(f.scenPath)
	if err != nil {
		return nil, nil, nil, err
	}
	for i, s := range scens {
		if err := s.Check(g); err != nil {
			return nil, nil, nil, fmt.Errorf("%s: scenario %d (%s to %s) does not fit %s: %w",
				f.scenPath, i, pointString(s.Start), pointString(s.Goal), f.mapPath, err)
		}
	}
	for i, s := range scens {
		if s.Bucket >= f.minBucket {
			picked = append(picked, i)
		}
	}
	return g, scens, picked, nil
}

// print prints sum, as one JSON object with -json; inFile is the number of
// scenarios in the file.
func (f *scenFlags) print(w io.Writer, sum *summary, inFile int) error {
	if !f.asJSON {
		return printSummary(w, sum, inFile)
	}
	b, err := json.Marshal(sum)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// scenRun is one run of "pathfind scen": what its answers add up to so far.
type scenRun struct {
	f        *scenFlags
	approx   bool // the algorithm may return paths longer than optimal
	ans      *answerer
	stdout   io.Writer
	bar      *progress // nil when none is drawn
	sum      summary
	times    []time.Duration // of the answers timed: those not off the mesh
	runs     []time.Duration // of one query, with -repeat
	expanded int             // over the answers timed
	lines    []byte          // -paths content
	reported int             // notes printed
	illegal  error           // the first bad answer
	sub      subopt
	rat      ratios
	longer   int
}

// runAll answers scenarios picked[0], picked[K], picked[2K], … for -every
// K, with a progress bar when they are many.
func (r *scenRun) runAll(scens []grid.Scenario, picked []int) error {
	if n := (len(picked) + r.f.every - 1) / r.f.every; n > scenProgressMin {
		r.bar = startProgress(n, "scenarios")
	}
	defer r.bar.finish()
	for k := 0; k < len(picked); k += r.f.every {
		i := picked[k]
		if err := r.answer(i, scens[i]); err != nil {
			return err
		}
	}
	return nil
}

// answer answers scenario i of the file, s, times and checks the answer,
// counts it, reports it when it needs a note and keeps its path for -paths.
// An error is a query the router refused (an end off the mesh is not one).
func (r *scenRun) answer(i int, s grid.Scenario) error {
	var st stats
	var err error
	var d time.Duration
	if r.f.repeat == 1 {
		q0 := time.Now()
		st, err = r.ans.answer(s.Start, s.Goal)
		d = time.Since(q0)
	} else {
		r.runs = r.runs[:0]
		for range r.f.repeat {
			q0 := time.Now()
			st, err = r.ans.answer(s.Start, s.Goal)
			r.runs = append(r.runs, time.Since(q0))
			if err != nil {
				break
			}
		}
		slices.Sort(r.runs)
		d = r.runs[len(r.runs)/2]
	}
	off, isOff := errors.AsType[*offMeshError](err)
	if err != nil && !isOff {
		return fmt.Errorf("%s: scenario %d: %w", r.f.scenPath, i, err)
	}
	if !isOff {
		r.times = append(r.times, d)
		r.expanded += st.expanded
	}
	r.sum.Scenarios++
	note := r.judge(s, st, off)
	if err := r.verify(s, st, off); err != nil {
		r.sum.Illegal++
		note = "illegal: " + err.Error()
		if r.illegal == nil {
			r.illegal = fmt.Errorf("scenario %d (%s to %s): %w", i, pointString(s.Start), pointString(s.Goal), err)
		}
	}
	r.report(i, s, note)
	if r.f.pathsOut != "" {
		if isOff || st.status != core.Found {
			r.lines = appendPathLine(r.lines, nil)
		} else {
			r.lines = r.ans.appendPath(r.lines)
		}
		r.lines = append(r.lines, '\n')
	}
	r.bar.add(1)
	return nil
}

// judge counts the answer st to scenario s, or its end off the mesh when
// off is not nil, as matched, mismatched or no path, and adds it to the
// suboptimality or the length ratios. It returns the answer's note: why it
// has no path or how it missed the optimum, or "" when it matched.
func (r *scenRun) judge(s grid.Scenario, st stats, off *offMeshError) string {
	switch {
	case off != nil:
		r.sum.NoPath++
		return off.Error()
	case st.status != core.Found:
		r.sum.NoPath++
		return st.status.String()
	case r.ans.anyAngle():
		r.rat.add(st.cost, s.Optimal)
		if st.cost > s.Optimal && !s.Matches(st.cost) {
			r.sum.Mismatched++
			r.longer++
			return fmt.Sprintf("length %.8g, longer than optimal", st.cost)
		}
		r.sum.Matched++
	case s.Matches(st.cost):
		r.sum.Matched++
		r.sub.add(0, s.Optimal)
	case r.approx && st.cost > s.Optimal:
		r.sum.Suboptimal++
		r.sub.add(st.cost/s.Optimal-1, s.Optimal)
		return fmt.Sprintf("cost %.8g, %+.2f %% over optimal", st.cost, 100*(st.cost/s.Optimal-1))
	case r.approx && st.turns:
		r.sum.Shorter++ // a smoothed path, any-angle between its turns
		r.sub.add(st.cost/s.Optimal-1, s.Optimal)
		return ""
	default:
		r.sum.Mismatched++
		r.sub.add(st.cost/s.Optimal-1, s.Optimal)
		return fmt.Sprintf("cost %.8g", st.cost)
	}
	return ""
}

// verify checks the answer st to scenario s, or its end off the mesh when
// off is not nil, against the map.
func (r *scenRun) verify(s grid.Scenario, st stats, off *offMeshError) error {
	if off != nil {
		return verifyOffMesh(r.ans.check, off)
	}
	return r.ans.verify(s.Start, s.Goal, st)
}

// report prints the note of scenario i of the file, s, before the text
// summary: none when note is empty, under -json, or once maxReported notes
// are out.
func (r *scenRun) report(i int, s grid.Scenario, note string) {
	if note == "" || r.f.asJSON || r.reported >= maxReported {
		return
	}
	r.reported++
	r.bar.clear() // stdout may be the same terminal
	fmt.Fprintf(r.stdout, "scenario %d: %s to %s, optimal %.8g: %s\n",
		i, pointString(s.Start), pointString(s.Goal), s.Optimal, note)
}

// writePaths writes the -paths file atomically, when there is one.
func (r *scenRun) writePaths() error {
	if r.f.pathsOut == "" {
		return nil
	}
	_, err := atomicfile.Write(r.f.pathsOut, func(w io.Writer) error { _, err := w.Write(r.lines); return err })
	return err
}

// summarise completes the summary: the times and expansions of the timed
// answers, the suboptimality of an approximate algorithm (approx), the
// length ratios of an any-angle one, and the time since t0, when the run
// began.
func (r *scenRun) summarise(approx bool, t0 time.Time) *summary {
	sum := &r.sum
	if n := len(r.times); n > 0 {
		times := r.times
		sum.MedianUS = medianUS(times) // which sorts times, for the p95 below
		var total time.Duration
		for _, d := range times {
			total += d
		}
		sum.MeanUS = micros(total) / float64(n)
		sum.P95US = micros(times[(95*n+99)/100-1]) // nearest rank
		sum.MeanExpanded = float64(r.expanded) / float64(n)
	}
	if approx {
		mean := r.sub.mean()
		sum.MeanSubopt, sum.MaxSubopt = &mean, &r.sub.worst
	}
	if r.ans.anyAngle() {
		mean := r.rat.mean()
		sum.MeanRatio, sum.MaxRatio, sum.Longer = &mean, &r.rat.worst, &r.longer
	}
	sum.TotalSeconds = time.Since(t0).Seconds()
	return sum
}

func micros(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }

func printSummary(w io.Writer, s *summary, inFile int) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "map            %s\n", s.Map)
	fmt.Fprintf(bw, "scen           %s\n", s.Scen)
	fmt.Fprintf(bw, "algo           %s\n", s.Algo)
	if s.MinBucket > 0 {
		fmt.Fprintf(bw, "scenarios      %d (every %d of those of bucket %d or above, of %d)\n", s.Scenarios, s.Every, s.MinBucket, inFile)
	} else {
		fmt.Fprintf(bw, "scenarios      %d (every %d of %d)\n", s.Scenarios, s.Every, inFile)
	}
	if s.Repeat > 1 {
		fmt.Fprintf(bw, "repeat         %d (each time the median of its runs)\n", s.Repeat)
	}
	fmt.Fprintf(bw, "matched        %d\n", s.Matched)
	fmt.Fprintf(bw, "mismatched     %d\n", s.Mismatched)
	if s.Suboptimal > 0 {
		fmt.Fprintf(bw, "suboptimal     %d (longer than optimal, as the algorithm allows)\n", s.Suboptimal)
	}
	if s.Shorter > 0 {
		fmt.Fprintf(bw, "shorter        %d (smoothed below the 8-connected optimum)\n", s.Shorter)
	}
	fmt.Fprintf(bw, "no path        %d\n", s.NoPath)
	fmt.Fprintf(bw, "illegal        %d\n", s.Illegal)
	fmt.Fprintf(bw, "median         %.1f µs\n", s.MedianUS)
	fmt.Fprintf(bw, "mean           %.1f µs\n", s.MeanUS)
	fmt.Fprintf(bw, "p95            %.1f µs\n", s.P95US)
	fmt.Fprintf(bw, "mean expanded  %.1f\n", s.MeanExpanded)
	if s.MeanSubopt != nil && s.MaxSubopt != nil {
		fmt.Fprintf(bw, "mean subopt    %+.2f %%\n", 100**s.MeanSubopt)
		fmt.Fprintf(bw, "max subopt     %+.2f %%\n", 100**s.MaxSubopt)
	}
	if s.MeanRatio != nil && s.MaxRatio != nil && s.Longer != nil {
		fmt.Fprintf(bw, "mean ratio     %.4f\n", *s.MeanRatio)
		fmt.Fprintf(bw, "max ratio      %.4f\n", *s.MaxRatio)
		fmt.Fprintf(bw, "longer         %d\n", *s.Longer)
	}
	fmt.Fprintf(bw, "total          %.3f s\n", s.TotalSeconds)
	return bw.Flush()
}

// medianUS returns the median of ts, which it sorts, in microseconds: the
// mean of the middle two of an even count. ts must not be empty.
func medianUS(ts []time.Duration) float64 {
	slices.Sort(ts)
	n := len(ts)
	return micros((ts[(n-1)/2] + ts[n/2]) / 2)
}
