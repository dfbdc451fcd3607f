package cache

import (
	"fmt"
	"strings"
)

// TransactionType says what a Transaction does.
type TransactionType string

// The kinds of Transaction.
const (
	TransactionTypeAdd    TransactionType = "Add"
	TransactionTypeUpdate TransactionType = "Update"
	TransactionTypeDelete TransactionType = "Delete"
)

// Transaction is one write in a batch: an object and what to do with it.
type Transaction struct {
	Object interface{}
	Type   TransactionType
}

// TransactionStore can apply several writes under one lock acquisition.
type TransactionStore interface {
	// Transaction applies txns in order; it reports the writes that failed.
	Transaction(txns ...Transaction) *TransactionError
}

// TransactionError reports a batch of which only part was applied.
type TransactionError struct {
	SuccessfulIndices []int
	TotalTransactions int
	Errors            []error
}

// Error summarizes the failures.
func (t *TransactionError) Error() string {
	msgs := make([]string, 0, len(t.Errors))
	for _, err := range t.Errors {
		msgs = append(msgs, err.Error())
	}
	return fmt.Sprintf("%d of %d transactions failed: %s",
		t.TotalTransactions-len(t.SuccessfulIndices), t.TotalTransactions, strings.Join(msgs, "; "))
}

// Transaction applies txns to the store under one lock acquisition. The
// objects are stored as given: unlike Add and Update, Transaction does not
// run the store's transformer (its callers pass already transformed
// objects). Objects whose key cannot be computed are reported in the
// returned error, which is nil when everything was applied; its
// SuccessfulIndices is then non-nil, possibly empty.
func (c *cache) Transaction(txns ...Transaction) *TransactionError {
	batch := make([]ThreadSafeStoreTransaction, 0, len(txns))
	var txErr *TransactionError
	ok := make([]int, 0, len(txns))
	for i, txn := range txns {
		obj := txn.Object
		key, err := c.keyFunc(obj)
		if err != nil {
			txErr = addTxnError(txErr, len(txns), KeyError{obj, err})
			continue
		}
		ok = append(ok, i)
		batch = append(batch, ThreadSafeStoreTransaction{Transaction: Transaction{Object: obj, Type: txn.Type}, Key: key})
	}
	if ts, isTx := c.cacheStorage.(ThreadSafeStoreWithTransaction); isTx {
		ts.Transaction(batch...)
	} else {
		for _, t := range batch {
			if t.Type == TransactionTypeDelete {
				c.cacheStorage.DeleteWithObject(t.Key, t.Object)
			} else {
				c.cacheStorage.Update(t.Key, t.Object)
			}
		}
	}
	if txErr != nil {
		txErr.SuccessfulIndices = ok
	}
	return txErr
}

func addTxnError(e *TransactionError, total int, err error) *TransactionError {
	if e == nil {
		e = &TransactionError{TotalTransactions: total}
	}
	e.Errors = append(e.Errors, err)
	return e
}
