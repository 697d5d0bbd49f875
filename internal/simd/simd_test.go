package simd

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for l := Level(0); l < NumLevels; l++ {
		got, err := Parse(strings.ToUpper(l.String()))
		if err != nil || got != l {
			t.Fatalf("Parse(%q) = %v, %v", l, got, err)
		}
	}
	if _, err := Parse("sse9"); err == nil || !strings.Contains(err.Error(), "unknown implementation") {
		t.Fatalf("Parse(sse9) error %v", err)
	}
	if s := Level(9).String(); s != "Level(9)" {
		t.Fatalf("Level(9).String() = %q", s)
	}
}

func TestAvailable(t *testing.T) {
	ls := Available()
	if len(ls) == 0 || ls[0] != Generic {
		t.Fatalf("Available() = %v, want generic first", ls)
	}
	if Purego() && len(ls) != 1 {
		t.Fatalf("purego build offers %v", ls)
	}
	for l := Level(0); l < NumLevels; l++ {
		err := Use(l)
		if (err == nil) != Supported(l) {
			t.Fatalf("Use(%v) = %v, Supported = %v", l, err, Supported(l))
		}
		if err != nil && !strings.Contains(err.Error(), "cannot run here") {
			t.Fatalf("Use(%v): %v", l, err)
		}
	}
	if err := Use(ls[len(ls)-1]); err != nil {
		t.Fatal(err)
	}
}

// TestTable checks registration, the fallback to the generic
// implementation and that Use switches every table.
func TestTable(t *testing.T) {
	var tab Table[string]
	gen, wide := "generic", "wide"
	tab.Register(Generic, &gen)
	top := Available()[len(Available())-1]
	if top != Generic {
		tab.Register(top, &wide)
	}
	defer Use(Current())
	for _, l := range Available() {
		if err := Use(l); err != nil {
			t.Fatal(err)
		}
		want := "generic"
		if l == top && top != Generic {
			want = "wide"
		}
		if got := *tab.Get(); got != want {
			t.Fatalf("level %v: Get() = %q, want %q", l, got, want)
		}
		if got := *tab.For(l); got != want {
			t.Fatalf("For(%v) = %q, want %q", l, got, want)
		}
	}
	for name, f := range map[string]func(){
		"twice":          func() { tab.Register(Generic, &gen) },
		"nil":            func() { tab.Register(AVX2, nil) },
		"before generic": func() { var u Table[int]; v := 1; u.Register(NEON, &v) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Register %s: no panic", name)
				}
			}()
			f()
		}()
	}
}
