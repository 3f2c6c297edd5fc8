package main

import (
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/cairn-nav/cairn/cmd/internal/cli"
)

// progressOut is where progress bars are drawn: the process's stderr, since
// a command's action sees only stdout. Tests replace it, with isTerminal.
var progressOut io.Writer = os.Stderr

// isTerminal reports whether w is a terminal, where a progress bar may be
// drawn. Tests replace it to force bars onto a buffer.
var isTerminal = cli.IsTerminal

// progress is a progress bar on progressOut. A nil *progress draws
// nothing, so callers need not check whether a bar was started.
type progress struct {
	bar *progressbar.ProgressBar
}

// startProgress returns a bar counting to total, labelled desc, when
// progressOut is a terminal, and nil otherwise.
func startProgress(total int, desc string) *progress {
	if total <= 0 || !isTerminal(progressOut) {
		return nil
	}
	return &progress{bar: progressbar.NewOptions(total,
		progressbar.OptionSetWriter(progressOut),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionShowCount(),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)}
}

// set moves the bar to done.
func (p *progress) set(done int) {
	if p != nil {
		p.bar.Set(done)
	}
}

// add moves the bar on by n.
func (p *progress) add(n int) {
	if p != nil {
		p.bar.Add(n)
	}
}

// clear wipes the bar off its line until it next moves, so that a line
// printed to the same terminal starts clean.
func (p *progress) clear() {
	if p != nil {
		p.bar.Clear()
	}
}

// finish fills and clears the bar, so that what is printed next starts on
// a clean line. It may be called more than once.
func (p *progress) finish() {
	if p != nil {
		p.bar.Finish()
	}
}
