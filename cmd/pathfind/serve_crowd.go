package main

import (
	"fmt"
	"image"
	"math/rand/v2"
	"net/http"
	"sync"
	"time"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/cairn-nav/cairn/agent"
	"github.com/cairn-nav/cairn/grid"
)

// Bounds and settings of the viewer's crowd, as "pathfind crowd" has them
// by default where it has them at all.
const (
	crowdMaxAgents = 2000
	// crowdMaxFrames is the most frames one step request runs: with
	// crowdMaxAgents agents, some 150 ms on one core (1.3 ms a frame on
	// the 64×48 demo map; steering costs the same on any map, and the
	// searches are bounded by crowdBudget).
	crowdMaxFrames = 100
	crowdBudget    = 4096 // path search expansions a frame
	crowdSpeed     = 0.5  // cells a frame, by default
	crowdMaxSpeed  = 4
	crowdLookahead = 4   // cells along the path that steering looks ahead
	crowdReach     = 128 // goals are drawn within this many cells (Chebyshev) where the region allows
)

// crowdStartRequest is the body of POST /api/crowd/start.
type crowdStartRequest struct {
	Agents int      `json:"agents"`
	Speed  *float64 `json:"speed"` // cells a frame; crowdSpeed when absent
	Seed   uint64   `json:"seed"`  // of the agents' places and goals
}

// crowdStepRequest is the body of POST /api/crowd/step: run Frames frames
// (0 only reads the crowd).
type crowdStepRequest struct {
	Frames int `json:"frames"`
}

// crowdResponse is the answer of POST /api/crowd/start and /api/crowd/step:
// the crowd after its latest frame.
type crowdResponse struct {
	Version uint64 `json:"version"` // of the map the crowd walks on
	Frame   int    `json:"frame"`   // frames run since the start
	Agents  int    `json:"agents"`
	// Pos is x0, y0, x1, y1, …: each agent's position in world
	// coordinates (cell x,y covers [x, x+1) × [y, y+1)), unrounded, so
	// that a client can check what the steering promises: that the
	// segment to its target is free, which a rounded start point may not
	// be where the segment grazes a corner.
	Pos []float64 `json:"pos"`
	// Target is x0, y0, …: the point each agent steers toward, at most
	// crowdLookahead cells ahead along its path; its position when it
	// stands still (waiting for a path, or arrived).
	Target []float64 `json:"target"`
	// Waiting counts the path requests queued or being searched.
	Waiting int `json:"waiting"`
	crowdCounts
	// Micros is the time of the request's frames (or of the start).
	Micros float64 `json:"micros"`
}

// crowdCounts are what a crowd has done since its start.
type crowdCounts struct {
	Requests  int `json:"requests"`  // path requests queued
	Arrivals  int `json:"arrivals"`  // goals reached (each followed by a new goal)
	Mended    int `json:"mended"`    // paths an edit broke and Planner.Repair mended in place
	Replans   int `json:"replans"`   // paths an edit broke beyond repair, queued again
	Relocated int `json:"relocated"` // agents walled in by an edit, moved to the nearest free cell
	Lost      int `json:"lost"`      // agents that lost sight of their path
	NoPath    int `json:"noPath"`    // requests answered with no path, followed by a new goal
}

// serveCrowd holds the crowd of "pathfind serve": at most one, shared by
// every client, from POST /api/crowd/start to /api/crowd/stop. A step,
// an edit and a reset each take mu for all of their work on it, so the
// agents never see the grid change under them; a start builds the new
// crowd while it holds the server's edit turn, so that no edit falls
// between the copy of the grid and the crowd's first frame.
//
// Its methods are safe for concurrent use.
type serveCrowd struct {
	mu  sync.Mutex
	sim *crowdSim // nil when no crowd runs
}

// crowdSim is a running crowd: agents on a grid of their own, a copy of
// the server's current one that edits change in place (grid.Grid.SetCells),
// as the agent package wants, while the server's worlds stay immutable.
// It is not safe for concurrent use: serveCrowd guards it.
type crowdSim struct {
	version uint64 // of the world whose cells g holds
	g       *grid.Grid
	r       *rand.Rand
	q       *agent.Queue
	pl      *agent.Planner
	agents  []simAgent
	speed   float64
	frame   int
	n       crowdCounts
}

// simAgent is one agent of a crowdSim.
type simAgent struct {
	pos, target mgl64.Vec2
	path        agent.Path
}

