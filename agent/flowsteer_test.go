package agent_test

import (
	"fmt"
	"image"
	"testing"

	"github.com/cairn-nav/cairn/agent"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
	"github.com/cairn-nav/cairn/internal/testmap"
)

// TestSteerFlow walks agents from random cells to one goal along the
// exact flow field and the hierarchical one: every move over free cells,
// and every agent that can reach the goal arrives.
func TestSteerFlow(t *testing.T) {
	for seed := int64(1); seed <= 3; seed++ {
		g := testmap.Random(seed, 70, 50, 0.2, grid.Options{})
		free := testmap.FreeCells(g)
		goal := free[len(free)/2]
		exact := agent.NewFlowField(g)
		if err := exact.Compute(goal); err != nil {
			t.Fatal(err)
		}
		h, err := hpa.Build(g, hpa.Options{ClusterSize: 10})
		if err != nil {
			t.Fatal(err)
		}
		lazy := hpa.NewFlowField(h)
		if err := lazy.Compute(goal); err != nil {
			t.Fatal(err)
		}
		r := testmap.NewRand(seed)
		for name, f := range map[string]agent.Flow{"exact": exact, "hpa": lazy} {
			for k := range 30 {
				start := free[r.IntN(len(free))]
				dist, reach := f.Dist(start)
				pos := agent.Centre(start)
				where := fmt.Sprintf("seed %d %s agent %d from %v", seed, name, k, start)
				arrived := false
				for frame := 0; frame < int(dist*3)+20; frame++ {
					target, done, ok := agent.SteerFlow(g, f, pos, 4)
					if ok != reach {
						t.Fatalf("%s: ok %v, but the goal's reachability is %v", where, ok, reach)
					}
					if done || !ok {
						arrived = done
						break
					}
					next := target
					if d := target.Sub(pos); d.Len() > 0.4 {
						next = pos.Add(d.Mul(0.4 / d.Len()))
					}
					for i := 0; i <= 64; i++ {
						if c := agent.CellOf(pos.Add(next.Sub(pos).Mul(float64(i) / 64))); !g.Passable(c) {
							t.Fatalf("%s: frame %d: move %v → %v enters blocked %v", where, frame, pos, next, c)
						}
					}
					pos = next
				}
				if reach && !arrived {
					t.Fatalf("%s: not arrived, at %v (distance %v)", where, pos, dist)
				}
			}
		}
	}
}

// Many agents, one goal: one flow field, and each agent steered along it.
func ExampleSteerFlow() {
	g, _ := grid.FromRows([]string{
		"........",
		".######.",
		"........",
	}, grid.Options{})
	f := agent.NewFlowField(g)
	f.Compute(image.Pt(7, 2))
	for _, start := range []image.Point{{0, 0}, {0, 2}, {7, 0}} {
		pos := agent.Centre(start)
		frames := 0
		for ; frames < 100; frames++ {
			target, done, _ := agent.SteerFlow(g, f, pos, 4)
			if done {
				break
			}
			if d := target.Sub(pos); d.Len() > 0.5 {
				target = pos.Add(d.Mul(0.5 / d.Len()))
			}
			pos = target
		}
		fmt.Printf("from %v: in the goal's cell after %d frames\n", start, frames)
	}
	// Output:
	// from (0,0): in the goal's cell after 17 frames
	// from (0,2): in the goal's cell after 13 frames
	// from (7,0): in the goal's cell after 3 frames
}
