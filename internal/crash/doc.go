// Package crash turns panics into errors, so that no panic reaches the user.
//
// A panic in third-party code that lscli calls with untrusted input (Spiff,
// sprig, text/template, helm) is recovered where lscli calls it and becomes
// an [*Error] naming that component and the object lscli was working on. A
// panic in lscli's own code is recovered by the run loop and by the command
// line, and becomes an [*Error] whose message asks for a bug report.
//
// Either way the command exits 1 ("lscli failed") and saves nothing, so the
// state stays as it was:
//
//	func render() (err error) {
//		defer crash.Recover("spiff", &err)
//		return spiff.Cascade(...)
//	}
package crash
