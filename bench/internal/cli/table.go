package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/kubeclient/client-go/bench/internal/harness"
)

// metricOrder puts the headline metrics first; the rest follow by name.
var metricOrder = []string{
	"cpu_us_per_event", "event_cpu_us", "events_per_s", "event_allocs", "event_bytes",
	"sync_cpu_ms", "sync_wall_ms", "sync_allocs_per_obj", "sync_bytes_per_obj", "sync_peak_heap_mb", "heap_per_obj_b",
	"relist_cpu_ms", "relist_allocs_per_obj", "relist_bytes_per_obj", "relist_peak_heap_mb",
	"get_cpu_us", "get_allocs", "get_bytes", "gets_per_s",
	"list_cpu_ms", "list_wall_ms", "list_allocs", "list_mb", "list_peak_heap_mb",
	"adds_per_s", "cpu_ns_per_add", "allocs_per_add",
}

// higherIsBetter are the throughput metrics.
var higherIsBetter = map[string]bool{"events_per_s": true, "gets_per_s": true, "adds_per_s": true}

// hidden are metrics kept in the JSON lines but left out of the table.
var hidden = map[string]bool{"processed": true}

type group struct {
	key              string
	workload, format string
	fixture          string // "" for the grouped layout
	n                int
	values           map[string]map[string][]float64 // metric -> lib -> values
	errors           []string
}

// printTable reads result lines and writes a markdown table: per workload
// and metric, each library's median and range, and the ratio of medians
// kubeclient / client-go.
func printTable(path string, out io.Writer) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	groups := map[string]*group{}
	var order []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var r harness.Result
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil || r.Lib == "" {
			continue
		}
		key := fmt.Sprintf("%s %s %s n=%d", r.Workload, r.Format, r.Resource, r.N)
		if r.Events > 0 {
			key += fmt.Sprintf(" events=%d", r.Events)
		}
		if r.Fixture != "" {
			key += " fixture=" + r.Fixture
		}
		switch r.Workload {
		case "workqueue":
			key = "workqueue 4 producers + 4 workers"
		case "workqueue-named":
			key = "workqueue-named (rate-limiting, Prometheus metrics) 4 producers + 4 workers"
		}
		g := groups[key]
		if g == nil {
			g = &group{key: key, workload: r.Workload, format: r.Format, fixture: r.Fixture, n: r.N, values: map[string]map[string][]float64{}}
			groups[key] = g
			order = append(order, key)
		}
		if r.Error != "" {
			g.errors = append(g.errors, r.Lib+": "+r.Error)
			continue
		}
		for m, v := range r.Metrics {
			if g.values[m] == nil {
				g.values[m] = map[string][]float64{}
			}
			g.values[m][r.Lib] = append(g.values[m][r.Lib], v)
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	printGoals(out, groups, order)
	fmt.Fprintln(out, "| workload | metric | client-go median (min–max) | kubeclient median (min–max) | ratio kc/cg |")
	fmt.Fprintln(out, "|---|---|---|---|---|")
	var failures []string
	for _, key := range order {
		g := groups[key]
		for _, m := range sortedMetrics(g.values) {
			cg, kc := g.values[m]["client-go"], g.values[m]["kubeclient"]
			name := m
			if higherIsBetter[m] {
				name += " (higher is better)"
			}
			ratio := "–"
			if len(cg) > 0 && len(kc) > 0 && median(cg) != 0 {
				ratio = fmt.Sprintf("%.2f", median(kc)/median(cg))
			}
			fmt.Fprintf(out, "| %s | %s | %s | %s | %s |\n", key, name, cell(cg), cell(kc), ratio)
		}
		for _, e := range g.errors {
			failures = append(failures, key+": "+e)
		}
	}
	if len(failures) > 0 {
		fmt.Fprintln(out, "\nFailed measurements (not in the table):")
		for _, f := range failures {
			fmt.Fprintln(out, "- "+f)
		}
	}
	return nil
}

func sortedMetrics(values map[string]map[string][]float64) []string {
	var ms []string
	for m := range values {
		if !hidden[m] {
			ms = append(ms, m)
		}
	}
	rank := func(m string) int {
		if i := slices.Index(metricOrder, m); i >= 0 {
			return i
		}
		return len(metricOrder)
	}
	sort.Slice(ms, func(i, j int) bool {
		if ri, rj := rank(ms[i]), rank(ms[j]); ri != rj {
			return ri < rj
		}
		return ms[i] < ms[j]
	})
	return ms
}

func cell(v []float64) string {
	if len(v) == 0 {
		return "–"
	}
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s) == 1 {
		return num(s[0]) + " (n=1)"
	}
	return fmt.Sprintf("%s (%s–%s, n=%d)", num(median(s)), num(s[0]), num(s[len(s)-1]), len(s))
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// num prints three significant digits, with thousands grouped.
func num(x float64) string {
	if x == 0 {
		return "0"
	}
	mag := math.Pow(10, math.Floor(math.Log10(math.Abs(x)))-2)
	x = math.Round(x/mag) * mag
	if math.Abs(x) >= 1000 {
		s := fmt.Sprintf("%.0f", x)
		var b strings.Builder
		for i, c := range s {
			if i > 0 && (len(s)-i)%3 == 0 && c != '-' {
				b.WriteByte(',')
			}
			b.WriteRune(c)
		}
		return b.String()
	}
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.3f", x), "0"), ".")
}

