package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// state is the outcome of one test.
type state string

const (
	passed  state = "pass"
	failed  state = "fail"
	skipped state = "skip"
)

// kind is a kind of result file.
type kind string

const (
	goTest     kind = "go tests"
	ginkgoSpec kind = "ginkgo specs"
)

func (k kind) suffix() string {
	if k == goTest {
		return ".gotest.json"
	}
	return ".ginkgo.json"
}

func (k kind) parse(data []byte, file string, into map[string]state) error {
	if k == goTest {
		return parseGoTest(data, into)
	}
	return parseGinkgo(data, strings.TrimSuffix(file, k.suffix()), into)
}

// testEvent is the part of a `go test -json` event used here.
type testEvent struct {
	Action  string
	Package string
	Test    string
}

// parseGoTest records the last pass, fail or skip of every test in a
// `go test -json` stream. Lines that are not JSON (build output on stderr
// mixed in) are ignored.
func parseGoTest(data []byte, into map[string]state) error {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 || line[0] != '{' {
			continue
		}
		var e testEvent
		if err := json.Unmarshal(line, &e); err != nil || e.Test == "" {
			continue
		}
		switch e.Action {
		case "pass", "fail", "skip":
			into[e.Package+" "+e.Test] = state(e.Action)
		}
	}
	return sc.Err()
}

// ginkgoSuite is the part of a Ginkgo JSON report used here.
type ginkgoSuite struct {
	SuitePath   string
	SpecReports []struct {
		ContainerHierarchyTexts []string
		LeafNodeText            string
		LeafNodeType            string
		State                   string
	}
}

// parseGinkgo records the state of every It of a Ginkgo JSON report. Specs
// with the same texts are told apart by their order.
func parseGinkgo(data []byte, suite string, into map[string]state) error {
	var suites []ginkgoSuite
	if err := json.Unmarshal(data, &suites); err != nil {
		return err
	}
	for _, s := range suites {
		seen := map[string]int{}
		for _, sp := range s.SpecReports {
			if sp.LeafNodeType != "It" {
				continue
			}
			key := suite + ": " + strings.Join(append(append([]string{}, sp.ContainerHierarchyTexts...), sp.LeafNodeText), " / ")
			seen[key]++
			if n := seen[key]; n > 1 {
				key = fmt.Sprintf("%s #%d", key, n)
			}
			switch sp.State {
			case "passed":
				into[key] = passed
			case "skipped", "pending":
				into[key] = skipped
			default: // failed, panicked, interrupted, aborted, timedout
				into[key] = failed
			}
		}
	}
	return nil
}
