import Ripple

/// Ripple's side of each workload.
public enum RippleWorkloads {
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

  public static func combineLatest(_ n: Int) {
    let a = PassthroughSubject<Int, Never>()
    let b = PassthroughSubject<Int, Never>()
    let cancellable = a.combineLatest(b).sink { blackHole &+= $0.0 &+ $0.1 }
    for i in 0..<(n / 2) {
      a.send(i)
      b.send(i)
    }
    cancellable.cancel()
  }

  public static func merge(_ n: Int) {
    let a = PassthroughSubject<Int, Never>()
    let b = PassthroughSubject<Int, Never>()
    let cancellable = a.merge(with: b).sink { blackHole &+= $0 }
    for i in 0..<(n / 2) {
      a.send(i)
      b.send(i)
    }
    cancellable.cancel()
  }

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

  public final class Node: HeadlessNode {
    @Invalidating(.layout) var width = 1.0
    var plainWidth = 1.0
  }

  nonisolated(unsafe) public static let node = Node(frame: Rect(x: 0, y: 0, width: 10, height: 1))

  public static func invalidatingEqualSet(_ n: Int) {
    let node = node
    for _ in 0..<n { node.width = 1.0 }
  }

  public static func invalidatingChangedSet(_ n: Int) {
    let node = node
    for i in 0..<n { node.width = Double(i) }
  }

  /// The baseline: the same class, a plain stored property, not inlined away.
  @inline(never)
  public static func plainSet(_ n: Int) {
    let node = opaqueNode()
    for _ in 0..<n { setPlain(node, 1.0) }
    blackHole &+= Int(node.plainWidth)
  }

  @inline(never)
  public static func opaqueNode() -> Node { node }

  /// A setter call that cannot be folded away, as an `@Invalidating` setter cannot.
  @inline(never)
  public static func setPlain(_ node: Node, _ value: Double) { node.plainWidth = value }

  /// 1,000 sets then one render pass: how many layouts ran per node.
  public static func layoutsPerPassAfterThousandSets() -> Int {
    let node = Node(frame: Rect(x: 0, y: 0, width: 10, height: 1))
    node.renderPass()
    let before = node.layoutCount
    for i in 0..<1_000 { node.width = Double(i + 2) }
    node.renderPass()
    return node.layoutCount - before
  }

  public static let store = Store()
  public static let key = StoreKey<Int>("benchmark")
  public static let receipt = store.registerObserver(for: key) { blackHole &+= $0.newValue }

  public static func storeStageNotify(_ n: Int) {
    _ = receipt
    for i in 0..<n { store.stage(i, for: key) }
  }

  public final class Style: Ancestor {
    @Inherited var size: Int = 12
  }

  nonisolated(unsafe) public static let styleRoot: Style = {
    let root = Style()
    root.size = 14
    return root
  }()
  nonisolated(unsafe) public static let deepStyle: Style = {
    var node = styleRoot
    for _ in 0..<64 { node = node.descendant() }
    return node
  }()
  nonisolated(unsafe) public static let ownStyle: Style = {
    let own = Style()
    own.size = 3
    return own
  }()

  public static func lineageReadDepth64(_ n: Int) {
    let node = deepStyle
    for _ in 0..<n { blackHole &+= node.size }
  }

  public static func lineageOwnRead(_ n: Int) {
    let node = ownStyle
    for _ in 0..<n { blackHole &+= node.size }
  }

  nonisolated(unsafe) public static let fanoutRoot: Style = {
    let root = Style()
    for _ in 0..<100 { _ = root.descendant() }
    return root
  }()
  nonisolated(unsafe) public static let fanoutChildren: [Style] = (0..<100).map { _ in
    fanoutRoot.descendant()
  }

  public static func lineageWriteFanout(_ n: Int) {
    _ = fanoutChildren
    for i in 0..<n { fanoutRoot.size = i }
  }

  public static func scopesActivate(_ count: Int) {
    let scope = Scope()
    for _ in 0..<count { try? AnonymousBehavior { _ in }.attach(to: scope) }
    let root = RootScope()
    try? scope.attach(to: root)
    scope.detach()
  }
}
