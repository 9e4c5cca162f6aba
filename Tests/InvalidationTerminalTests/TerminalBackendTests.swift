import Invalidation
import InvalidationTerminal
import ReactiveCore
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Counts and keeps what a ``TerminalWriter`` receives.
final class RecordingOutput: Sendable {
  private let state = LockedBox<[[UInt8]]>([])
  var writes: [[UInt8]] { state.withLock { $0 } }
  var byteCount: Int { writes.reduce(0) { $0 + $1.count } }
  var writer: TerminalWriter {
    TerminalWriter { bytes in self.state.withLock { $0.append(bytes) } }
  }
}

/// A screen of ten labels, each ten cells wide.
func labelScreen() -> (Column, [TextLine]) {
  let root = Column(name: "screen", frame: Rect(x: 0, y: 0, width: 80, height: 24))
  let labels = (0..<10).map { index in
    let label = TextLine(name: "label \(index)")
    label.text = "label \(index)".padding(toLength: 10, withPad: ".", startingAt: 0)
    return label
  }
  for label in labels { root.addSubnode(label) }
  return (root, labels)
}

@Suite struct TerminalBackendTests {
  @Test func idleFramesWriteZeroBytesAndOneLabelFewerThan64() {
    let scheduler = TestScheduler()
    let output = RecordingOutput()
    let (root, labels) = labelScreen()
    let loop = RenderLoop(root: root, scheduler: scheduler)
    let backend = TerminalBackend(loop: loop, writer: output.writer)
    scheduler.advance()
    #expect(backend.framesPresented == 1)
    let fullRepaint = backend.lastFrameBytes
    #expect(fullRepaint > 100)
    // An idle pass (asked for, nothing changed) writes nothing.
    loop.setNeedsPass()
    scheduler.advance()
    #expect(backend.framesPresented == 2)
    #expect(backend.lastFrameBytes == 0)
    #expect(output.writes.count == 1)
    // One label of ten cells changes.
    labels[4].text = "CHANGED!!!"
    scheduler.advance()
    #expect(backend.lastFrameBytes > 0)
    #expect(backend.lastFrameBytes < 64)
    #expect(output.byteCount == fullRepaint + backend.lastFrameBytes)
    #expect(String(decoding: output.writes.last!, as: UTF8.self).contains("CHANGED"))
  }

  @Test func aResizeRelaysOutTheRootAndRepaintsInFull() {
    let scheduler = TestScheduler()
    let output = RecordingOutput()
    let (root, _) = labelScreen()
    let loop = RenderLoop(root: root, scheduler: scheduler)
    let backend = TerminalBackend(loop: loop, writer: output.writer)
    scheduler.advance()
    let layouts = root.layoutCount
    backend.resize(to: Size(width: 100, height: 30))
    scheduler.advance()
    #expect(root.layoutCount == layouts + 1)
    #expect(String(decoding: output.writes.last!, as: UTF8.self).hasPrefix("\u{1B}[0m\u{1B}[2J"))
    #expect(backend.framesPresented == 2)
  }

  @Test func aFrameCutShortIsFollowedByAFullRepaint() {
    let scheduler = TestScheduler()
    let output = RecordingOutput()
    let failNext = LockedBox(false)
    let writer = TerminalWriter(reportingCompletion: { bytes in
      output.writer.write(bytes)
      return !failNext.withLock { fail in
        defer { fail = false }
        return fail
      }
    })
    let (root, labels) = labelScreen()
    let loop = RenderLoop(root: root, scheduler: scheduler)
    let backend = TerminalBackend(loop: loop, writer: writer)
    scheduler.advance()
    labels[1].text = "first"
    scheduler.advance()
    #expect(!String(decoding: output.writes.last!, as: UTF8.self).hasPrefix("\u{1B}[0m\u{1B}[2J"))
    failNext.withLock { $0 = true }
    labels[2].text = "lost"
    scheduler.advance()
    labels[3].text = "next"
    scheduler.advance()
    // The screen may show part of the lost frame: the next one repaints everything.
    let repaint = String(decoding: output.writes.last!, as: UTF8.self)
    #expect(repaint.hasPrefix("\u{1B}[0m\u{1B}[2J"))
    #expect(repaint.contains("lost") && repaint.contains("next"))
    labels[4].text = "calm"
    scheduler.advance()
    #expect(backend.lastFrameBytes < 64)
  }

  @Test func openingAPipeIsATypedError() {
    var descriptors: [Int32] = [0, 0]
    #expect(pipe(&descriptors) == 0)
    defer {
      close(descriptors[0])
      close(descriptors[1])
    }
    #expect(throws: TerminalError.notATerminal(descriptor: descriptors[0])) {
      try Terminal.open(input: descriptors[0], output: descriptors[1])
    }
  }
}
