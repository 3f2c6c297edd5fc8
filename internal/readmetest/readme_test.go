package readmetest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// block returns the first fenced block after heading in the README whose
// fence line is fence, without its fences.
func block(t *testing.T, readme, heading, fence string) string {
	t.Helper()
	i := strings.Index(readme, "\n"+heading+"\n")
	if i < 0 {
		t.Fatalf("README has no heading %q", heading)
	}
	rest := readme[i:]
	j := strings.Index(rest, "\n"+fence+"\n")
	if j < 0 {
		t.Fatalf("README has no %s block after %q", fence, heading)
	}
	rest = rest[j+len(fence)+2:]
	k := strings.Index(rest, "\n```\n")
	if k < 0 {
		t.Fatalf("README's %s block after %q is not closed", fence, heading)
	}
	return rest[:k+1]
}

// TestLibraryProgram copies the README's library program into a module of
// its own that uses this checkout, runs it beside a copy of the demo map,
// and compares its output with the block the README says it prints.
func TestLibraryProgram(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a program: skipped with -short")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	prog := block(t, readme, "## Use as a library", "```go")
	after := readme[strings.Index(readme, prog)+len(prog):]
	want := block(t, after, "It prints:", "```")

	goMod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	// The program's module requires what Cairn's does, at the same
	// versions, and Cairn itself from this checkout.
	req := regexp.MustCompile(`(?m)^\s*((?:github\.com|gonum\.org|golang\.org|go\.mongodb\.org)/\S+ v\S+)`).FindAllStringSubmatch(string(goMod), -1)
	var mod strings.Builder
	mod.WriteString("module readme\n\ngo 1.26\n\nrequire (\n\tgithub.com/cairn-nav/cairn v0.0.0\n")
	for _, m := range req {
		mod.WriteString("\t" + m[1] + "\n")
	}
	mod.WriteString(")\n\nreplace github.com/cairn-nav/cairn => " + root + "\n")

	dir := t.TempDir()
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	demo, err := os.ReadFile(filepath.Join(root, "testdata", "demo.map"))
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{
		"go.mod": []byte(mod.String()), "go.sum": sum, "main.go": []byte(prog), filepath.Join("testdata", "demo.map"): demo,
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("go", "run", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("go run of the README's program: %v\n%s\n%s", err, stderr.String(), prog)
	}
	if got := stdout.String(); got != want {
		t.Errorf("the README's program prints\n%s\nthe README says\n%s", got, want)
	}
}
