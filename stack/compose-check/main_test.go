package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Each testdata/bad-*.yml breaks one rule of a closed stack and names, on its first line
// (`# expect: ...`), the problem the checker must report; testdata/good-closed.yml breaks none.
func TestClosedStackRules(t *testing.T) {
	files, err := filepath.Glob("testdata/*.yml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			project, err := load([]string{file}, nil)
			if err != nil {
				t.Fatalf("load: %v", err)
			}
			problems := strings.Join(closed(project), "\n")
			expected := expectation(t, file)
			switch {
			case expected == "" && problems != "":
				t.Errorf("expected no problem, got:\n%s", problems)
			case expected != "" && !strings.Contains(problems, expected):
				t.Errorf("expected %q, got:\n%s", expected, problems)
			}
		})
	}
}

func expectation(t *testing.T, file string) string {
	content, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(string(content), "\n")
	expected, found := strings.CutPrefix(first, "# expect: ")
	if strings.HasPrefix(filepath.Base(file), "bad-") != found {
		t.Fatalf("%s: a bad-*.yml file, and only one, starts with `# expect: <problem>`", file)
	}
	if !found {
		return ""
	}
	return strings.TrimSpace(expected)
}
