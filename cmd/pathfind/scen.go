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
// other algorithms they are absent from the JSON.
type summary struct {
	Map          string  `json:"map"`
	Scen         string  `json:"scen"`
	Algo         string  `json:"algo"`
	Every        int     `json:"every"`
	MinBucket    int     `json:"min_bucket,omitempty"`
	Scenarios    int     `json:"scenarios"`
	Matched      int     `json:"matched"`
	Mismatched   int     `json:"mismatched"`
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

// setupScen defines the flags of "pathfind scen".
func setupScen(fs *flag.FlagSet) func(io.Writer) error {
	mapPath := fs.String("map", "", "Moving AI .map `file` (required)")
	scenPath := fs.String("scen", "", "Moving AI .scen `file` for the map (required)")
	every := fs.Int("every", 1, "run scenarios 0, K, 2K, … only, for `K` ≥ 1")
	minBucket := fs.Int("min-bucket", 0, "run only the scenarios of bucket `B` or above (the longer ones; a bucket holds\n"+
		"optima from 4B to 4B+4), before -every picks among them")
	pathsOut := fs.String("paths", "", "write each path run, one line per scenario, to `file`: cells as x,y tokens, or none;\n"+
		"-algo navmesh writes waypoints as x,y with six decimals, from the start cell's centre to the goal cell's")
	asJSON := fs.Bool("json", false, "print the summary as one JSON object")
	rf := addRouterFlags(fs)
	return func(stdout io.Writer) error {
		switch {
		case *mapPath == "":
			return usagef("-map is required")
		case *scenPath == "":
			return usagef("-scen is required")
		case *every < 1:
			return usagef("-every %d, want 1 or more", *every)
		case *minBucket < 0:
			return usagef("-min-bucket %d, want 0 or more", *minBucket)
		}
		if err := rf.check(); err != nil {
			return err
		}
		if *pathsOut != "" {
			if err := atomicfile.Check(*pathsOut); err != nil {
				return fmt.Errorf("-paths %w", err)
			}
		}
		t0 := time.Now()
		g, err := grid.LoadMap(*mapPath, grid.Options{})
		if err != nil {
			return err
		}
		scens, err := grid.LoadScenarios(*scenPath)
		if err != nil {
			return err
		}
		for i, s := range scens {
			if err := s.Check(g); err != nil {
				return fmt.Errorf("%s: scenario %d (%s to %s) does not fit %s: %w",
					*scenPath, i, pointString(s.Start), pointString(s.Goal), *mapPath, err)
			}
		}
		var run []int // the scenarios to run, by index in the file
		for i, s := range scens {
			if s.Bucket >= *minBucket {
				run = append(run, i)
			}
		}
		ans, err := rf.build(g)
		if err != nil {
			return err
		}

		sum := summary{Map: *mapPath, Scen: *scenPath, Algo: rf.algo, Every: *every, MinBucket: *minBucket}
		var (
			times    []time.Duration
			expanded int
			lines    []byte // -paths content
			reported int
			illegal  error // the first bad answer
			sub      subopt
			rat      ratios
			longer   int
		)
		a, _ := lookupAlgo(rf.algo)
		var bar *progress
		if n := (len(run) + *every - 1) / *every; n > scenProgressMin {
			bar = startProgress(n, "scenarios")
		}
		defer bar.finish()
		for k := 0; k < len(run); k += *every {
			i := run[k]
			s := scens[i]
			q0 := time.Now()
			st, err := ans.answer(s.Start, s.Goal)
			d := time.Since(q0)
			off, isOff := errors.AsType[*offMeshError](err)
			if err != nil && !isOff {
				return fmt.Errorf("%s: scenario %d: %w", *scenPath, i, err)
			}
			if !isOff {
				times = append(times, d)
				expanded += st.expanded
			}
			sum.Scenarios++

			var note string
			switch {
			case isOff:
				sum.NoPath++
				note = off.Error()
			case st.status != statusFound:
				sum.NoPath++
				note = st.status
			case ans.anyAngle():
				rat.add(st.cost, s.Optimal)
				if st.cost > s.Optimal && !s.Matches(st.cost) {
					sum.Mismatched++
					longer++
					note = fmt.Sprintf("length %.8g, longer than optimal", st.cost)
				} else {
					sum.Matched++
				}
			case s.Matches(st.cost):
				sum.Matched++
				sub.add(0, s.Optimal)
			default:
				sum.Mismatched++
				note = fmt.Sprintf("cost %.8g", st.cost)
				sub.add(st.cost/s.Optimal-1, s.Optimal)
			}
			if isOff {
				err = verifyOffMesh(ans.check, off)
			} else {
				err = ans.verify(s.Start, s.Goal, st)
			}
			if err != nil {
				sum.Illegal++
				note = "illegal: " + err.Error()
				if illegal == nil {
					illegal = fmt.Errorf("scenario %d (%s to %s): %w", i, pointString(s.Start), pointString(s.Goal), err)
				}
			}
			if note != "" && !*asJSON && reported < maxReported {
				reported++
				bar.clear() // stdout may be the same terminal
				fmt.Fprintf(stdout, "scenario %d: %s to %s, optimal %.8g: %s\n",
					i, pointString(s.Start), pointString(s.Goal), s.Optimal, note)
			}
			if *pathsOut != "" {
				if isOff || st.status != statusFound {
					lines = appendPathLine(lines, nil)
				} else {
					lines = ans.appendPath(lines)
				}
				lines = append(lines, '\n')
			}
			bar.add(1)
		}
		bar.finish()
		if *pathsOut != "" {
			if _, err := atomicfile.Write(*pathsOut, func(w io.Writer) error { _, err := w.Write(lines); return err }); err != nil {
				return err
			}
		}

		if n := len(times); n > 0 {
			slices.Sort(times)
			var total time.Duration
			for _, d := range times {
				total += d
			}
			sum.MedianUS = micros((times[(n-1)/2] + times[n/2]) / 2)
			sum.MeanUS = micros(total) / float64(n)
			sum.P95US = micros(times[(95*n+99)/100-1]) // nearest rank
			sum.MeanExpanded = float64(expanded) / float64(n)
		}
		if a.approx {
			mean := sub.mean()
			sum.MeanSubopt, sum.MaxSubopt = &mean, &sub.worst
		}
		if ans.anyAngle() {
			mean := rat.mean()
			sum.MeanRatio, sum.MaxRatio, sum.Longer = &mean, &rat.worst, &longer
		}
		sum.TotalSeconds = time.Since(t0).Seconds()

		if *asJSON {
			b, err := json.Marshal(sum)
			if err != nil {
				return err
			}
			if _, err := stdout.Write(append(b, '\n')); err != nil {
				return err
			}
		} else if err := printSummary(stdout, &sum, len(scens)); err != nil {
			return err
		}
		if illegal != nil {
			return fmt.Errorf("%d illegal answers from -algo %s; first: %w", sum.Illegal, rf.algo, illegal)
		}
		return nil
	}
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
	fmt.Fprintf(bw, "matched        %d\n", s.Matched)
	fmt.Fprintf(bw, "mismatched     %d\n", s.Mismatched)
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
