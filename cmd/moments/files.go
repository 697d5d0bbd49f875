package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// gzipMagic starts every gzip stream (RFC 1952).
var gzipMagic = []byte{0x1f, 0x8b}

// openInput opens the file path for reading. A gzip file (known by its
// first two bytes, whatever its name) is decompressed as it is read.
// Reads fail with ctx's error once ctx is done, so that readers without
// a context stop on Ctrl-C.
func openInput(ctx context.Context, path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	br := bufio.NewReaderSize(ctxReader{ctx, f}, 64<<10)
	if head, _ := br.Peek(len(gzipMagic)); !bytes.Equal(head, gzipMagic) {
		return readCloser{br, f.Close}, nil
	}
	zr, err := gzip.NewReader(br)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return readCloser{ctxReader{ctx, zr}, func() error {
		zr.Close()
		return f.Close()
	}}, nil
}

type readCloser struct {
	io.Reader
	close func() error
}

func (r readCloser) Close() error { return r.close() }

// ctxReader reads r until ctx is done.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// inputFS is a directory of documents whose gzip files (known by their
// first two bytes) read decompressed; reading stops once ctx is done.
type inputFS struct {
	ctx context.Context
	fs.FS
}

// ReadFile makes inputFS an fs.ReadFileFS, which fs.ReadFile uses.
func (f inputFS) ReadFile(name string) ([]byte, error) {
	if err := f.ctx.Err(); err != nil {
		return nil, err
	}
	data, err := fs.ReadFile(f.FS, name)
	if err != nil || !bytes.HasPrefix(data, gzipMagic) {
		return data, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err == nil {
		data, err = io.ReadAll(ctxReader{f.ctx, zr})
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return data, nil
}

// inFile puts the file's path in front of err, dropping the library's
// package name that a reader's error starts with ("linear: line 3:
// ..."), so that the line reads "moments: dag: data.csv: line 3: ...".
func inFile(path string, err error) error {
	if err == nil {
		return nil
	}
	return &fileError{path: path, err: err}
}

type fileError struct {
	path string
	err  error
}

func (e *fileError) Error() string { return e.path + ": " + trimPkg(e.err.Error()) }
func (e *fileError) Unwrap() error { return e.err }

// libraryPackages are the package names that the library's errors start
// with.
var libraryPackages = []string{"moments", "linear", "treemix", "topic", "simplex"}

func trimPkg(msg string) string {
	for _, p := range libraryPackages {
		if rest, ok := strings.CutPrefix(msg, p+": "); ok {
			return rest
		}
	}
	return msg
}

// output is a file that a command writes when its work is done. It is
// created, as a temporary file beside the destination, before the work
// starts, so that a path that cannot be written fails at once; commit
// renames it over the destination when all is written, and discard
// removes it. So a failed or interrupted run leaves neither an empty nor
// a half-written file, and an older file at the path stays as it was.
//
// A symbolic link is followed: the temporary file goes beside the file
// it names, and the link stays a link. A destination that exists and is
// not a regular file (/dev/null, /dev/stdout, a named pipe) is opened
// as it is and written directly: renaming over it would replace the
// device or the pipe with a regular file.
type output struct {
	path   string
	tmp    *os.File
	direct bool // tmp is the destination itself
}

// createOutput starts the output file for the flag name at path; a nil
// *output (for path "") writes nothing.
func createOutput(name, path string) (*output, error) {
	if path == "" {
		return nil, nil
	}
	dest := path
	if resolved, err := filepath.EvalSymlinks(path); err == nil {
		dest = resolved
	}
	if info, err := os.Stat(dest); err == nil {
		switch {
		case info.IsDir():
			return nil, fmt.Errorf("-%s %s: is a directory", name, path)
		case !info.Mode().IsRegular():
			f, err := os.OpenFile(dest, os.O_WRONLY, 0)
			if err != nil {
				return nil, fmt.Errorf("-%s %s: cannot write there: %w", name, path, unwrapPath(err))
			}
			return &output{path: path, tmp: f, direct: true}, nil
		}
	}
	tmp, err := os.CreateTemp(filepath.Dir(dest), "."+filepath.Base(dest)+".*.tmp")
	if err != nil {
		return nil, fmt.Errorf("-%s %s: cannot write there: %w", name, path, unwrapPath(err))
	}
	return &output{path: dest, tmp: tmp}, nil
}

// unwrapPath drops the *fs.PathError around err, whose path the caller's
// message already names.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// commit writes the file with write and moves it to its path.
func (o *output) commit(write func(io.Writer) error) error {
	bw := bufio.NewWriter(o.tmp)
	err := write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if o.direct {
		if cerr := o.tmp.Close(); err == nil {
			err = cerr
		}
		o.tmp = nil
		if err != nil {
			return fmt.Errorf("%s: %w", o.path, err)
		}
		return nil
	}
	if err == nil {
		mode := os.FileMode(0o644)
		if info, serr := os.Stat(o.path); serr == nil {
			mode = info.Mode().Perm()
		}
		err = o.tmp.Chmod(mode)
	}
	if cerr := o.tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(o.tmp.Name(), o.path)
	}
	if err != nil {
		os.Remove(o.tmp.Name())
		return fmt.Errorf("%s: %w", o.path, err)
	}
	o.tmp = nil
	return nil
}

// discard removes the temporary file unless commit moved it; it does
// nothing on a nil *output.
func (o *output) discard() {
	if o == nil || o.tmp == nil {
		return
	}
	o.tmp.Close()
	if !o.direct {
		os.Remove(o.tmp.Name())
	}
	o.tmp = nil
}
