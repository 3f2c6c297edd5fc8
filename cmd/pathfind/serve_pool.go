package main

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"
	"time"
)

// Defaults of [serveLimits].
const (
	queuePerWorker = 64
	// defaultQueueWait is how long a route or an edit may wait for its
	// turn: well under writeTimeout, so that whoever waits the longest is
	// still answered, with the route's own time on top.
	defaultQueueWait = 5 * time.Second
	// retryAfter is the Retry-After of a 503, in seconds.
	retryAfter = "1"
)

// serveLimits bounds the work "pathfind serve" takes on at once. Its zero
// value gives the defaults.
type serveLimits struct {
	// Workers is the number of routes that run at once, each on a worker
	// of its own; 0 means runtime.GOMAXPROCS(0).
	Workers int
	// Queue is the number of routes that may wait for a worker beyond
	// those running; 0 means queuePerWorker per worker.
	Queue int
	// Wait is the longest a route waits for a worker, or an edit for the
	// edit before it; 0 means defaultQueueWait.
	Wait time.Duration
	// Trace is the most expansions a trace (GET /api/trace) records; 0
	// means traceLimit.
	Trace int
}

// withDefaults returns l with its zero fields set to the defaults.
func (l serveLimits) withDefaults() serveLimits {
	if l.Workers <= 0 {
		l.Workers = runtime.GOMAXPROCS(0)
	}
	if l.Queue <= 0 {
		l.Queue = queuePerWorker * l.Workers
	}
	if l.Wait <= 0 {
		l.Wait = defaultQueueWait
	}
	if l.Trace <= 0 {
		l.Trace = traceLimit
	}
	return l
}

// Why a request got no turn. Each is answered with 503 and Retry-After.
var (
	errQueueFull = errors.New("queue full")
	errQueueWait = errors.New("waited too long")
	errClosing   = errors.New("server shutting down")
)

// routePool runs the routes of "pathfind serve" on a fixed set of slots.
// Each slot keeps one [worker] (its searchers and path buffers: 18 MB on
// Berlin_0_1024, 1024², most of it the grid searcher's scratch) and lends it to
// one route at a time, so the memory of routes is bounded by the number of
// slots, not by the number of clients. A slot's worker is reused by every
// route on the same version of the map and made again, once, for the first
// route after an edit; nothing of a route is kept once it is answered.
//
// A route that finds every slot taken waits in a queue of bounded length,
// served in order of arrival, for at most the pool's wait. It is refused
// at once when the queue is full, and leaves the queue when its client goes
// away or the server shuts down.
//
// The methods are safe for concurrent use.
type routePool struct {
	slots   chan *slot    // idle slots
	tickets chan struct{} // one per route running or queued
	wait    time.Duration
	closing chan struct{} // closed by close
	closed  atomic.Bool

	// Counters, read by [routePool.stats].
	built, ran, refused atomic.Int64
	busy, peak, queued  atomic.Int64
}

// slot is one place in a [routePool]. Its worker is nil until the slot's
// first route, and is for the world of its latest route.
type slot struct{ wk *worker }

func newRoutePool(l serveLimits) *routePool {
	p := &routePool{
		slots:   make(chan *slot, l.Workers),
		tickets: make(chan struct{}, l.Workers+l.Queue),
		wait:    l.Wait,
		closing: make(chan struct{}),
	}
	for range l.Workers {
		p.slots <- &slot{}
	}
	return p
}

// acquire waits for a free slot and returns it; the caller must give it
// back with release. It returns errQueueFull at once when as many routes
// are waiting as the queue holds, errQueueWait when no slot came free
// within the pool's wait, errClosing when the server is shutting down, and
// ctx's error when ctx is done first (the client went away). A refused
// route leaves the queue at once. acquire allocates only a timer, and only
// when it has to wait.
func (p *routePool) acquire(ctx context.Context) (*slot, error) {
	if p.closed.Load() {
		p.refused.Add(1)
		return nil, errClosing
	}
	select {
	case p.tickets <- struct{}{}:
	default:
		p.refused.Add(1)
		return nil, errQueueFull
	}
	select {
	case sl := <-p.slots:
		p.take()
		return sl, nil
	default:
	}
	p.queued.Add(1)
	defer p.queued.Add(-1)
	t := time.NewTimer(p.wait)
	defer t.Stop()
	var err error
	// A slot given back goes to the route that has waited longest: a
	// channel hands a value to its receivers in the order they came.
	select {
	case sl := <-p.slots:
		p.take()
		return sl, nil
	case <-t.C:
		err = errQueueWait
	case <-p.closing:
		err = errClosing
	case <-ctx.Done():
		err = ctx.Err()
	}
	<-p.tickets
	p.refused.Add(1)
	return nil, err
}

// take counts a slot taken.
func (p *routePool) take() {
	n := p.busy.Add(1)
	for {
		m := p.peak.Load()
		if n <= m || p.peak.CompareAndSwap(m, n) {
			break
		}
	}
}

// release gives back a slot taken by acquire.
func (p *routePool) release(sl *slot) {
	p.ran.Add(1)
	p.busy.Add(-1)
	p.slots <- sl
	<-p.tickets
}

// worker returns the slot's worker for wd, making it when the slot has
// none or one for another world. Making one costs what the searchers'
// scratch does (about 16 bytes per cell and the HPA* and navmesh scratch);
// the old worker is dropped first, so that a slot holds at most one. A
// worker for another world of the same grid, graph and mesh (the map as
// loaded, after a reset) is kept.
func (p *routePool) worker(sl *slot, wd *world) *worker {
	switch wk := sl.wk; {
	case wk != nil && wk.w == wd:
	case wk != nil && wk.w.g == wd.g && wk.w.hg == wd.hg && wk.w.nm == wd.nm:
		wk.w = wd // the map as loaded, after a reset
	default:
		sl.wk = nil
		sl.wk = newWorker(wd)
		p.built.Add(1)
	}
	return sl.wk
}

// close makes routes that wait, and those that come later, answer 503 at
// once; those running finish. It is for a graceful shutdown, which would
// otherwise wait for the queue to drain. It may be called more than once.
func (p *routePool) close() {
	if p.closed.CompareAndSwap(false, true) {
		close(p.closing)
	}
}

// poolStats is what a [routePool] has done so far.
type poolStats struct {
	Workers int   // slots
	Built   int64 // workers made: one per slot, and one per slot and edit
	Ran     int64 // routes that had a slot
	Refused int64 // routes that got none
	Busy    int64 // slots taken now
	Peak    int64 // most slots taken at once
	Queued  int64 // routes waiting now
}

func (p *routePool) stats() poolStats {
	return poolStats{
		Workers: cap(p.slots),
		Built:   p.built.Load(),
		Ran:     p.ran.Load(),
		Refused: p.refused.Load(),
		Busy:    p.busy.Load(),
		Peak:    p.peak.Load(),
		Queued:  p.queued.Load(),
	}
}

// refusal returns the message of a 503 for err, from acquire.
func (p *routePool) refusal(err error) string {
	switch err {
	case errQueueFull:
		return fmt.Sprintf("busy: %d routes running and %d queued; try again shortly", cap(p.slots), cap(p.tickets)-cap(p.slots))
	case errQueueWait:
		return fmt.Sprintf("busy: no worker came free within %v; try again shortly", p.wait)
	case errClosing:
		return "the server is shutting down"
	}
	return "request cancelled while waiting for a worker: " + err.Error()
}
