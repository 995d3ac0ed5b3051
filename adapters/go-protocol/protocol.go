// Package protocol is the subprocess protocol, version 1, for Go adapters (docs/PROTOCOL.md):
// the hello line, the bounded request loop and the typed inputs and outputs of the
// operations, so that an adapter only writes its operations. Standard library only; the Go
// twin of adapters/py-protocol/bip37_protocol.py and adapters/js-protocol/protocol.js.
//
// An adapter passes its implementation's name, version, notes and one handler per operation
// (Op(wireName, func)) to Serve. A handler returns its output, or an error:
//
//   - Reject(stage, err) (or a *Rejected): the library rejects the input, status "error";
//     wrap every error a library call returns with it, that error is the library's answer;
//   - Unsupportedf(...) (or an *Unsupported): an input the library cannot express, status
//     "unsupported";
//   - any other error is a fault of the adapter: the loop stops, writes the cause on stderr
//     and the process exits with status 1, so the harness reports a crash, never a rejection
//     and never "unsupported". A request the loop cannot read (not JSON, an unknown field, a
//     value out of its type's range, a line longer than MaxLineBytes) is such a fault too.
//
// A panic is not recovered, neither the library's nor the adapter's: the Go runtime prints it
// with its stack on stderr and exits with status 2, and the harness reports a crash. A library
// that panics on hostile input (an index out of range, a division by zero) would take down a
// node or wallet that calls it the same way; a crash is the truthful verdict, and turning it
// into a rejection would hide it.
package protocol

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"
)

// Version is the protocol version the hello claims.
const Version = 1

// A Stage says at which step an implementation rejected an input (the answer's "stage").
type Stage string

// The stages of docs/PROTOCOL.md; NoStage where the implementation has no such step (e.g. while
// hashing) and the answer carries no "stage".
const (
	NoStage         Stage = ""
	StageDecode     Stage = "decode"
	StageLimits     Stage = "limits"
	StageParameters Stage = "parameters"
	StageValidation Stage = "validation"
)

// Rejected is the library's rejection of the input: status "error" at Stage.
type Rejected struct {
	Stage Stage
	Err   error
}

func (r *Rejected) Error() string { return r.Err.Error() }
func (r *Rejected) Unwrap() error { return r.Err }

// Reject makes err, an error a library call returned, the library's rejection of the input at
// stage. A nil err stays nil, so `return out, protocol.Reject(stage, err)` is the whole
// translation of a call that returns an error.
func Reject(stage Stage, err error) error {
	if err == nil {
		return nil
	}
	return &Rejected{Stage: stage, Err: err}
}

// Unsupported is an input or operation the library cannot express: status "unsupported".
type Unsupported struct{ Message string }

func (u *Unsupported) Error() string { return u.Message }

// Unsupportedf is an *Unsupported with a formatted message.
func Unsupportedf(format string, args ...any) error {
	return &Unsupported{Message: fmt.Sprintf(format, args...)}
}

// An Operation is one wire name and the handler of its requests.
type Operation struct {
	Name   string
	handle func(input json.RawMessage) (any, error)
}

// Op is the operation `name` answered by `handle`, which gets the request's input decoded into
// I, a struct (unknown fields refused, and missing ones unless tagged omitempty), and returns
// the output, marshalled as the answer's "output".
func Op[I, O any](name string, handle func(input I) (O, error)) Operation {
	return Operation{Name: name, handle: func(raw json.RawMessage) (any, error) {
		var input I
		if err := decodeInput(raw, &input); err != nil {
			return nil, fmt.Errorf("the input of %s: %w", name, err)
		}
		return handle(input)
	}}
}

// decodeInput decodes an input object into the struct *v, strictly, and refuses it when a
// field of v that is not tagged omitempty is missing.
func decodeInput(raw json.RawMessage, v any) error {
	if err := decodeStrict(raw, v); err != nil {
		return err
	}
	var present map[string]json.RawMessage
	if err := json.Unmarshal(raw, &present); err != nil {
		return err
	}
	fields := reflect.TypeOf(v).Elem()
	if fields.Kind() != reflect.Struct {
		return fmt.Errorf("an input type must be a struct, not %s", fields)
	}
	for i := 0; i < fields.NumField(); i++ {
		name, options, _ := strings.Cut(fields.Field(i).Tag.Get("json"), ",")
		if name == "" || name == "-" || strings.Contains(options, "omitempty") {
			continue
		}
		if _, here := present[name]; !here {
			return fmt.Errorf("no field %q", name)
		}
	}
	return nil
}

// An Adapter is what the hello says and the operations it claims, in the hello's order.
type Adapter struct {
	Implementation string
	Version        string
	Notes          string
	Operations     []Operation
}

// MaxLineBytes bounds a request line, its "\n" excluded: the bound of `bip37-conform serve`,
// far above any request of the suite. A longer line is refused, not buffered.
const MaxLineBytes = 64 << 20

