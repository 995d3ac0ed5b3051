package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// echo answers murmur3 with its seed, rejects seed 1 (decode) and 2 (no stage), calls seed 3
// unsupported, fails as an adapter on seed 4 and panics on seed 5.
var echo = Adapter{
	Implementation: "echo",
	Version:        "1.0",
	Operations: []Operation{
		Op("murmur3", func(in Murmur3Input) (Murmur3Output, error) {
			switch in.Seed {
			case 1:
				return Murmur3Output{}, Reject(StageDecode, errors.New("truncated"))
			case 2:
				return Murmur3Output{}, Reject(NoStage, errors.New("no"))
			case 3:
				return Murmur3Output{}, Unsupportedf("seed %d", in.Seed)
			case 4:
				return Murmur3Output{}, errors.New("the adapter's own bug")
			case 5:
				panic("the library's index out of range")
			}
			return Murmur3Output{Hash: in.Seed + uint32(len(in.Data))}, nil
		}),
		Op("bitIndexes", func(in BitIndexesInput) (BitIndexesOutput, error) {
			return BitIndexesOutput{}, nil
		}),
	},
}

// exchange runs the adapter over the input lines and returns its output lines and Run's error.
func exchange(t *testing.T, adapter Adapter, input string) ([]map[string]any, error) {
	t.Helper()
	var out bytes.Buffer
	err := Run(adapter, strings.NewReader(input), &out)
	var lines []map[string]any
	for _, line := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
		var v map[string]any
		if jsonErr := json.Unmarshal([]byte(line), &v); jsonErr != nil {
			t.Fatalf("not a JSON line: %q", line)
		}
		lines = append(lines, v)
	}
	return lines, err
}

func text(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestHelloComesFirstWithTheOperationsInOrder(t *testing.T) {
	lines, err := exchange(t, echo, "")
	if err != nil || len(lines) != 1 {
		t.Fatalf("%v %v", lines, err)
	}
	want := `{"hello":{"implementation":"echo","operations":["murmur3","bitIndexes"],"protocol":1,"version":"1.0"}}`
	if got := text(lines[0]); got != want {
		t.Fatalf("hello %s, want %s", got, want)
	}
	noted := echo
	noted.Notes = "no hashSeed"
	lines, _ = exchange(t, noted, "")
	if lines[0]["hello"].(map[string]any)["notes"] != "no hashSeed" {
		t.Fatalf("notes missing: %v", lines[0])
	}
}

func TestEachRequestGetsItsStatus(t *testing.T) {
	input := `{"id": 1, "op": "murmur3", "input": {"seed": 7, "data": "00ff"}}
{"id": 2, "op": "murmur3", "input": {"seed": 1, "data": ""}}
{"id": 3, "op": "murmur3", "input": {"seed": 2, "data": ""}}
{"id": 4, "op": "murmur3", "input": {"seed": 3, "data": ""}}
{"id": 5, "op": "hashSeed", "input": {"hashIndex": 0, "tweak": 0}}
{"id": 6, "op": "bitIndexes", "input": {"filter": {"kind": "explicit", "filterBytes": 1, "hashFuncs": 1, "tweak": 0, "flags": 0}, "element": ""}}
`
	lines, err := exchange(t, echo, input)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`{"id":1,"output":{"hash":9},"status":"ok"}`,
		`{"id":2,"message":"truncated","stage":"decode","status":"error"}`,
		`{"id":3,"message":"no","status":"error"}`,
		`{"id":4,"message":"seed 3","status":"unsupported"}`,
		`{"id":5,"message":"operation hashSeed is not offered by this library","status":"unsupported"}`,
		`{"id":6,"output":{"indexes":[]},"status":"ok"}`,
	}
	if len(lines) != len(want)+1 {
		t.Fatalf("%d lines: %v", len(lines), lines)
	}
	for i, w := range want {
		if got := text(lines[i+1]); got != w {
			t.Errorf("answer %d: %s, want %s", i+1, got, w)
		}
	}
}

