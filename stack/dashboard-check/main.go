// dashboard-check decodes Grafana dashboards strictly with the types of the Grafana Foundation SDK
// (github.com/grafana/grafana-foundation-sdk/go, pinned in go.mod), which are generated from Grafana's own schemas:
// an unknown or misspelt field anywhere fails, with the file, the panel's title and the field's path.
//
//	dashboard-check FILE...              (exit 1 when a dashboard has a problem)
//	dashboard-check -self-test DIR       (DIR/bad-*.json must each fail with the one problem their description names
//	                                      after "expect: "; DIR/good-*.json must pass)
//
// The dashboard, its templating, annotations and links go through the SDK's UnmarshalJSONStrict. Each panel is
// decoded on its own, by its type: the SDK's strict Panel decoder checks the panel's own fields, gridPos, datasource,
// links, transformations and options (through the panel plugin's package: timeseries, stat, text, ...). Three gaps of
// that decoder are closed here: a panel type the SDK does not know would take any options, so it fails;
// fieldConfig is decoded loosely there, so it is decoded strictly here (dashboard.FieldConfigSource), its
// defaults.custom through the plugin's package and each override property by its id; targets fall back to an
// untyped map there (the panel's datasource is read after them), so each is decoded here by its datasource type (the
// target's own, else the panel's: prometheus, loki, ...). A repeated key fails too (encoding/json, like Grafana's
// JSON.parse, keeps the last one silently). perflab's own rule: every panel but a row has a non-empty description
// (what it shows and what should move; tooling/tests/checks/test_dashboards.py checks the rest of the dashboards' structure).
//
// Where the SDK is stricter than Grafana 12, which accepts what follows, it is let through (lenient):
//   - a required field missing under a panel's options or fieldConfig.defaults.custom: Grafana merges the panel
//     plugin's defaults into what a dashboard gives, and a saved dashboard holds only what differs from them;
//   - the dashboard's annotations missing: Grafana's dashboard schema has it optional
//     (annotations?: #AnnotationContainer), and Grafana adds its built-in "Annotations & Alerts" query itself.
//
// Unknown fields and wrong types are never let through.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/grafana/grafana-foundation-sdk/go/cog"
	"github.com/grafana/grafana-foundation-sdk/go/cog/plugins"
	"github.com/grafana/grafana-foundation-sdk/go/cog/variants"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
)

// problem is one thing wrong with a dashboard: where (the dashboard, or a panel by its title), the JSON path from
// the dashboard's root, and what is wrong.
type problem struct{ where, path, message string }

func (p problem) String() string { return p.where + ": " + p.path + ": " + p.message }

// finding is a problem before it is placed: its path is relative to what was decoded.
type finding struct{ path, message string }

const requiredMissing = "required field is missing from input"

var unexpectedField = regexp.MustCompile(`^unexpected field '(.*)'$`)

func main() {
	selfTest := flag.String("self-test", "", "a directory of bad-*.json and good-*.json dashboards to check the checker with")
	flag.Parse()
	plugins.RegisterDefaultPlugins()
	if *selfTest != "" {
		summary, err := runSelfTest(*selfTest)
		if err != nil {
			fmt.Fprintf(os.Stderr, "dashboard-check: self-test: %v\n", err)
			os.Exit(1)
		}
		fmt.Println("dashboard-check: self-test: " + summary)
		return
	}
	failed := false
	for _, file := range flag.Args() {
		raw, err := os.ReadFile(file)
		if err != nil {
			fmt.Fprintf(os.Stderr, "dashboard-check: %v\n", err)
			failed = true
			continue
		}
		problems := check(raw)
		for _, p := range problems {
			fmt.Fprintf(os.Stderr, "dashboard-check: %s: %s\n", file, p)
		}
		if len(problems) > 0 {
			failed = true
			continue
		}
		fmt.Printf("dashboard-check: %s: strict decode clean (%s)\n", file, panelTypes(raw))
	}
	if failed {
		os.Exit(1)
	}
}

// check lists the problems of one dashboard: the dashboard's own fields first, then each panel's in order.
func check(raw []byte) []problem {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return []problem{{"dashboard", "(file)", err.Error()}}
	}
	var panels []json.RawMessage
	if err := json.Unmarshal(orNull(fields["panels"]), &panels); err != nil {
		return []problem{{"dashboard", "panels", err.Error()}}
	}
	fields["panels"] = json.RawMessage("[]") // each panel is decoded below, by its type
	var board dashboard.Dashboard
	found := append(duplicateKeys(raw), decodeStrict(encode(fields), &board)...)
	problems := place("dashboard", "", found)
	for i, panel := range panels {
		problems = append(problems, checkPanel(fmt.Sprintf("panels[%d]", i), panel)...)
	}
	return problems
}

