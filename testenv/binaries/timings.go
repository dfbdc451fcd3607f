package binaries

import (
	"encoding/json"
	"os"
	"path/filepath"
	"time"
)

// timingsFile holds how long each step of the last build took, in seconds
// by step key, next to the cached programs: the estimates of the next
// build (another version, a new stamp, a cleared cache folder).
func timingsFile() (string, error) {
	root, err := CacheRoot()
	if err != nil {
		return "", err
	}
	return filepath.Join(root, "controlplane", "build-times.json"), nil
}

// readTimings returns the recorded step durations; none when there is no
// record or it cannot be read (estimates are only a help).
func readTimings() map[string]time.Duration {
	out := map[string]time.Duration{}
	path, err := timingsFile()
	if err != nil {
		return out
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return out
	}
	var secs map[string]float64
	if json.Unmarshal(data, &secs) != nil {
		return out
	}
	for k, s := range secs {
		if s > 0 {
			out[k] = time.Duration(s * float64(time.Second))
		}
	}
	return out
}

// writeTimings records took over the earlier record, keeping the steps this
// build did not run.
func writeTimings(took map[string]time.Duration) error {
	path, err := timingsFile()
	if err != nil {
		return err
	}
	secs := map[string]float64{}
	for k, d := range readTimings() {
		secs[k] = d.Seconds()
	}
	for k, d := range took {
		secs[k] = d.Round(time.Second).Seconds()
	}
	data, err := json.MarshalIndent(secs, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".build-times-")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
