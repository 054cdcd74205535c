package flow

import "testing"

func TestStartMemoHandsOverOnce(t *testing.T) {
	var m StartMemo[int]
	m.Keep("a", 1)
	if _, ok := m.Take("b"); ok {
		t.Fatal("Take of another object found a value")
	}
	if _, ok := m.Take("a"); ok {
		t.Fatal("a Take of another object did not forget the value")
	}
	m.Keep("a", 1)
	m.Keep("b", 2)
	if _, ok := m.Take("a"); ok {
		t.Fatal("a later Keep did not replace the value")
	}
	m.Keep("b", 2)
	if v, ok := m.Take("b"); !ok || v != 2 {
		t.Fatalf("Take = %d, %v; want 2, true", v, ok)
	}
	if _, ok := m.Take("b"); ok {
		t.Fatal("the value was handed over twice")
	}
	m.Keep("c", 3)
	m.Forget()
	if _, ok := m.Take("c"); ok {
		t.Fatal("Forget kept the value")
	}
}
