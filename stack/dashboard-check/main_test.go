package main

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/grafana/grafana-foundation-sdk/go/cog"
	"github.com/grafana/grafana-foundation-sdk/go/cog/plugins"
)

func TestMain(m *testing.M) {
	plugins.RegisterDefaultPlugins()
	os.Exit(m.Run())
}

// Each testdata/bad-*.json breaks one thing and names, in its description ("expect: ..."), the one problem the
// checker must report; testdata/good-*.json breaks nothing (the same cases as dashboard-check.sh's self-test).
func TestEachTestdataDashboardFailsWithTheProblemItNames(t *testing.T) {
	eachFile(t, "testdata/*.json", func(t *testing.T, file string) {
		if err := selfTestOne(file); err != nil {
			t.Error(err)
		}
	})
}

func TestTheProvisionedDashboardsDecodeStrictly(t *testing.T) {
	eachFile(t, "../../grafana/dashboards/*.json", func(t *testing.T, file string) {
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range check(raw) {
			t.Error(p)
		}
	})
}

// eachFile runs test on each file that pattern matches, as a subtest named by the file; none is a failure.
func eachFile(t *testing.T, pattern string, test func(t *testing.T, file string)) {
	files, err := filepath.Glob(pattern)
	if err != nil || len(files) == 0 {
		t.Fatalf("no file matches %s: %v", pattern, err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) { test(t, file) })
	}
}

// The SDK names an unexpected field by its parent's Go type; the checker names the field's path.
func TestAnUnexpectedFieldIsNamedByItsPath(t *testing.T) {
	err := cog.MakeBuildErrors("options.legend", cog.BuildErrors{{Path: "VizLegendOptions", Message: "unexpected field 'showLegnd'"}})
	got := findings("panels[0]", err)
	want := finding{"panels[0].options.legend.showLegnd", "unknown field"}
	if len(got) != 1 || got[0] != want {
		t.Errorf("got %v, want %v", got, want)
	}
	if got := findings("", cog.BuildErrors{}); len(got) != 0 {
		t.Errorf("an empty BuildErrors is no finding, got %v", got)
	}
	if got := findings("targets", errors.New("boom")); len(got) != 1 || got[0] != (finding{"targets", "boom"}) {
		t.Errorf("a plain error keeps its place, got %v", got)
	}
}

// Only a required field missing, and only where Grafana fills it in, is let through.
func TestLeniencyIsNarrow(t *testing.T) {
	for _, f := range []finding{
		{"annotations", requiredMissing},
		{"options.tooltip", requiredMissing},
		{"fieldConfig.defaults.custom.stacking.group", requiredMissing},
	} {
		if !lenient(f) {
			t.Errorf("%v should be let through", f)
		}
	}
	for _, f := range []finding{
		{"annotations.list", requiredMissing},
		{"gridPos.h", requiredMissing},
		{"fieldConfig.overrides", requiredMissing},
		{"optionsX", requiredMissing},
		{"options.legend.showLegnd", "unknown field"},
		{"annotations", "required field is null"},
	} {
		if lenient(f) {
			t.Errorf("%v must not be let through", f)
		}
	}
}

func TestARepeatedKeyIsFoundAtItsPath(t *testing.T) {
	raw := []byte(`{"a": {"b": 1, "b": 2}, "panels": [{"x": 1, "x": 2}], "c": [{"d": 1, "d": 1}]}`)
	got := duplicateKeys(raw)
	want := []finding{{"a.b", "repeated key: only its last value counts"}, {"c[0].d", "repeated key: only its last value counts"}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("got %v, want %v (a panel's keys are checked with the panel)", got, want)
	}
	if got := duplicateKeys([]byte(`{"a": [1, 2`)); len(got) != 0 {
		t.Errorf("broken JSON is reported by the decoders, got %v", got)
	}
}
