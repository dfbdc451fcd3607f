package ledger

import (
	"math/rand/v2"
	"testing"
)

// model is the obvious bookkeeping, with maps, that a Ledger must agree with.
type model struct {
	waiting  []int // in queue order
	inFlight map[int]bool
	redo     map[int]bool
}

func (m *model) isWaiting(item int) bool {
	for _, w := range m.waiting {
		if w == item {
			return true
		}
	}
	return false
}

// TestLedgerMatchesModel drives a Ledger and the model with random adds,
// hand-outs and finishes, for both orders, and compares every outcome.
func TestLedgerMatchesModel(t *testing.T) {
	for _, fifo := range []bool{true, false} {
		var l Ledger[int]
		l.Init(fifo)
		m := model{inFlight: map[int]bool{}, redo: map[int]bool{}}
		rng := rand.New(rand.NewPCG(1, 2))
		for step := range 50000 {
			item := rng.IntN(50)
			switch rng.IntN(3) {
			case 0: // Add
				want := Queue
				switch {
				case m.isWaiting(item):
					want = AlreadyWaiting
				case m.redo[item]:
					want = AlreadyAddedAgain
				case m.inFlight[item]:
					want, m.redo[item] = QueueAfterFinish, true
				default:
					m.waiting = append(m.waiting, item)
				}
				if got := l.Add(item, l.Hash(item)); got != want {
					t.Fatalf("fifo=%v step %d: Add(%d) = %v, want %v", fifo, step, item, got, want)
				}
			case 1: // hand out the oldest waiting item
				if len(m.waiting) == 0 {
					continue
				}
				next := m.waiting[0]
				if !fifo { // any order: take a random waiting item
					i := rng.IntN(len(m.waiting))
					next = m.waiting[i]
					m.waiting = append(m.waiting[:i:i], m.waiting[i+1:]...)
					l.HandOut(next)
				} else {
					m.waiting = m.waiting[1:]
					l.HandOutNext()
				}
				m.inFlight[next] = true
			case 2: // Finish
				want := NotInFlight
				if m.inFlight[item] {
					delete(m.inFlight, item)
					want = Forgotten
					if m.redo[item] {
						delete(m.redo, item)
						want = QueueAgain
						m.waiting = append(m.waiting, item)
					}
				}
				if got := l.Finish(item, l.Hash(item)); got != want {
					t.Fatalf("fifo=%v step %d: Finish(%d) = %v, want %v", fifo, step, item, got, want)
				}
			}
			if known := len(m.waiting) + len(m.inFlight); l.items.Len() != known {
				t.Fatalf("fifo=%v step %d: ledger knows %d items, want %d", fifo, step, l.items.Len(), known)
			}
		}
	}
}
