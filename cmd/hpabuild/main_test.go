package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
)

const demoMap = "../../testdata/demo.map"

// hpabuild runs the command and returns its stdout, stderr and status.
func hpabuild(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return o.String(), e.String(), code
}

// field returns the value of a "name   value" line of the output.
func field(t *testing.T, out, name string) string {
	t.Helper()
	for line := range strings.Lines(out) {
		if rest, ok := strings.CutPrefix(line, name+" "); ok {
			return strings.TrimSpace(rest)
		}
	}
	t.Fatalf("no %q line in output:\n%s", name, out)
	return ""
}

// readGraph loads the demo map and the graph file written for it.
func readGraph(t *testing.T, path string) *hpa.Graph {
	t.Helper()
	g, err := grid.LoadMap(demoMap, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	hg, err := hpa.Read(f, g)
	if err != nil {
		t.Fatal(err)
	}
	return hg
}

func TestBuild(t *testing.T) {
	for _, tc := range []struct {
		name          string
		args          []string
		cluster, entr int
	}{
		{"defaults", nil, hpa.DefaultClusterSize, hpa.DefaultMaxEntrance},
		{"options", []string{"-cluster", "8", "-max-entrance", "3"}, 8, 3},
		{"one cluster", []string{"-cluster", "100"}, 100, hpa.DefaultMaxEntrance},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "demo.hpa")
			if tc.name == "options" { // overwrite an old file
				if err := os.WriteFile(out, []byte("old"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			stdout, stderr, code := hpabuild(t, append([]string{"-map", demoMap, "-o", out}, tc.args...)...)
			if code != 0 || stderr != "" {
				t.Fatalf("status %d, stderr %q", code, stderr)
			}
			hg := readGraph(t, out)
			st, opt := hg.Stats(), hg.Options()
			if opt.ClusterSize != tc.cluster || opt.MaxEntrance != tc.entr {
				t.Errorf("graph options %+v, want cluster %d, max entrance %d", opt, tc.cluster, tc.entr)
			}
			fi, err := os.Stat(out)
			if err != nil {
				t.Fatal(err)
			}
			for name, want := range map[string]string{
				"map":          demoMap + " (64×48, 8-connected)",
				"graph":        out,
				"cluster size": strconv.Itoa(tc.cluster),
				"max entrance": strconv.Itoa(tc.entr),
				"clusters":     strconv.Itoa(st.Clusters),
				"entrances":    strconv.Itoa(st.Entrances),
				"nodes":        strconv.Itoa(st.Nodes),
				"edges":        strconv.Itoa(st.Edges),
			} {
				if got := field(t, stdout, name); got != want {
					t.Errorf("%s %q, want %q", name, got, want)
				}
			}
			if got := field(t, stdout, "file size"); !strings.HasPrefix(got, strconv.FormatInt(fi.Size(), 10)+" bytes") {
				t.Errorf("file size %q, want %d bytes", got, fi.Size())
			}
			if got := field(t, stdout, "build"); !strings.HasSuffix(got, " ms") {
				t.Errorf("build %q, want a time in ms", got)
			}
			if fi.Mode().Perm() != 0o644 {
				t.Errorf("mode %v, want 0644", fi.Mode().Perm())
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 1 {
				t.Errorf("directory holds %d entries, want only demo.hpa (no temp files)", len(entries))
			}
			cs := hpa.DefaultClusterSize
			if want := ((64 + cs - 1) / cs) * ((48 + cs - 1) / cs); tc.name == "defaults" && (st.Clusters != want || st.Nodes == 0) {
				t.Errorf("stats %+v, want %d clusters of the 64×48 demo map and some nodes", st, want)
			}
		})
	}
}

// TestProgress draws the progress bar into a buffer as if it were a
// terminal.
func TestProgress(t *testing.T) {
	saved := isTerminal
	t.Cleanup(func() { isTerminal = saved })
	isTerminal = func(io.Writer) bool { return true }
	out := filepath.Join(t.TempDir(), "demo.hpa")
	_, stderr, code := hpabuild(t, "-map", demoMap, "-o", out, "-cluster", "4")
	if code != 0 {
		t.Fatalf("status %d, stderr %q", code, stderr)
	}
	if !strings.Contains(stderr, "clusters") || !strings.Contains(stderr, "/192)") {
		t.Errorf("stderr %q, want a bar of 192 clusters", stderr)
	}
	readGraph(t, out)

	// Without a terminal, nothing goes to stderr.
	isTerminal = saved
	var e bytes.Buffer
	if code := run([]string{"-map", demoMap, "-o", out}, io.Discard, &e); code != 0 || e.Len() != 0 {
		t.Errorf("status %d, stderr %q; want 0 and nothing", code, e.String())
	}
}

func TestErrors(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.hpa")
	bad := filepath.Join(dir, "bad.map")
	if err := os.WriteFile(bad, []byte("type octile\nheight 2\nwidth 3\nmap\n...\n..\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.map")
	args := func(more ...string) []string { return append([]string{"-map", demoMap, "-o", out}, more...) }
	tests := []struct {
		name string
		args []string
		code int
		want string // in the stderr line
	}{
		{"no arguments", nil, 2, "-map is required"},
		{"no output", []string{"-map", demoMap}, 2, "-o is required"},
		{"unknown flag", args("-fast"), 2, "-fast"},
		{"extra argument", args("more"), 2, `unexpected argument "more"`},
		{"cluster 0", args("-cluster", "0"), 2, "-cluster 0, want 1 to 1024"},
		{"cluster huge", args("-cluster", "5000"), 2, "-cluster 5000"},
		{"cluster not a number", args("-cluster", "big"), 2, "-cluster"},
		{"max entrance 0", args("-max-entrance", "0"), 2, "-max-entrance 0, want 1 or more"},
		{"output is the map", []string{"-map", bad, "-o", bad}, 2, "is the map itself"},
		{"missing map", []string{"-map", missing, "-o", out}, 1, "missing.map"},
		{"malformed map", []string{"-map", bad, "-o", out}, 1, "bad.map:6"},
		{"unwritable output", []string{"-map", demoMap, "-o", filepath.Join(missing, "x.hpa")}, 1, "writing " + filepath.Join(missing, "x.hpa")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := hpabuild(t, tc.args...)
			if code != tc.code {
				t.Errorf("status %d, want %d", code, tc.code)
			}
			if strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "hpabuild: ") {
				t.Errorf("stderr %q, want one line starting with hpabuild: ", stderr)
			}
			if !strings.Contains(stderr, tc.want) {
				t.Errorf("stderr %q, want it to mention %q", stderr, tc.want)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
		})
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a failed build left %s: %v", out, err)
	}
}

func TestHelp(t *testing.T) {
	for _, arg := range []string{"-h", "-help"} {
		stdout, stderr, code := hpabuild(t, arg)
		if code != 0 || stderr != "" {
			t.Fatalf("%s: status %d, stderr %q", arg, code, stderr)
		}
		for _, want := range []string{"usage: hpabuild", "-map", "-o", "-cluster", "-max-entrance", fmt.Sprintf("(default %d)", hpa.DefaultClusterSize), "(default 6)", "-levels"} {
			if !strings.Contains(stdout, want) {
				t.Errorf("%s: help lacks %q:\n%s", arg, want, stdout)
			}
		}
	}
}
