package binaries

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode"
)

// moduleCounter counts how many of the embedded module's dependencies are
// in the Go module cache: their go.mod files (what resolving the module
// graph fetches) and their sources (what the build compiles). The lists
// come from the embedded go.sum, whose lines name exactly those files.
type moduleCounter struct {
	cache   string   // GOMODCACHE
	goMods  []string // cache paths of the go.mod files
	sources []string // cache paths of the source zips
}

// newModuleCounter reads the embedded go.sum for the files to count in
// the module cache modCache.
func newModuleCounter(modCache string) (*moduleCounter, error) {
	sum, err := moduleFS.ReadFile("module/go.sum.txt")
	if err != nil {
		return nil, err
	}
	c := &moduleCounter{cache: modCache}
	sc := bufio.NewScanner(bytes.NewReader(sum))
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) != 3 {
			continue
		}
		path, version := fields[0], fields[1]
		dir := filepath.Join(modCache, "cache", "download", escapePath(path), "@v")
		if v, ok := strings.CutSuffix(version, "/go.mod"); ok {
			c.goMods = append(c.goMods, filepath.Join(dir, escapePath(v)+".mod"))
		} else {
			c.sources = append(c.sources, filepath.Join(dir, escapePath(version)+".zip"))
		}
	}
	return c, sc.Err()
}

// String says how many of each are there. The go.sum lists a few files
// the build does not need, so the counts may end below the totals.
func (c *moduleCounter) String() string {
	return fmt.Sprintf("module sources %d of <=%d, go.mod files %d of <=%d",
		present(c.sources), len(c.sources), present(c.goMods), len(c.goMods))
}

func present(paths []string) int {
	n := 0
	for _, p := range paths {
		if _, err := os.Stat(p); err == nil {
			n++
		}
	}
	return n
}

// escapePath is the module cache's spelling of a module path or version:
// every upper-case letter becomes '!' and its lower-case form.
func escapePath(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsUpper(r) {
			b.WriteByte('!')
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}
