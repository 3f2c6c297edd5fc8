package main

import (
	"context"
	"embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
	"time"

	"github.com/cairn-nav/cairn/cmd/internal/cli"
	"github.com/cairn-nav/cairn/navmesh"
)

// webFS holds the page that "pathfind serve" serves: plain HTML, JavaScript
// and CSS, with no build step and nothing fetched from elsewhere.
//
//go:embed web
var webFS embed.FS

// Server timeouts. A route on a 1024² map runs Dijkstra over every cell and
// an edit rebuilds the touched HPA* clusters and the whole navmesh, each
// far inside the write timeout (BenchmarkServeEdit measures an edit).
// Either waits for its turn for at most defaultQueueWait, also far below
// the write timeout, so every request is answered, if only with a 503.
const (
	readHeaderTimeout = 5 * time.Second
	readTimeout       = 10 * time.Second
	writeTimeout      = 60 * time.Second
	idleTimeout       = 2 * time.Minute
	shutdownTimeout   = 5 * time.Second
)

// setupServe defines the flags of "pathfind serve".
func setupServe(fs *flag.FlagSet) func(io.Writer) error {
	addr := fs.String("addr", "127.0.0.1:8080", "listen on `host:port` (port 0 picks a free one)")
	mapPath := fs.String("map", "", "Moving AI .map `file` (required)")
	graphPath := fs.String("graph", "", "load the HPA* graph from `file` (written by hpabuild) instead of building it")
	meshPath := fs.String("mesh", "", "load the navmesh from `file` (written by navbuild -map for this map, without -radius) instead of building\n"+
		"it; a mesh built for another map or radius is refused")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "run at most `N` routes at once, each with its own searchers (about 16 bytes per cell)")
	queue := fs.Int("queue", 0, "let at most `N` more routes wait for a worker, each for up to "+defaultQueueWait.String()+"; the others get 503 (0: "+strconv.Itoa(queuePerWorker)+" per worker)")
	return func(stdout io.Writer) error {
		if *mapPath == "" {
			return cli.Usagef("-map is required (with -mesh too: the map the mesh was built for)")
		}
		if *workers < 1 {
			return cli.Usagef("-workers %d, want 1 or more", *workers)
		}
		if *queue < 0 {
			return cli.Usagef("-queue %d, want 0 or more", *queue)
		}
		srv, err := openServer(*mapPath, *graphPath, *meshPath, serveLimits{Workers: *workers, Queue: *queue})
		if err != nil {
			return err
		}
		ln, err := net.Listen("tcp", *addr)
		if err != nil {
			return err
		}
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		// On Ctrl-C, requests waiting for their turn answer 503 at once
		// rather than hold up the shutdown.
		context.AfterFunc(ctx, srv.close)
		h := srv.handler()
		fmt.Fprintf(stdout, "serving %s on http://%s/ (Ctrl-C to stop)\n", filepath.Base(*mapPath), ln.Addr())
		return serveUntil(ctx, ln, h)
	}
}

// openServer loads the map at mapPath and the HPA* graph at graphPath
// (built when ""), reads the navmesh at meshPath for that map and a point
// agent (built when ""), and returns the server of them with limits l.
func openServer(mapPath, graphPath, meshPath string, l serveLimits) (*server, error) {
	g, err := loadMap(mapPath)
	if err != nil {
		return nil, err
	}
	hg, err := loadGraph(g, graphPath)
	if err != nil {
		return nil, err
	}
	var nm *navmesh.Mesh
	if meshPath != "" {
		if nm, err = readMeshFor(meshPath, g, navmesh.Options{}); err != nil {
			return nil, fmt.Errorf("%w; serve wants the mesh of %s for a point agent (navbuild -map %s -o FILE, without -radius)",
				err, filepath.Base(mapPath), filepath.Base(mapPath))
		}
	}
	return newServerMesh(filepath.Base(mapPath), g, hg, nm, l)
}

// serveUntil serves h on ln until ctx is done, then shuts down gracefully:
// it stops accepting, lets requests in flight finish for up to
// shutdownTimeout, and returns nil. It closes ln.
func serveUntil(ctx context.Context, ln net.Listener, h http.Handler) error {
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    64 << 10,
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// handler returns the server's routes: the API under /api/ and the
// embedded page everywhere else.
func (s *server) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/api/map", s.handleMap)
	mux.HandleFunc("/api/route", s.handleRoute)
	mux.HandleFunc("/api/edit", s.handleEdit)
	mux.HandleFunc("/api/reset", s.handleReset)
	mux.HandleFunc("/api/trace", s.handleTrace)
	mux.HandleFunc("/api/crowd/start", s.handleCrowdStart)
	mux.HandleFunc("/api/crowd/step", s.handleCrowdStep)
	mux.HandleFunc("/api/crowd/stop", s.handleCrowdStop)
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, fmt.Sprintf("no API %s", r.URL.Path))
	})
	sub, err := fs.Sub(webFS, "web")
	if err != nil {
		panic(err) // the embedded tree always has web/
	}
	files := http.FileServerFS(sub)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Cache-Control", "no-cache")
		files.ServeHTTP(w, r)
	})
	return securityHeaders(mux)
}

// securityHeaders lets the page load nothing but its own files and keeps
// browsers from guessing content types.
func securityHeaders(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'")
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Referrer-Policy", "no-referrer")
		h.ServeHTTP(w, r)
	})
}
