package state

import (
	"bytes"
	"errors"
	"io"
	"os"

	"github.com/lscli/lscli/internal/parallel"
)

// readBlock is how much readLines reads at a time.
const readBlock = 4 << 20

// readLines reads the file at path and returns its bytes and their lines,
// as splitLines splits them. It finds the lines of each block it has read
// while it reads the next, so that splitting a large state file costs
// little more than reading it.
func readLines(path string) ([]byte, []line, error) {
	f, err := openFile(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	return readOpenLines(f)
}

// readOpenLines is readLines of a file open at its start.
func readOpenLines(f *os.File) ([]byte, []line, error) {
	info, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	// One byte more than the size, so that a file that grew since Stat is
	// noticed: the buffer fills before the end of the file.
	data := make([]byte, info.Size()+1)
	read := make(chan int, 16)
	split := parallel.Start(func() []line { return splitReadLines(data, read) })
	n, err := readFull(f, data, read)
	close(read)
	lines := split()
	if err != nil {
		return nil, nil, err
	}
	if n < len(data) {
		return data[:n], lines, nil
	}
	// The file grew: read the rest and split it all again.
	rest, err := io.ReadAll(f)
	if err != nil {
		return nil, nil, err
	}
	data = append(data, rest...)
	return data, splitLines(data), nil
}

// readFull reads f into data until data is full or f ends, and sends the
// number of bytes read so far after each read. It returns that number.
func readFull(f *os.File, data []byte, read chan<- int) (int, error) {
	n := 0
	for n < len(data) {
		m, err := f.Read(data[n:min(n+readBlock, len(data))])
		n += m
		if m > 0 {
			read <- n
		}
		if errors.Is(err, io.EOF) {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// splitReadLines splits data into lines as splitLines does while it is
// read: each number received says that data up to there has been read.
// It reads no byte beyond the last number received.
func splitReadLines(data []byte, read <-chan int) []line {
	lines := make([]line, 0, len(data)/256+16)
	start, no, end := 0, 1, 0
	for end = range read {
		for {
			i := bytes.IndexByte(data[start:end], '\n')
			if i < 0 {
				break
			}
			lines = append(lines, line{no: no, text: bytes.TrimSuffix(data[start:start+i], []byte("\r"))})
			start, no = start+i+1, no+1
		}
	}
	if start < end {
		lines = append(lines, line{no: no, text: bytes.TrimSuffix(data[start:end], []byte("\r"))})
	}
	return lines
}
