import OpenCombine

/// OpenCombine's side of the ReactiveCore workloads.
public enum OpenCombineWorkloads {
  public static func pipeline(_ n: Int) {
    let subject = PassthroughSubject<Int, Never>()
    let cancellable = subject.map { $0 &+ 1 }.filter { $0 & 1 == 0 }.sink { blackHole &+= $0 }
    for i in 0..<n { subject.send(i) }
    cancellable.cancel()
  }

  public static func subjectSink(_ n: Int) {
    let subject = PassthroughSubject<Int, Never>()
    let cancellable = subject.sink { blackHole &+= $0 }
    for i in 0..<n { subject.send(i) }
    cancellable.cancel()
  }

  public static func sinkCancel(_ n: Int) {
    let subject = PassthroughSubject<Int, Never>()
    for _ in 0..<n { subject.sink { blackHole &+= $0 }.cancel() }
  }

  public static func fanout(_ n: Int) {
    let subject = PassthroughSubject<Int, Never>()
    let cancellables = (0..<1_000).map { _ in subject.sink { blackHole &+= $0 } }
    for i in 0..<(n / 1_000) { subject.send(i) }
    for cancellable in cancellables { cancellable.cancel() }
  }

  public static func currentValueSend(_ n: Int) {
    let subject = CurrentValueSubject<Int, Never>(0)
    let cancellable = subject.sink { blackHole &+= $0 }
    for i in 0..<n { subject.send(i) }
    cancellable.cancel()
  }

  public static func dedupeScan(_ n: Int) {
    let subject = PassthroughSubject<Int, Never>()
    let cancellable = subject.removeDuplicates().scan(0, &+).sink { blackHole &+= $0 }
    for i in 0..<n { subject.send(i >> 1) }
    cancellable.cancel()
  }

  // OpenCombine 0.14 has no combineLatest or merge: those rows have no OpenCombine column.

  public static func flatMap(_ n: Int) {
    let subject = PassthroughSubject<Int, Never>()
    let cancellable = subject.flatMap { Just($0) }.sink { blackHole &+= $0 }
    for i in 0..<n { subject.send(i) }
    cancellable.cancel()
  }

  /// Subscribes `count` sinks to one subject and keeps them in `holder`, which the caller
  /// reserved beforehand so that only the library's allocations are measured.
  public static func liveSinks(_ count: Int, into holder: inout [AnyObject]) {
    let subject = PassthroughSubject<Int, Never>()
    for _ in 0..<count { holder.append(subject.sink { blackHole &+= $0 }) }
  }
}