func TestAnAdapterFaultStopsTheLoopWithoutAnAnswer(t *testing.T) {
	input := `{"id": 1, "op": "murmur3", "input": {"seed": 0, "data": ""}}
{"id": 2, "op": "murmur3", "input": {"seed": 4, "data": ""}}
{"id": 3, "op": "murmur3", "input": {"seed": 0, "data": ""}}
`
	lines, err := exchange(t, echo, input)
	if err == nil || !strings.Contains(err.Error(), "murmur3 request 2: the adapter's own bug") {
		t.Fatalf("error %v", err)
	}
	if len(lines) != 2 || lines[1]["id"] != 1.0 {
		t.Fatalf("only the answer before the fault, flushed: %v", lines)
	}
}

func TestALineThatIsNoRequestIsAFault(t *testing.T) {
	for name, line := range map[string]string{
		"not JSON":            `{"id": 1, "op": "murmur3"`,
		"no id":               `{"op": "murmur3", "input": {"seed": 0, "data": ""}}`,
		"id zero":             `{"id": 0, "op": "murmur3", "input": {"seed": 0, "data": ""}}`,
		"no input":            `{"id": 1, "op": "murmur3"}`,
		"unknown field":       `{"id": 1, "op": "murmur3", "input": {"seed": 0, "data": ""}, "x": 1}`,
		"two values":          `{"id": 1, "op": "murmur3", "input": {"seed": 0, "data": ""}} {}`,
		"unknown input field": `{"id": 1, "op": "murmur3", "input": {"seed": 0, "data": "", "extra": 1}}`,
		"missing input field": `{"id": 1, "op": "murmur3", "input": {"seed": 0}}`,
		"seed out of range":   `{"id": 1, "op": "murmur3", "input": {"seed": 4294967296, "data": ""}}`,
		"uppercase hex":       `{"id": 1, "op": "murmur3", "input": {"seed": 0, "data": "FF"}}`,
		"odd hex":             `{"id": 1, "op": "murmur3", "input": {"seed": 0, "data": "f"}}`,
	} {
		lines, err := exchange(t, echo, line+"\n")
		if err == nil || len(lines) != 1 {
			t.Errorf("%s: answered %v (error %v)", name, lines, err)
		}
	}
}

func TestFramingToleratesCarriageReturnsBlankLinesAndAnUnendedLastLine(t *testing.T) {
	input := "\n{\"id\": 1, \"op\": \"murmur3\", \"input\": {\"seed\": 0, \"data\": \"\"}}\r\n\r\n" +
		`{"id": 2, "op": "murmur3", "input": {"seed": 0, "data": "01"}}`
	lines, err := exchange(t, echo, input)
	if err != nil || len(lines) != 3 || lines[2]["id"] != 2.0 {
		t.Fatalf("%v %v", lines, err)
	}
}

func TestALineOverTheBoundIsRefusedNotBuffered(t *testing.T) {
	const limit = 100 << 10 // above the reader's 64 KiB buffer, so a line takes several reads
	read := func(input string) ([]byte, error) {
		return newLineReader(strings.NewReader(input), limit).next()
	}
	for _, ending := range []string{"\n", "\r\n", ""} {
		line, err := read(strings.Repeat("a", limit) + ending)
		if err != nil || len(line) != limit {
			t.Errorf("a line of exactly the bound, ending %q: %d bytes, %v", ending, len(line), err)
		}
		_, err = read(strings.Repeat("a", limit+1) + ending)
		if err == nil || !strings.Contains(err.Error(), "longer than") {
			t.Errorf("a line one byte over the bound, ending %q: %v", ending, err)
		}
	}
	// A line that never ends is refused once past the bound, not read to its end.
	endless := newLineReader(endlessReader{}, limit)
	if _, err := endless.next(); err == nil || cap(endless.line) > 2*limit {
		t.Errorf("an endless line: %v after buffering %d bytes", err, cap(endless.line))
	}
	lines, err := exchange(t, echo, strings.Repeat(" ", MaxLineBytes+1)+"\n")
	if err == nil || !strings.Contains(err.Error(), "refused") || len(lines) != 1 {
		t.Fatalf("Run with a line over MaxLineBytes: %v %v", lines, err)
	}
}