// checkPanel lists the problems of one panel (and of the panels a row holds) at path.
func checkPanel(path string, raw json.RawMessage) []problem {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return []problem{{"panel", path, err.Error()}}
	}
	var head struct {
		Type, Title, Description string
		Datasource               *struct{ Type string }
	}
	_ = json.Unmarshal(raw, &head) // a field of the wrong type is reported by the strict decoders below
	where := fmt.Sprintf("panel %q", head.Title)
	found := duplicateKeys(raw)
	if head.Type == "row" {
		var nested []json.RawMessage
		if err := json.Unmarshal(orNull(fields["panels"]), &nested); err != nil {
			return place(where, path, append(found, finding{"panels", err.Error()}))
		}
		fields["panels"] = json.RawMessage("[]")
		var row dashboard.RowPanel
		problems := place(where, path, append(found, decodeStrict(encode(fields), &row)...))
		for i, panel := range nested {
			problems = append(problems, checkPanel(fmt.Sprintf("%s.panels[%d]", path, i), panel)...)
		}
		return problems
	}
	plugin, known := cog.ConfigForPanelcfgVariant(head.Type)
	if !known {
		return place(where, path, append(found, finding{"type",
			fmt.Sprintf("unknown panel type %q: the SDK has no panel plugin of that id, so its options cannot be checked", head.Type)}))
	}
	targets, fieldConfig := fields["targets"], fields["fieldConfig"]
	delete(fields, "targets")
	delete(fields, "fieldConfig")
	var panel dashboard.Panel
	found = append(found, decodeStrict(encode(fields), &panel)...)
	if fieldConfig != nil {
		found = append(found, checkFieldConfig(plugin, fieldConfig)...)
	}
	if targets != nil {
		datasource := ""
		if head.Datasource != nil {
			datasource = head.Datasource.Type
		}
		found = append(found, checkTargets(datasource, targets)...)
	}
	if strings.TrimSpace(head.Description) == "" {
		found = append(found, finding{"description", "missing or empty: say what the panel shows and what should move"})
	}
	return place(where, path, found)
}

// checkFieldConfig decodes a panel's fieldConfig strictly: the defaults and overrides by the dashboard schema,
// defaults.custom by the panel plugin's own field config, and each override property by its id.
func checkFieldConfig(plugin variants.PanelcfgConfig, raw json.RawMessage) []finding {
	var source dashboard.FieldConfigSource
	found := decodeStrict(raw, &source)
	for i := range found {
		found[i].path = join("fieldConfig", found[i].path)
	}
	var custom struct {
		Defaults struct{ Custom json.RawMessage }
	}
	_ = json.Unmarshal(raw, &custom) // a wrong type is reported above
	if len(custom.Defaults.Custom) > 0 && string(custom.Defaults.Custom) != "null" {
		found = append(found, decodeCustom(plugin, "fieldConfig.defaults.custom", custom.Defaults.Custom)...)
	}
	for i, override := range source.Overrides {
		for j, property := range override.Properties {
			at := fmt.Sprintf("fieldConfig.overrides[%d].properties[%d]", i, j)
			found = append(found, checkOverride(plugin, at, property)...)
		}
	}
	return found
}

// decodeCustom decodes fieldConfig.defaults.custom (or a part of it) by the panel plugin's field config.
func decodeCustom(plugin variants.PanelcfgConfig, path string, raw json.RawMessage) []finding {
	if plugin.StrictFieldConfigUnmarshaler == nil {
		if string(bytes.TrimSpace(raw)) == "{}" {
			return nil
		}
		return []finding{{path, fmt.Sprintf("panel type %q has no custom field config", plugin.Identifier)}}
	}
	_, err := plugin.StrictFieldConfigUnmarshaler(raw)
	return findings(path, err)
}

