package homedir

import (
	"os"
	"path/filepath"
	"runtime"
)

// HomeDir returns the home directory of the current user.
//
// Outside Windows it is $HOME. On Windows the candidates are %HOME%,
// %HOMEDRIVE%%HOMEPATH% (only when both are set) and %USERPROFILE%, and the
// first rule that yields one wins:
//  1. the first of %HOME%, %HOMEDRIVE%%HOMEPATH%, %USERPROFILE% that holds
//     a .kube\config file;
//  2. the first of %HOME%, %USERPROFILE%, %HOMEDRIVE%%HOMEPATH% that is an
//     existing directory writable by its owner;
//  3. the first of those three that exists;
//  4. the first of those three that is set.
//
// It returns "" when nothing applies.
func HomeDir() string {
	if runtime.GOOS == "windows" {
		return windowsHomeDir(os.Getenv, os.Stat)
	}
	return os.Getenv("HOME")
}

// windowsHomeDir applies the Windows rules of HomeDir with the given
// environment and file system.
func windowsHomeDir(getenv func(string) string, stat func(string) (os.FileInfo, error)) string {
	home := getenv("HOME")
	userProfile := getenv("USERPROFILE")
	var driveAndPath string
	if drive, path := getenv("HOMEDRIVE"), getenv("HOMEPATH"); drive != "" && path != "" {
		driveAndPath = drive + path
	}

	// Rule 1: a directory that already has a kubeconfig.
	for _, dir := range []string{home, driveAndPath, userProfile} {
		if dir == "" {
			continue
		}
		if _, err := stat(filepath.Join(dir, ".kube", "config")); err == nil {
			return dir
		}
	}

	// Rules 2 to 4, over a different order of candidates.
	var firstSet, firstExisting string
	for _, dir := range []string{home, userProfile, driveAndPath} {
		if dir == "" {
			continue
		}
		if firstSet == "" {
			firstSet = dir
		}
		info, err := stat(dir)
		if err != nil {
			continue
		}
		if firstExisting == "" {
			firstExisting = dir
		}
		const ownerWrite = 0o200
		if info.IsDir() && info.Mode().Perm()&ownerWrite != 0 {
			return dir
		}
	}
	if firstExisting != "" {
		return firstExisting
	}
	return firstSet
}