// newCrowdSim returns a crowd of n agents on a copy of wd's grid, placed
// at random in its largest region by r, each with a first path requested.
// The copy, its jump table and the two searchers cost about 50 bytes a
// cell.
func newCrowdSim(wd *world, n int, speed float64, r *rand.Rand) (*crowdSim, error) {
	c := newCrowdGrid(wd, speed, r)
	cell, size := c.g.LargestRegion()
	if size < 2 {
		return nil, fmt.Errorf("the largest region has %d free cells, too few for a crowd", size)
	}
	c.agents = make([]simAgent, n)
	for i := range c.agents {
		a := &c.agents[i]
		p, _ := c.g.RandomFree(c.r, cell)
		a.pos = agent.Centre(p)
		a.target = a.pos
		a.path.Lookahead = crowdLookahead
		c.request(a, 0)
	}
	return c, nil
}

// newCrowdGrid returns a crowd with no agents on a copy of wd's grid.
func newCrowdGrid(wd *world, speed float64, r *rand.Rand) *crowdSim {
	g := wd.g.WithCells(image.Rectangle{}, true)
	g.BuildJumps()
	return &crowdSim{version: wd.version, g: g, r: r, q: agent.NewQueue(g), pl: agent.NewPlanner(g), speed: speed}
}

// goal draws a goal for an agent at cell from: in its region, within
// crowdReach where 20 draws find one.
func (c *crowdSim) goal(from image.Point) image.Point {
	var p image.Point
	for range 20 {
		p, _ = c.g.RandomFree(c.r, from)
		d := p.Sub(from)
		if max(d.X, -d.X, d.Y, -d.Y) <= crowdReach {
			break
		}
	}
	return p
}

// request asks for a path from the agent's cell to a new goal.
func (c *crowdSim) request(a *simAgent, priority int) {
	from := agent.CellOf(a.pos)
	c.q.Request(&a.path, from, c.goal(from), priority)
	c.n.Requests++
}

// replan asks for a path from the agent's cell to its goal.
func (c *crowdSim) replan(a *simAgent, priority int) {
	c.q.Request(&a.path, agent.CellOf(a.pos), a.path.Goal(), priority)
	c.n.Requests++
}

// run runs k frames: each gives the queue its budget of expansions, then
// steers and moves every agent, as "pathfind crowd" does.
func (c *crowdSim) run(k int) {
	for range k {
		c.q.Run(agent.Budget{Expansions: crowdBudget})
		for i := range c.agents {
			c.step(&c.agents[i])
		}
		c.frame++
	}
}

// step steers one agent and moves it at most the crowd's speed toward its
// target, and asks for a new path when it has arrived, is lost or has none.
// The move never enters a blocked cell: the segment to the target is free
// (agent.Path.Steer).
func (c *crowdSim) step(a *simAgent) {
	next, target, w := walkStep(&a.path, a.pos, c.speed)
	switch w {
	case walkNoPath:
		c.n.NoPath++
		c.request(a, 1)
	case walkArrived:
		c.n.Arrivals++
		c.request(a, 0)
	case walkLost:
		c.n.Lost++
		c.replan(a, 2)
	}
	a.pos, a.target = next, target
}

// apply makes the cells of rect free or blocked, as the server's world of
// the given version has them, and mends the agents' paths: an agent the
// edit walled in steps to the nearest free cell and plans again from
// there; a path the edit broke is repaired in place where a short search
// can (agent.Planner.Repair), and queued again otherwise.
func (c *crowdSim) apply(version uint64, rect image.Rectangle, free bool) {
	c.g.SetCells(rect, free)
	c.version = version
	for i := range c.agents {
		a := &c.agents[i]
		if cell := agent.CellOf(a.pos); !c.g.Passable(cell) {
			if to, ok := c.g.NearestFree(cell); ok {
				a.pos, a.target = agent.Centre(to), agent.Centre(to)
			}
			c.n.Relocated++
			c.replan(a, 2)
			continue
		}
		switch c.pl.Repair(&a.path, rect) {
		case agent.Mended:
			c.n.Mended++
		case agent.Broken:
			c.n.Replans++
			c.replan(a, 1)
		}
	}
}

// rebased returns the crowd moved onto a copy of wd's grid, which may
// differ from c's anywhere (a reset): its agents keep their places (those
// now in a wall step to the nearest free cell) and goals, and search their
// paths again from scratch.
func (c *crowdSim) rebased(wd *world) *crowdSim {
	n := newCrowdGrid(wd, c.speed, c.r)
	n.frame, n.n = c.frame, c.n
	n.agents = make([]simAgent, len(c.agents))
	for i := range c.agents {
		a, b := &c.agents[i], &n.agents[i]
		b.pos, b.target = a.pos, a.pos
		b.path.Lookahead = crowdLookahead
		if cell := agent.CellOf(b.pos); !n.g.Passable(cell) {
			if to, ok := n.g.NearestFree(cell); ok {
				b.pos, b.target = agent.Centre(to), agent.Centre(to)
			}
			n.n.Relocated++
		}
		n.q.Request(&b.path, agent.CellOf(b.pos), a.path.Goal(), 1)
		n.n.Requests++
	}
	return n
}

