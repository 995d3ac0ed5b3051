package protocol

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
)

// lineReader reads "\n"-ended lines (a "\r" before the "\n" is dropped; a last line without
// "\n" counts) and refuses a line longer than its bound instead of buffering it.
type lineReader struct {
	reader *bufio.Reader
	limit  int
	line   []byte
}

func newLineReader(in io.Reader, limit int) *lineReader {
	return &lineReader{reader: bufio.NewReaderSize(in, 64<<10), limit: limit}
}

// next is the next line without its ending, io.EOF after the last, or the error that stopped
// the reading (a line over the bound, a read error). The slice is valid until the next call.
func (l *lineReader) next() ([]byte, error) {
	l.line = l.line[:0]
	for {
		chunk, err := l.reader.ReadSlice('\n')
		l.line = append(l.line, chunk...)
		line := bytes.TrimSuffix(l.line, []byte("\n"))
		if err == nil || err == io.EOF {
			line = bytes.TrimSuffix(line, []byte("\r"))
		}
		// Before its end a line may hold the "\r" of its ending: one byte more.
		if len(line) > l.limit+len("\r") || (err == nil || err == io.EOF) && len(line) > l.limit {
			return nil, fmt.Errorf("a request line is longer than %d bytes: refused", l.limit)
		}
		switch {
		case err == nil:
			return line, nil
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF && len(l.line) > 0:
			return line, nil
		case err == io.EOF:
			return nil, io.EOF
		default:
			return nil, fmt.Errorf("reading a request: %w", err)
		}
	}
}
