// Package flow is the phase machine that Landscaper's installation and
// execution controllers share: a job starts in the first phase (Init, or
// InitDelete for an object being deleted), each phase handler names the next
// phase, a final phase finishes the job (jobIDFinished = jobID), a normal
// error keeps the phase for a retry (or, with ERR_NO_RETRY, just waits) and a
// fatal error ends the flow in Failed or DeleteFailed; every error is the
// object's status.lastError. It also holds the small object helpers the
// controllers share: operation annotations, owner references and job IDs.
package flow
