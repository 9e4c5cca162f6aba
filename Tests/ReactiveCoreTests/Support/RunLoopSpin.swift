import Foundation
import ReactiveCore

/// Runs the current run loop until `done()` holds or `limit` seconds pass.
func spin(upTo limit: TimeInterval = 5, until done: () -> Bool) {
  let deadline = Date().addingTimeInterval(limit)
  while !done(), Date() < deadline {
    _ = RunLoop.current.run(mode: .default, before: Date().addingTimeInterval(0.01))
  }
}

/// Runs the current run loop until `done()` holds or `limit` seconds pass.
func spinRunLoop(upTo limit: TimeInterval = 5, until done: () -> Bool) {
  let deadline = Date().addingTimeInterval(limit)
  while !done(), Date() < deadline {
    _ = RunLoop.current.run(mode: .default, before: Date().addingTimeInterval(0.01))
  }
}