// checkOverride decodes one override property as the part of the field config its id names ("unit",
// "custom.lineWidth", "color"): {"custom": {"lineWidth": 2}} by the plugin's field config, {"unit": "ms"} by the
// dashboard's. Only that part is given, so a required field missing beside it is no problem.
func checkOverride(plugin variants.PanelcfgConfig, path string, property dashboard.DynamicConfigValue) []finding {
	name, custom := strings.CutPrefix(property.Id, "custom.")
	var value any = property.Value
	keys := strings.Split(name, ".")
	for i := len(keys) - 1; i >= 0; i-- {
		value = map[string]any{keys[i]: value}
	}
	raw, err := json.Marshal(value)
	if err != nil {
		return []finding{{path + ".value", err.Error()}}
	}
	var found []finding
	if custom {
		found = decodeCustom(plugin, "custom", raw)
	} else {
		var config dashboard.FieldConfig
		found = findings("", config.UnmarshalJSONStrict(raw))
	}
	var out []finding
	for _, f := range found {
		switch {
		case f.message == requiredMissing:
		case f.message == "unknown field":
			out = append(out, finding{path + ".id", fmt.Sprintf("%q names no field config property", property.Id)})
		default:
			out = append(out, finding{path + ".value", fmt.Sprintf("%s: %s", f.path, f.message)})
		}
	}
	return out
}

// checkTargets decodes each query by the schema of its datasource type: the target's own, else the panel's.
func checkTargets(panelDatasource string, raw json.RawMessage) []finding {
	var targets []json.RawMessage
	if err := json.Unmarshal(raw, &targets); err != nil {
		return []finding{{"targets", err.Error()}}
	}
	var found []finding
	for i, target := range targets {
		at := fmt.Sprintf("targets[%d]", i)
		var own struct{ Datasource *struct{ Type string } }
		_ = json.Unmarshal(target, &own) // a wrong type is reported by the strict decoder
		datasource := panelDatasource
		if own.Datasource != nil && own.Datasource.Type != "" {
			datasource = own.Datasource.Type
		}
		if datasource == "" {
			found = append(found, finding{at, "no datasource type on the target nor on its panel: its fields cannot be checked"})
			continue
		}
		query, err := cog.StrictUnmarshalDataquery(target, datasource)
		if _, untyped := query.(variants.UnknownDataquery); untyped {
			found = append(found, finding{at, fmt.Sprintf("datasource type %q: the SDK has no query schema for it", datasource)})
			continue
		}
		found = append(found, findings(at, err)...)
	}
	return found
}

// strictType is an SDK type: a strict decoder and the schema's constraints (gridPos.w <= 24, ...).
type strictType interface {
	UnmarshalJSONStrict(raw []byte) error
	Validate() error
}

// decodeStrict decodes raw into an SDK type strictly, then checks its constraints when the decoding found nothing
// but what is lenient (a value it could not decode would fail them again).
func decodeStrict(raw []byte, into strictType) []finding {
	found := findings("", into.UnmarshalJSONStrict(raw))
	for _, f := range found {
		if !lenient(f) {
			return found
		}
	}
	return append(found, findings("", into.Validate())...)
}

// encode re-encodes an object that a part was taken out of (encoding/json cannot fail on raw JSON it decoded).
func encode(fields map[string]json.RawMessage) []byte {
	raw, _ := json.Marshal(fields)
	return raw
}

// findings turns what an SDK decoder returned into findings under prefix. The SDK's BuildErrors name an unexpected
// field by its parent's Go type ("gridPos.GridPos: unexpected field 'statc'"): the type gives way to the field.
// (Its decoders return an empty BuildErrors, not nil, when all is well.)
func findings(prefix string, err error) []finding {
	if err == nil {
		return nil
	}
	var many cog.BuildErrors
	var one *cog.BuildError
	switch {
	case errors.As(err, &many):
	case errors.As(err, &one):
		many = cog.BuildErrors{one}
	default:
		return []finding{{prefix, err.Error()}}
	}
	var out []finding
	for _, e := range many {
		path, message := e.Path, e.Message
		if m := unexpectedField.FindStringSubmatch(message); m != nil {
			parent := ""
			if i := strings.LastIndex(path, "."); i >= 0 {
				parent = path[:i]
			}
			path, message = join(parent, m[1]), "unknown field"
		}
		out = append(out, finding{join(prefix, path), message})
	}
	return out
}

// place puts findings relative to a dashboard or panel at its path, leaving out what Grafana 12 accepts (lenient).
func place(where, path string, found []finding) []problem {
	var problems []problem
	for _, f := range found {
		if !lenient(f) {
			problems = append(problems, problem{where, join(path, f.path), f.message})
		}
	}
	return problems
}

