// Package cli holds what the commands (pathfind, hpabuild and mapgen) share
// about their command lines: usage errors, the one line on stderr and the
// exit status that end a failed run, and whether a writer is a terminal,
// where a command may draw a progress bar.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
)

// UsageError is a mistake on the command line; a run that ends with one
// exits with status 2.
type UsageError struct{ msg string }

func (e *UsageError) Error() string { return e.msg }

// Usagef returns a *[UsageError] whose message is formatted as by
// [fmt.Sprintf].
func Usagef(format string, args ...any) error {
	return &UsageError{msg: fmt.Sprintf(format, args...)}
}

// Program names a command in the line that reports its error.
type Program struct {
	// Name starts the line: "Name: message".
	Name string
	// TrimPrefix, when set, is taken off the start of a message that has
	// it, so that it is not said twice: package mapgen's errors start with
	// "mapgen: ", as the mapgen command's line does.
	TrimPrefix string
}

// ExitStatus returns the exit status of a run of p that ended with err: 0
// when err is nil. Otherwise it first prints err on stderr as one line,
// "Name: message", its line breaks made "; " and its runs of white space
// one space, and returns 2 when err is or wraps a *[UsageError], 1 when not.
func (p Program) ExitStatus(stderr io.Writer, err error) int {
	if err == nil {
		return 0
	}
	msg := strings.Join(strings.Fields(strings.ReplaceAll(err.Error(), "\n", "; ")), " ")
	if p.TrimPrefix != "" {
		msg = strings.TrimPrefix(msg, p.TrimPrefix)
	}
	fmt.Fprintf(stderr, "%s: %s\n", p.Name, msg)
	if _, ok := errors.AsType[*UsageError](err); ok {
		return 2
	}
	return 1
}

// IsTerminal reports whether w is a terminal (a character device), where a
// progress bar may be drawn.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// MaxSize is the largest unit size ParseSizes accepts.
const MaxSize = 8

// ParseSizes reads a -sizes flag: distinct unit sizes from 1 to MaxSize,
// separated by commas, such as "1,2".
func ParseSizes(text string) ([]int, error) {
	var sizes []int
	for item := range strings.SplitSeq(text, ",") {
		k, err := strconv.Atoi(strings.TrimSpace(item))
		if err != nil || k < 1 || k > MaxSize || slices.Contains(sizes, k) {
			return nil, Usagef("-sizes %q, want distinct sizes from 1 to %d such as 1,2", text, MaxSize)
		}
		sizes = append(sizes, k)
	}
	return sizes, nil
}