// endlessReader is a line without end: 'a' forever.
type endlessReader struct{}

func (endlessReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	return len(p), nil
}

func TestAFilterIsReadByItsKind(t *testing.T) {
	good := map[string]FilterInit{
		`{"kind": "sized", "nElements": 3, "fpRate": 0.01, "tweak": 5, "flags": 1}`:        {Kind: KindSized, NElements: 3, FpRate: 0.01, Tweak: 5, Flags: 1},
		`{"kind": "explicit", "filterBytes": 10, "hashFuncs": 5, "tweak": 99, "flags": 2}`: {Kind: KindExplicit, FilterBytes: 10, HashFuncs: 5, Tweak: 99, Flags: 2},
		`{"kind": "loaded", "data": "614e9b", "hashFuncs": 5, "tweak": 0, "flags": 255}`:   {Kind: KindLoaded, Data: Hex{0x61, 0x4e, 0x9b}, HashFuncs: 5, Flags: 255},
		`{"kind": "sized", "nElements": 1, "fpRate": "-Infinity", "tweak": 0, "flags": 0}`: {Kind: KindSized, NElements: 1, FpRate: FpRate(negInf()), Flags: 0},
	}
	for input, want := range good {
		var got FilterInit
		if err := json.Unmarshal([]byte(input), &got); err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: %+v %v", input, got, err)
		}
	}
	var nan FilterInit
	if err := json.Unmarshal([]byte(`{"kind": "sized", "nElements": 1, "fpRate": "NaN", "tweak": 0, "flags": 0}`), &nan); err != nil || nan.FpRate == nan.FpRate {
		t.Errorf("NaN: %v %v", nan.FpRate, err)
	}
	for _, input := range []string{
		`{"kind": "sized", "nElements": 3, "tweak": 0, "flags": 0}`,
		`{"kind": "sized", "nElements": 3, "fpRate": 0.1, "hashFuncs": 2, "tweak": 0, "flags": 0}`,
		`{"kind": "explicit", "filterBytes": 1, "hashFuncs": 1, "tweak": 0, "flags": 256}`,
		`{"kind": "loaded", "data": "0", "hashFuncs": 1, "tweak": 0, "flags": 0}`,
		`{"kind": "huge", "tweak": 0, "flags": 0}`,
		`{"nElements": 3, "fpRate": 0.1, "tweak": 0, "flags": 0}`,
		`{"kind": "sized", "nElements": 3, "fpRate": "nan", "tweak": 0, "flags": 0}`,
	} {
		var f FilterInit
		if err := json.Unmarshal([]byte(input), &f); err == nil {
			t.Errorf("%s: accepted as %+v", input, f)
		}
	}
}

func negInf() float64 { return math.Inf(-1) }

// The crash rule end to end: this test binary, started again as an adapter, exits non-zero
// with the cause on stderr for an adapter fault (status 1) and for a panic (the runtime's 2).
func TestServeCrashesOnAFaultAndOnAPanic(t *testing.T) {
	if os.Getenv("GO_PROTOCOL_SERVE") == "1" {
		Serve(echo)
		os.Exit(0)
	}
	for seed, want := range map[int]struct {
		status int
		stderr string
	}{
		4: {1, "echo adapter stopped: murmur3 request 9: the adapter's own bug"},
		5: {2, "panic: the library's index out of range"},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestServeCrashesOnAFaultAndOnAPanic$")
		cmd.Env = append(os.Environ(), "GO_PROTOCOL_SERVE=1")
		cmd.Stdin = strings.NewReader(fmt.Sprintf(`{"id": 9, "op": "murmur3", "input": {"seed": %d, "data": ""}}`+"\n", seed))
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != want.status || !strings.Contains(stderr.String(), want.stderr) {
			t.Errorf("seed %d: %v, stderr %q", seed, err, stderr.String())
		}
		// (After a panic the testing package adds its own "--- FAIL" line to stdout.)
		if !strings.HasPrefix(stdout.String(), `{"hello"`) || strings.Contains(stdout.String(), `"id"`) {
			t.Errorf("seed %d: an answer after the hello: %q", seed, stdout.String())
		}
	}
}