// lenient: a required field missing where Grafana fills it in itself (see the package comment).
func lenient(f finding) bool {
	if f.message != requiredMissing {
		return false
	}
	return f.path == "annotations" || under(f.path, "options") || under(f.path, "fieldConfig.defaults.custom")
}

func under(path, parent string) bool {
	return path == parent || strings.HasPrefix(path, parent+".")
}

func join(parent, child string) string {
	switch {
	case parent == "":
		return child
	case child == "":
		return parent
	}
	return parent + "." + child
}

func orNull(raw json.RawMessage) json.RawMessage {
	if raw == nil {
		return json.RawMessage("null")
	}
	return raw
}

// duplicateKeys lists the keys that repeat in an object of raw, without descending into its top-level "panels"
// (each panel is checked on its own).
func duplicateKeys(raw []byte) []finding {
	decoder := json.NewDecoder(bytes.NewReader(raw))
	var found []finding
	var walk func(path string, depth int) error
	walk = func(path string, depth int) error {
		token, err := decoder.Token()
		if err != nil {
			return err
		}
		switch token {
		case json.Delim('{'):
			seen := map[string]bool{}
			for decoder.More() {
				token, err := decoder.Token()
				if err != nil {
					return err
				}
				key, _ := token.(string)
				if seen[key] {
					found = append(found, finding{join(path, key), "repeated key: only its last value counts"})
				}
				seen[key] = true
				if depth == 0 && key == "panels" {
					if err := decoder.Decode(new(json.RawMessage)); err != nil {
						return err
					}
					continue
				}
				if err := walk(join(path, key), depth+1); err != nil {
					return err
				}
			}
			_, err = decoder.Token()
			return err
		case json.Delim('['):
			for i := 0; decoder.More(); i++ {
				if err := walk(fmt.Sprintf("%s[%d]", path, i), depth+1); err != nil {
					return err
				}
			}
			_, err = decoder.Token()
			return err
		}
		return nil
	}
	_ = walk("", 0) // a syntax error is reported by the decoders
	return found
}

// panelTypes counts a valid dashboard's panels by type, for the line that says it passed.
func panelTypes(raw []byte) string {
	var board struct{ Panels []struct{ Type string } }
	_ = json.Unmarshal(raw, &board)
	counts := map[string]int{}
	for _, panel := range board.Panels {
		counts[panel.Type]++
	}
	var parts []string
	for name, count := range counts {
		parts = append(parts, fmt.Sprintf("%d %s", count, name))
	}
	sort.Strings(parts)
	return fmt.Sprintf("%d panels: %s", len(board.Panels), strings.Join(parts, ", "))
}

// runSelfTest checks the checker: each dir/bad-*.json must fail with exactly one problem, the one its description
// names after "expect: "; each dir/good-*.json must pass.
func runSelfTest(dir string) (string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		return "", fmt.Errorf("no dashboards in %s (%v)", dir, err)
	}
	bad, good := 0, 0
	for _, file := range files {
		if err := selfTestOne(file); err != nil {
			return "", err
		}
		if strings.HasPrefix(filepath.Base(file), "bad-") {
			bad++
		} else {
			good++
		}
	}
	return fmt.Sprintf("%d broken dashboards rejected, each with the problem it names; %d good accepted", bad, good), nil
}

func selfTestOne(file string) error {
	raw, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	var board struct{ Description string }
	_ = json.Unmarshal(raw, &board)
	expected, found := strings.CutPrefix(board.Description, "expect: ")
	if strings.HasPrefix(filepath.Base(file), "bad-") != found {
		return fmt.Errorf("%s: a bad-*.json dashboard, and only one, has the description \"expect: <problem>\"", file)
	}
	var lines []string
	for _, p := range check(raw) {
		lines = append(lines, p.String())
	}
	got := strings.Join(lines, "\n")
	switch {
	case !found && len(lines) > 0:
		return fmt.Errorf("%s must pass, but:\n%s", file, got)
	case found && len(lines) == 0:
		return fmt.Errorf("%s passed, but it must fail with: %s", file, expected)
	case found && (len(lines) > 1 || !strings.Contains(got, expected)):
		return fmt.Errorf("%s must fail with exactly: %s\nbut got:\n%s", file, expected, got)
	}
	return nil
}
