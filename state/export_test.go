package state

// SetAheadPace sets how many stored objects go to an Ahead's goroutine at
// once and how many batches a version waits, for the tests of other
// packages' use of Ahead, and returns what puts the pace back.
func SetAheadPace(batch, delay int) (restore func()) {
	oldBatch, oldDelay := aheadBatch, aheadDelay
	aheadBatch, aheadDelay = batch, delay
	return func() { aheadBatch, aheadDelay = oldBatch, oldDelay }
}

// AheadLinesUsed is how many lines encoded ahead saves have written.
func AheadLinesUsed() int64 { return aheadLinesUsed.Load() }
