// Package archtest holds one test: that the imports between Cairn's
// packages are the arrows ARCHITECTURE.md draws, and none of those it
// forbids. It has no code of its own.
package archtest