// response returns the crowd as the API answers it.
func (c *crowdSim) response(took time.Duration) crowdResponse {
	r := crowdResponse{
		Version:     c.version,
		Frame:       c.frame,
		Agents:      len(c.agents),
		Pos:         make([]float64, 0, 2*len(c.agents)),
		Target:      make([]float64, 0, 2*len(c.agents)),
		Waiting:     c.q.Len(),
		crowdCounts: c.n,
		Micros:      roundMicros(took),
	}
	for i := range c.agents {
		a := &c.agents[i]
		r.Pos = append(r.Pos, a.pos.X(), a.pos.Y())
		r.Target = append(r.Target, a.target.X(), a.target.Y())
	}
	return r
}

// edit applies an edit of the server's world, now at version, to the
// crowd, if one runs. The caller holds the server's edit turn.
func (sc *serveCrowd) edit(version uint64, rect image.Rectangle, free bool) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if sc.sim != nil {
		sc.sim.apply(version, rect, free)
	}
}

// rebase moves the crowd, if one runs, onto world wd after a reset. The
// caller holds the server's edit turn.
func (sc *serveCrowd) rebase(wd *world) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if sc.sim != nil {
		sc.sim = sc.sim.rebased(wd)
	}
}

// handleCrowdStart starts a crowd on the current map, replacing the one
// that ran. It takes the edit turn (503 when edits keep it too long), so
// that the crowd's grid is the current world's.
func (s *server) handleCrowdStart(w http.ResponseWriter, r *http.Request) {
	var req crowdStartRequest
	if !decodeRequest(w, r, &req) {
		return
	}
	speed := crowdSpeed
	if req.Speed != nil {
		speed = *req.Speed
	}
	switch {
	case req.Agents < 1 || req.Agents > crowdMaxAgents:
		writeError(w, http.StatusBadRequest, fmt.Sprintf("agents %d, want 1 to %d", req.Agents, crowdMaxAgents))
		return
	case !(speed > 0 && speed <= crowdMaxSpeed):
		writeError(w, http.StatusBadRequest, fmt.Sprintf("speed %v, want a number of cells a frame in (0, %d]", speed, crowdMaxSpeed))
		return
	}
	if err := s.lockEdits(r.Context()); err != nil {
		writeBusy(w, err.Error())
		return
	}
	defer s.unlockEdits()
	t0 := time.Now()
	sim, err := newCrowdSim(s.cur.Load(), req.Agents, speed, rand.New(rand.NewPCG(req.Seed, 0x63726f7764)))
	if err != nil {
		writeError(w, http.StatusConflict, "no crowd on this map: "+err.Error())
		return
	}
	resp := sim.response(time.Since(t0))
	s.crowd.mu.Lock()
	s.crowd.sim = sim
	s.crowd.mu.Unlock()
	writeJSON(w, http.StatusOK, resp)
}

// handleCrowdStep runs frames of the crowd and answers where its agents
// are; 409 when no crowd runs.
func (s *server) handleCrowdStep(w http.ResponseWriter, r *http.Request) {
	var req crowdStepRequest
	if !decodeRequest(w, r, &req) {
		return
	}
	if req.Frames < 0 || req.Frames > crowdMaxFrames {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("frames %d, want 0 to %d", req.Frames, crowdMaxFrames))
		return
	}
	s.crowd.mu.Lock()
	sim := s.crowd.sim
	if sim == nil {
		s.crowd.mu.Unlock()
		writeError(w, http.StatusConflict, "no crowd runs: POST /api/crowd/start first")
		return
	}
	t0 := time.Now()
	sim.run(req.Frames)
	resp := sim.response(time.Since(t0))
	s.crowd.mu.Unlock()
	writeJSON(w, http.StatusOK, resp)
}

// handleCrowdStop ends the crowd, if one runs, and frees its memory.
func (s *server) handleCrowdStop(w http.ResponseWriter, r *http.Request) {
	var req struct{}
	if !decodeRequest(w, r, &req) {
		return
	}
	s.crowd.mu.Lock()
	ran := s.crowd.sim != nil
	s.crowd.sim = nil
	s.crowd.mu.Unlock()
	writeJSON(w, http.StatusOK, struct {
		Stopped bool `json:"stopped"` // whether a crowd ran
	}{ran})
}
