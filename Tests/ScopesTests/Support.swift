import ReactiveCore
import Scopes

/// A shared, ordered log of lifecycle callbacks.
final class Log: @unchecked Sendable {
  private let box = LockedBox<[String]>([])
  func append(_ line: String) { box.withLock { $0.append(line) } }
  var lines: [String] { box.withLock { $0 } }
  func clear() { box.withLock { $0.removeAll() } }
}

/// A scope that logs every callback with its name.
class LoggingScope: Scope {
  let name: String
  let log: Log
  var onActivate: ((inout Set<AnyCancellable>) -> Void)?
  var onWillAttach: (() -> Void)?

  init(_ name: String, log: Log) {
    self.name = name
    self.log = log
    super.init()
  }

  override func willAttach() {
    log.append("\(name).willAttach")
    onWillAttach?()
  }
  override func willActivate(cancellables: inout Set<AnyCancellable>) {
    log.append("\(name).willActivate")
    onActivate?(&cancellables)
  }
  override func willDeactivate() { log.append("\(name).willDeactivate") }
  override func didDeactivate() { log.append("\(name).didDeactivate") }
  override func willDetach() { log.append("\(name).willDetach") }
  override func didDetach() { log.append("\(name).didDetach") }
}

/// Moves a non-Sendable node into a concurrent test.
struct Unchecked<Value>: @unchecked Sendable {
  let value: Value
}