// Serve speaks the protocol on stdin and stdout until stdin closes, then returns. A fault of
// the adapter (see the package comment) ends the process with status 1, its cause on stderr.
func Serve(adapter Adapter) {
	if err := Run(adapter, os.Stdin, os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "%s adapter stopped: %v\n", adapter.Implementation, err)
		os.Exit(1)
	}
}

// Run says hello on out, then answers every request line of in until it ends (nil), or until a
// fault of the adapter, which it returns after the answers before it were written and flushed.
func Run(adapter Adapter, in io.Reader, out io.Writer) error {
	handlers, err := index(adapter.Operations)
	if err != nil {
		return err
	}
	writer := bufio.NewWriter(out)
	names := make([]string, len(adapter.Operations))
	for i, op := range adapter.Operations {
		names[i] = op.Name
	}
	hello := helloLine{Protocol: Version, Implementation: adapter.Implementation,
		Version: adapter.Version, Operations: names, Notes: adapter.Notes}
	if err := send(writer, map[string]helloLine{"hello": hello}); err != nil {
		return err
	}
	lines := newLineReader(in, MaxLineBytes)
	for {
		line, err := lines.next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		reply, err := answer(line, handlers)
		if err != nil {
			return err
		}
		if err := send(writer, reply); err != nil {
			return err
		}
	}
}

type helloLine struct {
	Protocol       int      `json:"protocol"`
	Implementation string   `json:"implementation"`
	Version        string   `json:"version,omitempty"`
	Operations     []string `json:"operations"`
	Notes          string   `json:"notes,omitempty"`
}

type request struct {
	ID    *uint64         `json:"id"`
	Op    *string         `json:"op"`
	Input json.RawMessage `json:"input"`
}

type reply struct {
	ID      uint64 `json:"id"`
	Status  string `json:"status"`
	Output  any    `json:"output,omitempty"`
	Stage   Stage  `json:"stage,omitempty"`
	Message string `json:"message,omitempty"`
}

func index(operations []Operation) (map[string]func(json.RawMessage) (any, error), error) {
	handlers := make(map[string]func(json.RawMessage) (any, error), len(operations))
	for _, op := range operations {
		if op.handle == nil {
			return nil, fmt.Errorf("operation %q has no handler (make it with protocol.Op)", op.Name)
		}
		if _, twice := handlers[op.Name]; twice {
			return nil, fmt.Errorf("operation %q is listed twice", op.Name)
		}
		handlers[op.Name] = op.handle
	}
	return handlers, nil
}

// answer is the reply to one request line, or the adapter's fault.
func answer(line []byte, handlers map[string]func(json.RawMessage) (any, error)) (reply, error) {
	var req request
	if err := decodeStrict(line, &req); err != nil {
		return reply{}, fmt.Errorf("not a request line: %w", err)
	}
	if req.ID == nil || *req.ID == 0 || req.Op == nil || req.Input == nil {
		return reply{}, errors.New("not a request line: it needs a positive id, an op and an input")
	}
	handle, offered := handlers[*req.Op]
	if !offered {
		message := fmt.Sprintf("operation %s is not offered by this library", *req.Op)
		return reply{ID: *req.ID, Status: "unsupported", Message: message}, nil
	}
	output, err := handle(req.Input)
	var rejected *Rejected
	var unsupported *Unsupported
	switch {
	case errors.As(err, &rejected):
		return reply{ID: *req.ID, Status: "error", Stage: rejected.Stage, Message: err.Error()}, nil
	case errors.As(err, &unsupported):
		return reply{ID: *req.ID, Status: "unsupported", Message: unsupported.Message}, nil
	case err != nil:
		return reply{}, fmt.Errorf("%s request %d: %w", *req.Op, *req.ID, err)
	case output == nil:
		return reply{}, fmt.Errorf("%s request %d: the handler returned no output", *req.Op, *req.ID)
	}
	return reply{ID: *req.ID, Status: "ok", Output: output}, nil
}

// send writes one JSON line and flushes it.
func send(writer *bufio.Writer, message any) error {
	encoder := json.NewEncoder(writer)
	encoder.SetEscapeHTML(false)
	if err := encoder.Encode(message); err != nil {
		return fmt.Errorf("writing an answer: %w", err)
	}
	if err := writer.Flush(); err != nil {
		return fmt.Errorf("writing an answer: %w", err)
	}
	return nil
}

// decodeStrict decodes exactly one JSON value into v, refusing unknown fields.
func decodeStrict(data []byte, v any) error {
	decoder := json.NewDecoder(bytes.NewReader(data))
	decoder.DisallowUnknownFields()
	if err := decoder.Decode(v); err != nil {
		return err
	}
	if _, err := decoder.Token(); err != io.EOF {
		return errors.New("more than one JSON value")
	}
	return nil
}