// goal is one line of an issue's "Done when".
type goal struct {
	issue            int
	label            string
	workload, format string // format "" matches every format
	metric           string
	atLeast          bool // the ratio must be >= limit (throughput), else <=
	limit            float64
	fixture          string // "" for the grouped layout
}

var goals = append(goals11, goals27...)

// goals11 are issue #11's targets, on the grouped fixture.
var goals11 = []goal{
	{11, "JSON informer: CPU per event", "informer", "json", "cpu_us_per_event", false, 0.33, ""},
	{11, "protobuf informer: CPU per event", "informer", "protobuf", "cpu_us_per_event", false, 0.5, ""},
	{11, "dynamic informer (JSON): CPU per event", "dynamic", "json", "cpu_us_per_event", false, 0.5, ""},
	{11, "live heap per cached pod (JSON)", "informer", "json", "heap_per_obj_b", false, 0.7, ""},
	{11, "live heap per cached pod (protobuf)", "informer", "protobuf", "heap_per_obj_b", false, 0.7, ""},
	{11, "peak heap during initial sync (JSON)", "informer", "json", "sync_peak_heap_mb", false, 0.7, ""},
	{11, "peak heap during initial sync (protobuf)", "informer", "protobuf", "sync_peak_heap_mb", false, 0.7, ""},
	{11, "peak heap during relist (JSON)", "relist", "json", "relist_peak_heap_mb", false, 0.7, ""},
	{11, "peak heap during relist (protobuf)", "relist", "protobuf", "relist_peak_heap_mb", false, 0.7, ""},
	{11, "LIST of 5,000 pods: allocations (JSON)", "list", "json", "list_allocs", false, 0.5, ""},
	{11, "LIST of 5,000 pods: CPU (JSON)", "list", "json", "list_cpu_ms", false, 0.5, ""},
	{11, "workqueue contended adds/s", "workqueue", "", "adds_per_s", true, 1.5, ""},
}

// goals27 are issue #27's targets: the users' workloads.
var goals27 = []goal{
	{27, "controller-runtime cache, typed protobuf: CPU per event", "cr-informer", "protobuf", "cpu_us_per_event", false, 0.6, ""},
	{27, "controller-runtime cache, typed JSON: CPU per event", "cr-informer", "json", "cpu_us_per_event", false, 0.4, ""},
	{27, "controller-runtime cache, typed: live heap per cached pod", "cr-informer", "", "heap_per_obj_b", false, 0.6, ""},
	{27, "controller-runtime uncached List of 5,000 pods: allocations", "cr-list", "", "list_allocs", false, 0.5, ""},
	{27, "controller-runtime uncached List of 5,000 pods: CPU", "cr-list", "", "list_cpu_ms", false, 0.5, ""},
	{27, "typed CRD informer (JSON): CPU per event", "crd", "json", "cpu_us_per_event", false, 0.4, ""},
	{27, "protobuf informer, spread fixture: CPU per event", "informer", "protobuf", "cpu_us_per_event", false, 0.5, "spread"},
	{27, "named workqueue with metrics: adds/s", "workqueue-named", "", "adds_per_s", true, 1.3, ""},
}

// printGoals prints the issue's targets with the measured ratios of
// medians, one line per goal and object count.
func printGoals(out io.Writer, groups map[string]*group, order []string) {
	fmt.Fprintln(out, "Targets of issues #11 and #27 (ratio of medians kubeclient / client-go):")
	fmt.Fprintln(out)
	fmt.Fprintln(out, "| issue | target | n | client-go | kubeclient | ratio | goal | met |")
	fmt.Fprintln(out, "|---|---|---|---|---|---|---|---|")
	for _, gl := range goals {
		for _, key := range order {
			g := groups[key]
			if g.workload != gl.workload || (gl.format != "" && g.format != gl.format) || g.fixture != gl.fixture {
				continue
			}
			cg, kc := g.values[gl.metric]["client-go"], g.values[gl.metric]["kubeclient"]
			if len(cg) == 0 || len(kc) == 0 || median(cg) == 0 {
				continue
			}
			ratio := median(kc) / median(cg)
			op, met := "<=", ratio <= gl.limit
			if gl.atLeast {
				op, met = ">=", ratio >= gl.limit
			}
			mark := "no"
			if met {
				mark = "yes"
			}
			n := strconv.Itoa(g.n)
			if strings.HasPrefix(g.workload, "workqueue") {
				n = "–"
			}
			label := gl.label
			if gl.format == "" && g.format != "" && !strings.HasPrefix(g.workload, "workqueue") {
				label += " (" + g.format + ")"
			}
			fmt.Fprintf(out, "| #%d | %s | %s | %s | %s | %.2f | %s %.2f | %s |\n", gl.issue, label, n, num(median(cg)), num(median(kc)), ratio, op, gl.limit, mark)
		}
	}
	fmt.Fprintln(out)
	fmt.Fprintln(out, "All measurements:")
	fmt.Fprintln(out)
}
